"""Shared fixtures for the call-import laboratory tests: generated corpora and run helpers."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from provebench.pilot.corpus import corpus_config, write_corpus

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


def run_cli_here(*args: str) -> subprocess.CompletedProcess[str]:
    """`provebench ARGS` through the console script's own entry (`provebench._entry.main`) in
    this process: the exit code, standard output and standard error `run_cli` gives, less the
    interpreter start and imports of a second process (about 1.5 s of CPU a command, most of
    the provider tests' CPU). For a test whose point is what the command does (its verdicts,
    its files, its exit code), not that the installed command starts: a test of the command as
    a user starts it keeps `run_cli`. What the test process patched is patched here too, so a
    test that patches provebench for one side of a comparison keeps `run_cli` for the other."""
    from provebench._entry import main

    out, err = io.StringIO(), io.StringIO()
    argv, code = sys.argv, 0
    sys.argv = ["provebench", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exited:
                if isinstance(exited.code, str):
                    print(exited.code, file=sys.stderr)
                    code = 1
                else:
                    code = exited.code or 0
    finally:
        sys.argv = argv
    return subprocess.CompletedProcess(["provebench", *args], code, out.getvalue(), err.getvalue())


def in_process_agent(spec: str) -> Any:
    """A test's `path.py:Class` importer loaded into this process, unsealed: for tests of the
    laboratory's own machinery (the time limit's signal handling, crash points) that need an
    importer on the laboratory's own thread. Its isolation says so, and so its evaluation never
    passes (docs/sandbox.md)."""
    from provebench._plugin import identity_of, resolve_class
    from provebench.pilot.agents._loader import LoadedAgent

    candidate = resolve_class(spec, {})
    name, version = identity_of(candidate)
    isolation = {"mode": "none", "reason": "a test importer run in the laboratory's process"}
    return LoadedAgent(spec, name, version, candidate, isolation, code_sha256="0" * 64)
