"""Running a matrix: resume, dispatch, record, summarise (docs/matrix.md).

```
OUT/
├── matrix.json           what was asked (kind, agents, cases, trials, options, each
│                         candidate's code digest): a rerun with another request is refused, so
│                         a folder is one matrix; and the matrix's nonce
├── jobs/AGENT/CASE/trial-NN/
│   ├── …                 the job's own files (run folder or evidence, verdict)
│   ├── job.json          the job's outcome, as the driver derived it from the verdict
│   └── job.dsse.json     the driver's signature on job.json and the verdict files it checked
├── summary.json          the summary (`_summary.py`), written last
└── summary.dsse.json     the laboratory's signature on the summary and matrix.json
```

A job counts as done only with a signed job record whose verdict is unchanged: a rerun of the
same command verifies each and skips it, redoes everything else (a folder left `.partial` by a
killed driver, a finished folder whose record was never signed, a harness fault), so a driver
killed at any point loses and duplicates nothing. The driver alone signs job records, and
takes nothing from a worker but "the job finished" (red team round 13c, A3: a key-less worker
that joined the scheduler reported passes the driver signed): it reads the job's verdict and
the laboratory's signature on it once, requires that signature to name this job and attempt
and what was planned, and derives the outcome from the verified bytes (`_check.py`).

A job's record is bound to its matrix and its candidate (red team round 13, H3, H8): its signed
facts name the matrix's nonce (drawn when the matrix starts in an empty folder, kept in
matrix.json) and the job's `identity` (the candidate's code digest and every option that decides
the verdict), and a rerun keeps a record only when both are this matrix's — a job of another
matrix, or of the candidate's code before it changed, is run again. A rerun over a folder that
holds an earlier attempt is `resumed: true` in the signed summary, which names the jobs run in
this attempt (`rerun`): a same-user process may have deleted a failed job between attempts so
that it was drawn again, and nothing left can tell; its agents' results are not a sealed
headline (`sealed: false` where the kind says sealed). A matrix started in an empty folder is a
new sample: it keeps no job record at all, not even one that appears in its folder while it
runs and names its nonce (red team round 13b, H3: the nonce is in matrix.json, readable from
the moment it is written, so another process can record jobs that name it).
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from provebench._canonical import canonical_json, sha256_bytes, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import parse_json_bytes
from provebench._paths import check_output_dir
from provebench._read_once import read_once
from provebench.attest import load_trusted_key, sign_statement
from provebench.attest._envelope import AttestationError, sign_files, statement, statement_of
from provebench.attest._keys import TrustedKey, laboratory_signer
from provebench.matrix import _store as store
from provebench.matrix._check import JobCheck, JobRejected
from provebench.matrix._executors import Executor
from provebench.matrix._jobs import JobResult, JobSpec
from provebench.matrix._summary import KindSection, summarize

MANIFEST_FILE = "matrix.json"
SUMMARY_FILE = "summary.json"
JOBS_DIR = "jobs"
JOB_FILE = "job.json"
JOB_ENVELOPE = "job.dsse.json"
JOB_PREDICATE = "urn:provebench:matrix-job:1"
MATRIX_FORMAT = "provebench.matrix/1"
SUMMARY_ENVELOPE = "summary.dsse.json"
SUMMARY_PREDICATE = "urn:provebench:matrix-summary:1"
NONCE_BYTES = 16


class MatrixProgress(Protocol):
    def start(self, total: int, reused: int) -> None: ...
    def job_done(self, result: JobResult) -> None: ...
    def finish(self) -> None: ...


@dataclass(frozen=True)
class MatrixRequest:
    kind: str  # "pilot" | "si"
    request: Mapping[str, Any]  # what was asked, recorded in matrix.json and the summary
    specs: Sequence[JobSpec]
    task_of: Callable[[JobSpec], str]
    kind_section: KindSection
    # How the driver checks a finished job and derives its outcome from the job's signed
    # verdict (`_check.py`): nothing the worker says is counted.
    check: JobCheck
    # What the driver makes before any job runs (the pilot's corpora), once the folder is known
    # to be this matrix's; given the matrix's nonce (a control matrix's secret is kept by it).
    prepare: Callable[[str], None] | None = None
    # The identity of what `prepare` made for a job (the pilot's corpus manifest digest), added
    # to the job's `identity` once it is made: a job record is kept, and a job counted, only for
    # the very input it ran on — two jobs on different corpora never share an identity.
    made: Callable[[JobSpec], Mapping[str, Any]] | None = None
    # Where the job folders are when not under OUT/jobs (an fsspec URL, `--store`): recorded
    # in matrix.json, never in the summary (the same matrix gives the same summary anywhere).
    store: str | None = None
    # Called once every job is done, before the summary is written: raises when a candidate's
    # code is no longer the one the matrix was planned for (it changed while the jobs ran).
    recheck: Callable[[], None] | None = None


def job_location(out: Path, key: str, store: str | None) -> str:
    """A job's folder: OUT/jobs/KEY, or STORE/jobs/KEY on a URL store."""
    if store is None:
        return str((out / JOBS_DIR / key).resolve())
    return f"{store.rstrip('/')}/{JOBS_DIR}/{key}"


