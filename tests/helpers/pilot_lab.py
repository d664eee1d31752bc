"""Shared fixtures for the call-import laboratory tests: generated corpora and run helpers."""

from __future__ import annotations

import csv
import json
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


def log_but_nonce(path: Path) -> list[dict[str, Any]]:
    """A run's ledger.jsonl as another run of the same inputs writes it again: every run draws
    its own random nonce into its first entry (docs/attestation.md, "Keyed anchors"), so the
    first entry's hash, every hash chained after it and every anchor's signature differ; the
    rest — kinds, order, payloads, anchor statements' format and key — must not."""
    entries: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        entry.pop("hash")
        entry.pop("prev_hash")
        payload = entry["payload"]
        if entry["kind"] == "run_started":
            assert len(payload.pop("nonce")) == 64
        if isinstance(payload.get("anchor"), dict):
            assert payload["anchor"].pop("sig")
        entries.append(entry)
    return entries
