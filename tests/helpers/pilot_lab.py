"""Shared fixtures for the call-import laboratory tests: generated corpora and run helpers."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

from provebench.pilot._corpus import write_corpus
from provebench.pilot._profiles import corpus_config

REPO_ROOT = Path(__file__).resolve().parents[2]
PROVEBENCH = [sys.executable, "-m", "provebench"]


def make_corpus(directory: Path, *, profile: str = "public", seed: int = 1) -> Path:
    """Generate (once) the corpus of `profile` and `seed` under `directory`."""
    target = directory / f"corpus-{profile}-{seed}"
    if not target.exists():
        write_corpus(corpus_config(seed=seed, profile=profile), target)  # type: ignore[arg-type]
    return target


def read_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def run_cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`provebench ARGS` in a subprocess (exit codes and stderr as a user sees them)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [*PROVEBENCH, *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
        check=False,
        cwd=REPO_ROOT,
    )
