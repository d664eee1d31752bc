"""The benchmark's matrix job: sleeps for the job time and writes a one-line verdict (a job of
known length, so what the matrix adds is what is left)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from provebench._canonical import sha256_file
from provebench.matrix import JobSpec


def sleeper(spec: JobSpec, folder: Path) -> dict[str, Any]:
    time.sleep(float(spec.params["seconds"]))
    (folder / "verdict.json").write_text('{"ok": true}\n', encoding="utf-8")
    return {
        "success": True,
        "metrics": {},
        "verdict": "verdict.json",
        "verdict_sha256": sha256_file(folder / "verdict.json"),
    }
