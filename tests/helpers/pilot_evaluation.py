"""Helpers of the evaluator tests: small corpora, runs through the laboratory, verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, sha256_file, write_atomic
from provebench.pilot import run_lab
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.evaluate import Verdict, evaluate_run

DEFECTIVE = "provebench.pilot.agents.defective"
# Small public corpora keep a run well under a second.
SMALL = {"admissible_files": 12, "file_events": 30, "cycles": 4}


def make_small_corpus(
    directory: Path, *, seed: int = 1, profile: str = "public", **overrides: int
) -> Path:
    sizes = {**(SMALL if profile == "public" else {}), **overrides}
    name = f"corpus-{profile}-{seed}-" + "-".join(f"{k}{v}" for k, v in sorted(sizes.items()))
    target = directory / name
    if not target.exists():
        write_corpus(corpus_config(seed=seed, profile=profile, overrides=sizes), target)  # type: ignore[arg-type]
    return target


def run_agent(corpus: Path, agent: str, run_dir: Path) -> Path:
    """Run `agent` (a built-in name or a defective importer's class name) over `corpus`."""
    spec = agent if agent in ("reference", "noop") or ":" in agent else f"{DEFECTIVE}:{agent}"
    run_lab(corpus, spec, run_dir)
    return run_dir


def agent_errors(run_dir: Path) -> list[dict[str, str]]:
    """The `agent_error` payloads of a run's signed log, in order."""
    lines = (run_dir / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    entries = [json.loads(line) for line in lines]
    return [entry["payload"] for entry in entries if entry["kind"] == "agent_error"]


def evaluate(run_dir: Path, corpus: Path, **options: Any) -> Verdict:
    return evaluate_run(run_dir, corpus, **options)


def verdict_of(corpus: Path, helpers: str, importer: str, run_name: str = "") -> Verdict:
    """`importer` — a class of the module `helpers`, or `reference` — run over `corpus` into a
    folder beside it named after the importer (and `run_name`), and evaluated."""
    spec = importer if importer == "reference" else f"{helpers}:{importer}"
    return evaluate(run_agent(corpus, spec, corpus.parent / f"{importer}{run_name}"), corpus)


def violation_kinds(verdict: Verdict) -> set[str]:
    return {v.kind for v in verdict.critical_violations}


def rerecord(run_dir: Path, *names: str) -> None:
    """Re-record the sha256 of run files in run.json, as an attacker with the folder would."""
    record_path = run_dir / "run.json"
    record = json.loads(record_path.read_text(encoding="utf-8"))
    for name in names:
        record["files_sha256"][name] = sha256_file(run_dir / name)
    write_atomic(record_path, canonical_json(record))


def resign(run_dir: Path) -> None:
    """Sign the run folder as it is now, with the laboratory key of the test session: what the
    laboratory operator — the one party that can — would do. A test that edits run.json then
    checks a rule beyond the signature: even a signed run.json must say what the log says."""
    from provebench.pilot.record._signing import sign_run

    sign_run(run_dir, json.loads((run_dir / "run.json").read_text(encoding="utf-8")))


__all__ = [
    "DEFECTIVE",
    "SMALL",
    "evaluate",
    "make_small_corpus",
    "rerecord",
    "resign",
    "run_agent",
    "violation_kinds",
]


def served_refused(*file_ids: str, **changed: Any) -> dict[str, tuple[Any, ...]]:
    """A snapshot's `refused_files` for hand-built logs: each id an empty file (size_bytes 0,
    `corrupted_empty_file`) unless `changed` says otherwise, as the laboratory served it
    (agent contract rule 2: a detail's slots are read against it)."""
    from provebench.pilot.corpus._model import DriveFile

    fields = {
        "name": "in_79161234567_20250101T120000Z_M014.ogg",
        "created_at_utc": "2025-01-01T00:00:00Z",
        "mime_type": "audio/ogg",
        "size_bytes": 0,
        "duration_sec": 5.0,
        "folder_id": "fld-1",
    }
    return {
        file_id: (DriveFile.model_construct(file_id=file_id, **{**fields, **changed}),)
        for file_id in file_ids
    }
