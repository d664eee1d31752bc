"""A probe's findings from inside a real sandbox: its source run as a sealed SI agent
(`si run --agent-cmd`), which reports what it found as its final answer (JSON)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def probe_answer(tmp_path: Path, source: str, scenario: Path) -> Any:
    """Run `source` as the sealed agent of `scenario`; its final answer, decoded."""
    agent = tmp_path / "ag" / "probe.py"
    agent.parent.mkdir()
    agent.write_text(source, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "provebench", "si", "run", str(scenario),
         "--agent-cmd", f"{sys.executable} {agent}", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, check=False, timeout=200,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    evidence = json.loads((tmp_path / "out" / "evidence.json").read_text(encoding="utf-8"))
    return json.loads(evidence["final_answer"])
