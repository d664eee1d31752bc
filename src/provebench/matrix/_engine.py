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

import secrets
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from provebench._canonical import canonical_json, sha256_file, write_atomic
from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench._paths import check_output_dir
from provebench.attest import load_trusted_key, sign_statement, write_envelope
from provebench.attest._envelope import AttestationError, read_verified, statement
from provebench.attest._keys import laboratory_signer
from provebench.matrix._executors import Executor
from provebench.matrix._jobs import PARTIAL_SUFFIX, JobResult, JobSpec
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


def job_folder(out: Path, key: str) -> Path:
    return out / JOBS_DIR / key


def _recorded(folder: Path, trusted: Any) -> JobResult | None:
    """The signed record of a finished job, if it verifies with its verdict unchanged."""
    envelope = folder / JOB_ENVELOPE
    if not envelope.is_file():
        return None
    try:
        read_verified(envelope, trusted, predicate_type=JOB_PREDICATE)
    except (AttestationError, ProvebenchError):
        return None
    record = read_json_file(folder / JOB_FILE)
    if not isinstance(record, dict) or not isinstance(record.get("outcome"), dict):
        return None
    return JobResult(str(record["key"]), "done", outcome=dict(record["outcome"]))


def _record(folder: Path, spec: JobSpec, result: JobResult) -> JobResult:
    """Check the verdict the worker named, then write and sign the job's record."""
    verdict = result.outcome.get("verdict")
    digest = result.outcome.get("verdict_sha256")
    path = folder / str(verdict)
    if (
        not isinstance(verdict, str)
        or ".." in Path(verdict).parts
        or not path.is_file()
        or sha256_file(path) != digest
    ):
        said = "the job's verdict is missing or not the one it reported"
        return JobResult(spec.key, "harness_fault", reason=said)
    record = {
        "format": MATRIX_FORMAT,
        "key": spec.key,
        "agent": spec.agent,
        "case": spec.case,
        "trial": spec.trial,
        "outcome": result.outcome,
    }
    write_atomic(folder / JOB_FILE, canonical_json(record))
    subjects = {JOB_FILE: sha256_file(folder / JOB_FILE), verdict: str(digest)}
    facts = {"key": spec.key, "agent": spec.agent, "success": result.outcome.get("success")}
    document = statement(subjects, JOB_PREDICATE, facts)
    write_envelope(folder / JOB_ENVELOPE, sign_statement(document, laboratory_signer()))
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
    _check_manifest(out, manifest)
    if request.prepare is not None:
        request.prepare()
    (out / SUMMARY_FILE).unlink(missing_ok=True)  # the summary of this run, or none
    trusted = load_trusted_key() if any(_has_envelope(out, s) for s in request.specs) else None
    results: dict[str, JobResult] = {}
    todo: list[JobSpec] = []
    for spec in request.specs:
        folder = job_folder(out, spec.key)
        found = _recorded(folder, trusted) if trusted is not None else None
        if found is not None and found.key == spec.key:
            results[spec.key] = found
            continue
        if folder.parent.is_dir():
            for leftover in folder.parent.glob(f"{folder.name}{PARTIAL_SUFFIX}-*"):
                shutil.rmtree(leftover, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)  # unsigned: redone, never trusted
        todo.append(replace(spec, attempt=secrets.token_hex(6)))
    progress.start(len(request.specs), len(results))
    if todo:
        executor = executor_factory()
        try:
            by_key = {spec.key: spec for spec in todo}
            for result in executor.run(todo):
                spec = by_key[result.key]
                if result.status == "done":
                    result = _record(job_folder(out, spec.key), spec, result)
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


def _has_envelope(out: Path, spec: JobSpec) -> bool:
    return (job_folder(out, spec.key) / JOB_ENVELOPE).is_file()


__all__ = [
    "JOBS_DIR",
    "JOB_ENVELOPE",
    "JOB_FILE",
    "MANIFEST_FILE",
    "SUMMARY_FILE",
    "MatrixProgress",
    "MatrixRequest",
    "job_folder",
    "run_matrix",
]
