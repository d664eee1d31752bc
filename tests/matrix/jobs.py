"""Test jobs for the matrix engine, and the check the driver runs on them: a job that writes a
verdict the laboratory signs for its job and attempt (as the pilot's and SI jobs do), one that
raises, one that writes an unsigned verdict and reports a pass."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, sha256_bytes
from provebench.attest._envelope import write_and_sign
from provebench.attest._keys import TrustedKey
from provebench.matrix import JobResult, JobSpec
from provebench.matrix._check import CheckedJob, JobReader, job_binding, signed_verdict

TEST_PREDICATE = "urn:provebench:test-verdict:1"
VERDICT = "verdict.json"
ENVELOPE = "verdict.dsse.json"


def write_verdict(spec: JobSpec, folder: Path, document: dict[str, Any]) -> None:
    """Write `document` as the job's verdict, signed for this job and attempt."""
    write_and_sign(folder / VERDICT, canonical_json(document), folder / ENVELOPE,
                   TEST_PREDICATE, {"matrix_job": job_binding(spec)})  # fmt: skip


def check(spec: JobSpec, read: JobReader, trusted: TrustedKey) -> CheckedJob:
    """The outcome from the verified verdict's bytes, never from the worker's report."""
    signed = signed_verdict(spec, read, trusted, verdict=VERDICT, envelope=ENVELOPE,
                            predicate_type=TEST_PREDICATE)  # fmt: skip
    success = json.loads(signed.data)["success"] is True
    outcome = {"success": success, "metrics": {"score": 1.0 if success else 0.0},
               "verdict": VERDICT, "verdict_sha256": signed.sha256}  # fmt: skip
    return CheckedJob(outcome, signed.subjects)


class InProcess:
    """An executor whose every job is `act(spec)`, run here, one after the other: what the
    engine sees of any backend, a rogue worker included."""

    name = "stand-in"

    def __init__(self, act: Callable[[JobSpec], JobResult]) -> None:
        self.act = act

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        for spec in specs:
            yield self.act(spec)

    def close(self) -> None:
        pass


def explode(spec: JobSpec, folder: Path) -> dict[str, Any]:
    raise RuntimeError(f"the harness broke on {spec.case}")


def succeed(spec: JobSpec, folder: Path) -> dict[str, Any]:
    time.sleep(float(spec.params.get("sleep", 0)))
    success = spec.params.get("outcomes", {}).get(f"{spec.case}/{spec.trial}", True)
    write_verdict(spec, folder, {"case": spec.case, "success": success})
    return {"verdict": VERDICT}


def lies(spec: JobSpec, folder: Path) -> dict[str, Any]:
    """An unsigned verdict saying pass, and a report of a pass: what a key-less worker sends."""
    (folder / VERDICT).write_text('{"success": true}\n', encoding="utf-8")
    data = (folder / VERDICT).read_bytes()
    return {"success": True, "metrics": {"score": 1.0}, "verdict": VERDICT,
            "verdict_sha256": sha256_bytes(data)}  # fmt: skip


def blocked_when_failing(spec: JobSpec, folder: Path) -> dict[str, Any]:
    """`succeed`, and when its verdict is a fail, the job's final folder made before the
    worker's rename: what red team round 14's same-user racer (A11) did to each failing job, so
    that the worker raised "another attempt of this job finished first", a harness fault."""
    result = succeed(spec, folder)
    if not json.loads((folder / VERDICT).read_bytes())["success"]:
        Path(spec.folder).mkdir(parents=True)
    return result
