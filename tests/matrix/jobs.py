"""Test jobs for the matrix engine: a job that raises, one that sleeps, one that reports a
verdict it did not write."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from provebench._canonical import sha256_file
from provebench.matrix import JobSpec


def explode(spec: JobSpec, folder: Path) -> dict[str, Any]:
    raise RuntimeError(f"the harness broke on {spec.case}")


def succeed(spec: JobSpec, folder: Path) -> dict[str, Any]:
    time.sleep(float(spec.params.get("sleep", 0)))
    (folder / "verdict.json").write_text(f'{{"case": "{spec.case}"}}\n', encoding="utf-8")
    success = spec.params.get("outcomes", {}).get(f"{spec.case}/{spec.trial}", True)
    return {
        "success": success,
        "metrics": {"score": 1.0 if success else 0.0},
        "verdict": "verdict.json",
        "verdict_sha256": sha256_file(folder / "verdict.json"),
    }


def lies(spec: JobSpec, folder: Path) -> dict[str, Any]:
    (folder / "verdict.json").write_text("{}\n", encoding="utf-8")
    return {"success": True, "metrics": {}, "verdict": "verdict.json", "verdict_sha256": "0" * 64}
