"""Running a matrix: resume, dispatch, record, summarise (docs/matrix.md).

```
OUT/
├── matrix.json           what was asked (kind, agents, cases, trials, options): a rerun with
│                         another request is refused, so a folder is one matrix
├── jobs/AGENT/CASE/trial-NN/
│   ├── …                 the job's own files (run folder or evidence, verdict)
│   ├── job.json          the job's outcome and the sha256 of its verdict
│   └── job.dsse.json     signed by the laboratory key when the driver received it
└── summary.json          the summary (`_summary.py`), written last
```

A job counts as done only with a signed job record whose verdict is unchanged: a rerun of the
same command verifies each and skips it, redoes everything else (a folder left `.partial` by a
killed driver, a finished folder whose record was never signed, a harness fault), so a driver
killed at any point loses and duplicates nothing. The driver alone signs job records: a worker
returns its outcome, the verdict's path and sha256, and the driver checks the file has that
sha256 before vouching for it.
"""

from __future__ import annotations

import functools
import secrets
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from provebench._canonical import canonical_json, sha256_bytes, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import parse_json_bytes, read_json_file
from provebench._paths import check_output_dir
from provebench.attest import load_trusted_key, sign_statement
from provebench.attest._envelope import AttestationError, read_verified, statement
from provebench.attest._keys import laboratory_signer
from provebench.matrix import _store as store
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
    # What the driver makes before any job runs (the pilot's corpora), once the folder is known
    # to be this matrix's.
    prepare: Callable[[], None] | None = None
    # Where the job folders are when not under OUT/jobs (an fsspec URL, `--store`): recorded
    # in matrix.json, never in the summary (the same matrix gives the same summary anywhere).
    store: str | None = None


def job_location(out: Path, key: str, store: str | None) -> str:
    """A job's folder: OUT/jobs/KEY, or STORE/jobs/KEY on a URL store."""
    if store is None:
        return str((out / JOBS_DIR / key).resolve())
    return f"{store.rstrip('/')}/{JOBS_DIR}/{key}"


def _recorded(location: str, trusted: Callable[[], Any]) -> JobResult | None:
    """The signed record of a finished job, if it verifies with its verdict unchanged. Each file
    is read once; a URL store's record and envelope are verified from the bytes read, its
    verdict fetched beside them."""
    envelope_bytes = store.read_bytes(location, JOB_ENVELOPE)
    record_bytes = store.read_bytes(location, JOB_FILE) if envelope_bytes is not None else None
    if envelope_bytes is None or record_bytes is None:
        return None
    record = parse_json_bytes(record_bytes, source=f"{location}/{JOB_FILE}")
    outcome = record.get("outcome") if isinstance(record, dict) else None
    if not isinstance(outcome, dict) or not isinstance(outcome.get("verdict"), str):
        return None
    with tempfile.TemporaryDirectory(prefix="provebench-job-") as temp:
        base = Path(location)
        if store.is_remote(location):
            base = store.fetch(location, [outcome["verdict"]], Path(temp))
            (base / JOB_FILE).write_bytes(record_bytes)
            (base / JOB_ENVELOPE).write_bytes(envelope_bytes)
        key = trusted()  # no key to check a record against is an error, not a redo
        try:
            read_verified(base / JOB_ENVELOPE, key, predicate_type=JOB_PREDICATE)
        except (AttestationError, ProvebenchError):
            return None
    return JobResult(str(record["key"]), "done", outcome=dict(outcome))


def _record(location: str, spec: JobSpec, result: JobResult) -> JobResult:
    """Check the verdict the worker named, then write and sign the job's record."""
    verdict = result.outcome.get("verdict")
    digest = result.outcome.get("verdict_sha256")
    data = (
        store.read_bytes(location, verdict)
        if isinstance(verdict, str) and ".." not in Path(verdict).parts
        else None
    )
    if data is None or sha256_bytes(data) != digest:
        said = "the job's verdict is missing or not the one it reported"
        return JobResult(spec.key, "harness_fault", reason=said)
    assert isinstance(verdict, str)
    record = {
        "format": MATRIX_FORMAT,
        "key": spec.key,
        "agent": spec.agent,
        "case": spec.case,
        "trial": spec.trial,
        "outcome": result.outcome,
    }
    record_bytes = canonical_json(record).encode("utf-8")
    store.write_bytes(location, JOB_FILE, record_bytes)
    subjects = {JOB_FILE: sha256_bytes(record_bytes), verdict: str(digest)}
    facts = {"key": spec.key, "agent": spec.agent, "success": result.outcome.get("success")}
    document = statement(subjects, JOB_PREDICATE, facts)
    envelope = sign_statement(document, laboratory_signer())
    store.write_bytes(location, JOB_ENVELOPE, canonical_json(envelope).encode("utf-8"))
    return result


def _check_manifest(out: Path, manifest: Mapping[str, Any]) -> None:
    path = out / MANIFEST_FILE
    if path.is_file():
        if read_json_file(path) != json_plain(manifest):
            raise ProvebenchError(
                "this folder holds another matrix (its matrix.json differs); use a new --out",
                path=path,
            )
        return
    if out.exists() and any(out.iterdir()):
        raise ProvebenchError("output exists and is not a matrix folder", path=out, field="--out")
    out.mkdir(parents=True, exist_ok=True)
    write_atomic(path, canonical_json(manifest))


def json_plain(value: Mapping[str, Any]) -> Any:
    import json

    return json.loads(canonical_json(value))


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
    _check_manifest(out, manifest)
    if request.prepare is not None:
        request.prepare()
    (out / SUMMARY_FILE).unlink(missing_ok=True)  # the summary of this run, or none
    # Loaded at the first job record, once: a new matrix needs no key to start.
    trusted = functools.cache(load_trusted_key)
    results: dict[str, JobResult] = {}
    todo: list[JobSpec] = []
    for spec in request.specs:
        found = _recorded(spec.folder, trusted)
        if found is not None and found.key == spec.key:
            results[spec.key] = found
            continue
        store.clear(spec.folder)  # unsigned: redone, never trusted
        todo.append(replace(spec, attempt=secrets.token_hex(6)))
    progress.start(len(request.specs), len(results))
    if todo:
        executor = executor_factory()
        try:
            by_key = {spec.key: spec for spec in todo}
            for result in executor.run(todo):
                spec = by_key[result.key]
                if result.status == "done":
                    result = _record(spec.folder, spec, result)
                results[spec.key] = result
                progress.job_done(result)
        finally:
            executor.close()
    progress.finish()
    summary = summarize(
        request.kind, request.request, request.specs, results, request.task_of, request.kind_section
    )
    write_atomic(out / SUMMARY_FILE, canonical_json(summary))
    return summary


__all__ = [
    "JOBS_DIR",
    "JOB_ENVELOPE",
    "JOB_FILE",
    "MANIFEST_FILE",
    "SUMMARY_FILE",
    "MatrixProgress",
    "MatrixRequest",
    "job_location",
    "run_matrix",
]
