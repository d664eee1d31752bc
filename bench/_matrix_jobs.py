"""The benchmark's matrix job: sleeps for the job time and writes a one-line verdict signed for
its job and attempt, as the pilot's and SI jobs do (a job of known length, so what the matrix
adds — the driver's check of each signed verdict included — is what is left)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from provebench.attest._envelope import write_and_sign
from provebench.attest._keys import TrustedKey
from provebench.matrix import JobSpec
from provebench.matrix._check import CheckedJob, JobReader, job_binding, signed_verdict

PREDICATE = "urn:provebench:bench-verdict:1"
VERDICT = "verdict.json"
ENVELOPE = "verdict.dsse.json"


def sleeper(spec: JobSpec, folder: Path) -> dict[str, Any]:
    time.sleep(float(spec.params["seconds"]))
    write_and_sign(
        folder / VERDICT,
        '{"ok": true}\n',
        folder / ENVELOPE,
        PREDICATE,
        {"matrix_job": job_binding(spec)},
    )
    return {"verdict": VERDICT}


def check(spec: JobSpec, read: JobReader, trusted: TrustedKey) -> CheckedJob:
    signed = signed_verdict(spec, read, trusted, verdict=VERDICT, envelope=ENVELOPE,
                            predicate_type=PREDICATE)  # fmt: skip
    outcome = {
        "success": json.loads(signed.data)["ok"] is True,
        "metrics": {},
        "verdict": VERDICT,
        "verdict_sha256": signed.sha256,
    }
    return CheckedJob(outcome, signed.subjects)
