"""One red-team run: an importer over a corpus in the laboratory, then the evaluator; the result
reduced to a small, deterministic summary (no paths, no timings) that a worker process returns.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._canonical import sha256_file
from provebench._errors import ProvebenchError
from provebench._read_once import copy_tree_once
from provebench.pilot.corpus._folder import MANIFEST_FILE
from provebench.pilot.record._rundir import RUN_RECORD_FILE
from provebench.pilot.redteam._situations import find_situation
from provebench.pilot.redteam._tamper import TAMPERS

RUN_DIR = "run"
CORPUS_COPY = "corpus"


@dataclass(frozen=True)
class RunTask:
    corpus_name: str
    corpus_dir: str
    agent: str
    spec: str
    work_dir: str
    isolated: bool
    sealed: bool = False
    situations: tuple[str, ...] = ()
    tamper: str = ""  # an attack on the finished run folder (`_tamper.py`), before evaluation


def execute(task: RunTask) -> dict[str, Any]:
    """Run and evaluate; a `ProvebenchError` from either is part of the result, not a crash."""
    from provebench.pilot.evaluate import evaluate_run
    from provebench.pilot.lab._runner import run_lab

    root = Path(task.work_dir)
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    original = Path(task.corpus_dir)
    corpus = original
    if task.isolated:  # the importer writes into its corpus: give it a private copy
        corpus = root / CORPUS_COPY
        copy_tree_once(original, corpus)  # the one opener (round 13b, H4)
    run_dir = root / RUN_DIR
    summary: dict[str, Any] = {"agent": task.agent, "corpus": task.corpus_name}
    try:
        run_lab(corpus, task.spec, run_dir, seal=task.sealed)
        extra = TAMPERS[task.tamper](run_dir) if task.tamper else {}
        verdict = evaluate_run(run_dir, corpus, **extra)
    except ProvebenchError as error:
        # Paths inside the output folder are given relative to the run's folder: same seed,
        # same bytes, wherever the output folder is.
        summary.update(_refused(error.one_line().replace(f"{root}{os.sep}", "")))
    else:
        summary.update(_summarise(verdict, run_dir))
    summary["corpus_files_altered"] = _altered_files(original, corpus) if task.isolated else 0
    # Read from the original corpus: an importer that rewrote its copy does not get to choose.
    summary["situations"] = {key: find_situation(key, original, run_dir) for key in task.situations}
    return summary


def _refused(message: str) -> dict[str, Any]:
    """Run or evaluation refused as bad input: no verdict, so no signal of any kind."""
    return {
        "run_error": message,
        "status": "refused",
        "scorer_pass": False,
        "laboratory_pass": False,
        "pilot_pass": None,
        "preliminary_signal_credited": False,
        "released_total": 0.0,
        "metrics": {},
        "violations": {},
        "stops": [],
        "configuration_errors": [],
        "self_check_missing": 0,
        "self_check_gaps": 0,
        "faults_unexercised": 0,
        "refusal_report_gaps": 0,
        "refusal_report_problems": [],
        "refused_attempts": 0,
        "log_entries_altered": 0,
    }


def _summarise(verdict: Any, run_dir: Path) -> dict[str, Any]:
    metrics: dict[str, list[int]] = {}
    if verdict.metrics is not None:
        overall = verdict.metrics.overall
        for name in type(overall).model_fields:
            metric = getattr(overall, name)
            metrics[name] = [metric.numerator, metric.denominator]
    violations: dict[str, int] = {}
    altered = 0
    for violation in verdict.critical_violations:
        violations[violation.kind] = violations.get(violation.kind, 0) + 1
        if violation.kind == "evaluator_log_modification":
            # One per log entry the evaluator cites as deleted, changed or written from outside.
            altered += max(1, len(violation.evidence))
    escrow = verdict.escrow
    return {
        "run_error": None,
        "status": verdict.status,
        "scorer_pass": verdict.scorer_pass,
        "laboratory_pass": verdict.laboratory_pass,
        "pilot_pass": verdict.pilot_pass,
        "preliminary_signal_credited": bool(escrow and escrow.preliminary_signal_credited),
        "released_total": float(escrow.released_total) if escrow is not None else 0.0,
        "metrics": metrics,
        "violations": dict(sorted(violations.items())),
        "stops": sorted(s.name for s in verdict.stopping_conditions if s.status == "triggered"),
        "configuration_errors": sorted({e.code for e in verdict.configuration_errors}),
        "self_check_missing": len(verdict.self_check_missing_cycles),
        "self_check_gaps": len(verdict.self_check_gaps),
        "faults_unexercised": 0 if verdict.faults is None else verdict.faults.unexercised,
        "refusal_report_gaps": len(verdict.refusal_report_gaps),
        "refusal_report_problems": sorted({g.problem for g in verdict.refusal_report_gaps}),
        "refused_attempts": max(0, _recorded_refusals(run_dir) - len(verdict.self_check_probes)),
        "log_entries_altered": altered,
    }


def _recorded_refusals(run_dir: Path) -> int:
    """Refused operations as the laboratory counted them from the log (run.json)."""
    try:
        record = json.loads((run_dir / RUN_RECORD_FILE).read_text(encoding="utf-8"))
        return int(record["non_scoring"]["refused_attempts"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def _altered_files(original: Path, copy: Path) -> int:
    """Corpus files of the copy whose bytes differ from the original's (manifest included)."""
    manifest = json.loads((original / MANIFEST_FILE).read_text(encoding="utf-8"))
    names = [*sorted(manifest["sha256"]), MANIFEST_FILE]
    changed = 0
    for name in names:
        theirs = copy / name
        if not theirs.is_file() or sha256_file(theirs) != sha256_file(original / name):
            changed += 1
    return changed


__all__ = ["RunTask", "execute"]
