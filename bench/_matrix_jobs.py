"""The benchmark's matrix job: sleeps for the job time and writes a one-line verdict signed for
its job and attempt, as the pilot's and SI jobs do (a job of known length, so what the matrix
adds — the driver's check of each signed verdict included — is what is left)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from provebench._canonical import sha256_bytes
from provebench.attest._envelope import statement_of, write_and_sign
from provebench.attest._keys import TrustedKey
from provebench.matrix import JobSpec
from provebench.matrix._check import (
    CheckedJob,
    JobReader,
    job_binding,
    read_required,
    require_bound,
    require_subject,
)

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
    files = read_required(read, VERDICT, ENVELOPE)
    signed = statement_of(
        files[ENVELOPE], Path(spec.folder) / ENVELOPE, trusted, predicate_type=PREDICATE
    )
    digest = require_subject(signed.subjects, VERDICT, files[VERDICT])
    require_bound(spec, signed.predicate)
    outcome = {
        "success": json.loads(files[VERDICT])["ok"] is True,
        "metrics": {},
        "verdict": VERDICT,
        "verdict_sha256": digest,
    }
    return CheckedJob(outcome, {VERDICT: digest, ENVELOPE: sha256_bytes(files[ENVELOPE])})