def _recorded(
    location: str, trusted: Callable[[], Any], spec: JobSpec, nonce: str
) -> JobResult | None:
    """The signed record of a finished job, if it verifies with every file it covers unchanged
    and its signed facts name this job, this matrix (`nonce`) and the candidate as it is now
    (`spec.identity`). Every file is judged from the bytes read once."""
    envelope_bytes = store.read_bytes(location, JOB_ENVELOPE)
    record_bytes = store.read_bytes(location, JOB_FILE) if envelope_bytes is not None else None
    if envelope_bytes is None or record_bytes is None:
        return None
    record = parse_json_bytes(record_bytes, source=f"{location}/{JOB_FILE}")
    outcome = record.get("outcome") if isinstance(record, dict) else None
    if not isinstance(outcome, dict):
        return None
    key = trusted()  # no key to check a record against is an error, not a redo
    try:
        signed = statement_of(
            envelope_bytes, Path(location) / JOB_ENVELOPE, key, predicate_type=JOB_PREDICATE
        )
    except AttestationError:
        return None
    if signed.subjects.get(JOB_FILE) != sha256_bytes(record_bytes):
        return None  # the record judged is not the one signed
    for name, digest in signed.subjects.items():
        if name == JOB_FILE:
            continue
        data = store.read_bytes(location, name) if _inside(name) else None
        if data is None or sha256_bytes(data) != digest:
            return None  # a verdict (or its signature) changed since the driver checked it
    facts = signed.predicate
    if facts.get("key") != spec.key or record.get("key") != spec.key:
        return None
    if facts.get("matrix") != nonce or facts.get("identity") != _plain(spec.identity):
        return None  # another matrix's job, or the candidate's code before it changed
    return JobResult(spec.key, "done", outcome=dict(outcome))


def _inside(name: str) -> bool:
    """A name of a file inside the job's folder (a signed subject is one; never a way out)."""
    parts = Path(name).parts
    return bool(parts) and ".." not in parts and not Path(name).is_absolute()


def _record(
    location: str, spec: JobSpec, nonce: str, check: JobCheck, trusted: TrustedKey
) -> JobResult:
    """Check the finished job's signed verdict and derive its outcome (`_check.py`), then
    write and sign the job's record of what was checked. The worker's own report is not read:
    a job whose files do not hold is a harness fault with the reason."""
    try:
        checked = check(spec, lambda name: store.read_bytes(location, name), trusted)
    except (JobRejected, AttestationError, ProvebenchError) as error:
        said = error.one_line() if isinstance(error, ProvebenchError) else str(error)
        reason = f"the job's signed verdict does not hold: {said}"[:500]
        return JobResult(spec.key, "harness_fault", reason=reason)
    record = {
        "format": MATRIX_FORMAT,
        "key": spec.key,
        "agent": spec.agent,
        "case": spec.case,
        "trial": spec.trial,
        "identity": spec.identity,
        "outcome": checked.outcome,
    }
    record_bytes = canonical_json(record).encode("utf-8")
    store.write_bytes(location, JOB_FILE, record_bytes)
    subjects = {**checked.subjects, JOB_FILE: sha256_bytes(record_bytes)}
    facts = {
        "key": spec.key,
        "agent": spec.agent,
        "success": checked.outcome.get("success"),
        "matrix": nonce,
        "identity": spec.identity,
    }
    document = statement(subjects, JOB_PREDICATE, facts)
    envelope = sign_statement(document, laboratory_signer())
    store.write_bytes(location, JOB_ENVELOPE, canonical_json(envelope).encode("utf-8"))
    return JobResult(spec.key, "done", outcome=dict(checked.outcome))


