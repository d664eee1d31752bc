"""Fixtures for the evidence tests: fixture paths and the real `provebench` entry point."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
_REPO = Path(__file__).resolve().parents[2]
_ENTRY_POINT = _REPO / ".venv" / "bin" / "provebench"

RunCli = Callable[..., subprocess.CompletedProcess[str]]


def _command() -> list[str]:
    # The console script goes through `main()`, which owns the one-line error and exit status 2.
    if _ENTRY_POINT.exists():
        return [str(_ENTRY_POINT)]
    return [sys.executable, "-m", "provebench"]


@pytest.fixture
def run_cli() -> RunCli:
    def run(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*_command(), *(str(arg) for arg in args)],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            cwd=cwd,
            timeout=60,
            check=False,
        )

    return run


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