def _check_manifest(out: Path, manifest: Mapping[str, Any]) -> tuple[str, str]:
    """Refuse a folder of another matrix; write matrix.json in a new one. The matrix's nonce
    (the folder's, or drawn now), and the sha256 of matrix.json's bytes as read or written."""
    path = out / MANIFEST_FILE
    if path.is_file():
        held = read_once(path)
        recorded = parse_json_bytes(held.data, source=str(path))
        if not isinstance(recorded, dict):
            raise ProvebenchError("not a matrix manifest", path=path, field="$")
        nonce = recorded.pop("nonce", None)
        wanted = json_plain(manifest)
        if recorded != wanted:
            differs = sorted(k for k in {*recorded, *wanted} if recorded.get(k) != wanted.get(k))
            raise ProvebenchError(
                "this folder holds another matrix (its matrix.json differs: a changed "
                "candidate's code, another request); use a new --out",
                path=path,
                field=differs[0] if differs else None,
            )
        if isinstance(nonce, str) and len(nonce) == 2 * NONCE_BYTES and nonce.isalnum():
            return nonce, held.sha256
        # A matrix of an earlier release, with no nonce: none of its jobs names one.
    elif out.exists() and any(out.iterdir()):
        raise ProvebenchError("output exists and is not a matrix folder", path=out, field="--out")
    out.mkdir(parents=True, exist_ok=True)
    nonce = secrets.token_hex(NONCE_BYTES)
    digest = write_atomic(path, canonical_json({**manifest, "nonce": nonce}))
    return nonce, digest


def _plain(value: Mapping[str, Any]) -> Any:
    return json.loads(canonical_json(value))


def json_plain(value: Mapping[str, Any]) -> Any:
    return _plain(value)


def run_matrix(
    request: MatrixRequest,
    out: Path,
    executor_factory: Callable[[], Executor],
    progress: MatrixProgress,
) -> dict[str, Any]:
    """Run (or resume) the matrix into `out`; returns the summary (also written)."""
    check_output_dir(out)
    manifest = {"format": MATRIX_FORMAT, "kind": request.kind, **request.request}
    if request.store is not None:
        manifest["store"] = request.store
    # Any trace of an earlier attempt (the manifest is written before any job) makes a resume.
    resumed = (out / MANIFEST_FILE).is_file()
    nonce, manifest_sha256 = _check_manifest(out, manifest)
    if request.prepare is not None:
        request.prepare(nonce)
    specs = _bound_to_what_was_made(request)
    (out / SUMMARY_ENVELOPE).unlink(missing_ok=True)  # the summary of this run, or none
    (out / SUMMARY_FILE).unlink(missing_ok=True)
    # Loaded at the first job record, once: a new matrix needs no key to start.
    trusted = functools.cache(load_trusted_key)
    results: dict[str, JobResult] = {}
    todo: list[JobSpec] = []
    for spec in specs:
        # An attempt that began with no trace of an earlier one keeps nothing (red team round
        # 13b, H3): a record planted while it runs names its nonce only because matrix.json,
        # which holds it, is readable as soon as it is written.
        found = _recorded(spec.folder, trusted, spec, nonce) if resumed else None
        if found is not None:
            results[spec.key] = found
            continue
        store.clear(spec.folder)  # unsigned: redone, never trusted
        todo.append(replace(spec, attempt=secrets.token_hex(NONCE_BYTES)))
    progress.start(len(specs), len(results))
    if todo:
        executor = executor_factory()
        try:
            by_key = {spec.key: spec for spec in todo}
            for result in executor.run(todo):
                spec = by_key[result.key]
                if result.status == "done":
                    result = _record(spec.folder, spec, nonce, request.check, trusted())
                results[spec.key] = result
                progress.job_done(result)
        finally:
            executor.close()
    progress.finish()
    if request.recheck is not None:
        request.recheck()  # no summary of code that is no longer the candidate's
    summary = summarize(
        request.kind, request.request, specs, results, request.task_of, request.kind_section
    )
    summary = _marked(summary, resumed, sorted(spec.key for spec in todo))
    write_atomic(out / SUMMARY_FILE, canonical_json(summary))
    sign_summary(out, summary, manifest_sha256)
    return summary


def _bound_to_what_was_made(request: MatrixRequest) -> list[JobSpec]:
    """The jobs, each identity with what `prepare` made for it (`MatrixRequest.made`)."""
    if request.made is None:
        return list(request.specs)
    bound: list[JobSpec] = []
    for spec in request.specs:
        made = dict(request.made(spec))
        clash = sorted(set(made) & set(spec.identity))
        if clash:  # a plan's bug, never the input's: the identity must not be overwritten
            raise RuntimeError(f"the job's identity already names {clash[0]}")
        bound.append(replace(spec, identity={**spec.identity, **made}))
    return bound


def _marked(summary: dict[str, Any], resumed: bool, rerun: list[str]) -> dict[str, Any]:
    """The summary with whether it resumed, and then the jobs run in this attempt; a resumed
    matrix's agents are not a sealed result (red team round 13, H3)."""
    marked = {**summary, "resumed": resumed}
    if resumed:
        marked["rerun"] = rerun
        marked["agents"] = [
            {**agent, "sealed": False} if "sealed" in agent else agent
            for agent in summary["agents"]
        ]
    return marked


def sign_summary(out: Path, summary: Mapping[str, Any], manifest_sha256: str) -> None:
    """The laboratory's signature on the summary and matrix.json (`summary.dsse.json`), the
    predicate repeating what a reader decides on: whether it resumed, each agent's counts,
    whether it is complete (no harness fault) and pass^k. Each job's record is signed on its
    own (`job.dsse.json`)."""
    predicate = {
        "kind": summary["kind"],
        "jobs": summary["jobs"],
        "resumed": summary["resumed"],
        **({"rerun": summary["rerun"]} if summary["resumed"] else {}),
        "agents": [
            {
                "agent": agent["agent"],
                "successes": agent["successes"],
                "done": agent["done"],
                # an agent with a harness fault is incomplete, its pass^k a lower bound that
                # counts each fault as a failure (red team round 14, H4)
                "complete": agent["complete"],
                "harness_faults": agent["harness_faults"],
                "pass_hat_k": agent["pass_hat_k"],
                **({"sealed": agent["sealed"]} if "sealed" in agent else {}),
            }
            for agent in summary["agents"]
        ],
    }
    try:
        sign_files(
            out,
            [SUMMARY_FILE, MANIFEST_FILE],
            out / SUMMARY_ENVELOPE,
            SUMMARY_PREDICATE,
            predicate,
            held={MANIFEST_FILE: manifest_sha256},
        )
    except AttestationError:
        (out / SUMMARY_FILE).unlink(missing_ok=True)  # no summary that looks complete
        raise


__all__ = [
    "JOBS_DIR",
    "JOB_ENVELOPE",
    "JOB_FILE",
    "MANIFEST_FILE",
    "SUMMARY_ENVELOPE",
    "SUMMARY_FILE",
    "SUMMARY_PREDICATE",
    "MatrixProgress",
    "MatrixRequest",
    "job_location",
    "run_matrix",
    "sign_summary",
]
