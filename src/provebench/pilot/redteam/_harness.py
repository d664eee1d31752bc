"""`run_redteam`: generate the budget's corpora, run the reference and every attacking importer
over each of them (in a process pool), evaluate every run, judge every attack (pilot §14).

Output folder:

    corpora/<name>/                  the generated corpora
    runs/<corpus>/<agent>/run/       each run directory (with verdict inputs)
    runs/<corpus>/<agent>/corpus/    a private corpus copy, for importers that write into it
    redteam.json                     one object per attack: attack, caught, evidence
    redteam-summary.json             seed, budget level, budget achieved vs minimum, reference
    redteam.dsse.json                the laboratory's signature on both (docs/attestation.md)

Both JSON files are canonical and hold no path and no timing: the same seed gives the same bytes.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from provebench._canonical import canonical_json, write_atomic
from provebench._errors import ProvebenchError
from provebench.pilot.redteam._budget import (
    MINIMUM,
    PLANS,
    BudgetLevel,
    corpus_budget,
    run_budget,
    total,
)
from provebench.pilot.redteam._catalogue import (
    ATTACKS,
    REFERENCE,
    Attack,
    agent_spec,
    agents_of,
    situations_of,
)
from provebench.pilot.redteam._judge import judge_attack, judge_reference
from provebench.pilot.redteam._run import RunTask, execute
from provebench.pilot.redteam._situations import corpus_gaps

REPORT_FILE = "redteam.json"
SUMMARY_FILE = "redteam-summary.json"
REPORT_FORMAT = "provebench.pilot.redteam/1"
CORPUS_ATTEMPTS = 32
ATTEMPT_SEED_STRIDE = 1_000_003  # far from every seed a user sweeps: attempts never collide


class RedteamProgress(Protocol):
    """Told of each importer (the reference, an attack's) once it has run on every corpus."""

    def start(self, importers: int) -> None: ...

    def importer_done(self, said: str) -> None: ...

    def finish(self) -> None: ...


@dataclass(frozen=True)
class RedteamReport:
    seed: int
    level: BudgetLevel
    attacks: list[dict[str, Any]]
    reference: dict[str, Any]
    achieved: dict[str, int]
    corpora: list[dict[str, Any]]

    @property
    def not_exercised(self) -> list[str]:
        """Attacks no corpus gave their situation: the red team proved nothing about them."""
        return [entry["attack"] for entry in self.attacks if not entry["exercised"]]

    @property
    def uncaught(self) -> list[str]:
        """Exercised attacks that got a positive signal or none of their expected signals."""
        return [e["attack"] for e in self.attacks if e["exercised"] and not e["caught"]]

    @property
    def budget_short(self) -> list[str]:
        return [line for line, minimum in MINIMUM.items() if self.achieved[line] < minimum]

    @property
    def passed(self) -> bool:
        """Every attack exercised and caught, the reference clean, and (full level) the §14
        budget met."""
        budget_ok = self.level != "full" or not self.budget_short
        caught = not self.uncaught and not self.not_exercised
        return caught and bool(self.reference["clean"]) and budget_ok

    def summary(self) -> dict[str, Any]:
        return {
            "format": REPORT_FORMAT,
            "seed": self.seed,
            "budget_level": self.level,
            "budget": {
                line: {"achieved": self.achieved[line], "minimum": minimum}
                for line, minimum in MINIMUM.items()
            },
            "corpora": self.corpora,
            "reference": self.reference,
            "attacks": len(self.attacks),
            "exercised": len(self.attacks) - len(self.not_exercised),
            "not_exercised": self.not_exercised,
            "caught": sum(1 for entry in self.attacks if entry["caught"]),
            "uncaught": self.uncaught,
            "passed": self.passed,
        }


def run_redteam(
    out: Path,
    *,
    seed: int = 0,
    level: BudgetLevel = "ci",
    workers: int | None = None,
    attacks: tuple[Attack, ...] = ATTACKS,
    progress: RedteamProgress | None = None,
) -> RedteamReport:
    """Run the red team into `out` (new or empty) and write redteam.json there."""
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config

    if level not in PLANS:
        raise ProvebenchError(f"unknown budget {level!r} (ci or full)", field="--budget")
    _prepare(out)
    corpora: list[dict[str, Any]] = []
    budget_parts: list[dict[str, int]] = []
    corpus_dirs: list[tuple[str, Path]] = []
    for plan in PLANS[level]:
        directory = out / "corpora" / plan.name
        # The corpus plan guarantees the situations no importer can bring about: while a corpus
        # cannot give one (`corpus_gaps`), the next corpus seed is tried, in a fixed order.
        for attempt in range(CORPUS_ATTEMPTS):
            corpus_seed = seed + plan.seed_offset + attempt * ATTEMPT_SEED_STRIDE
            config = corpus_config(
                seed=corpus_seed, profile=plan.profile, overrides=dict(plan.overrides)
            )
            shutil.rmtree(directory, ignore_errors=True)
            counts = write_corpus(config, directory).counts.model_dump(mode="json")
            gaps = corpus_gaps(directory)
            if not gaps:
                break
        else:
            raise ProvebenchError(
                f"no corpus seed of {CORPUS_ATTEMPTS} tried gives {', '.join(gaps)}",
                field="--seed",
            )
        contribution = corpus_budget(counts)
        budget_parts.append(contribution)
        corpora.append(
            {
                "name": plan.name,
                "profile": plan.profile,
                "seed": corpus_seed,
                "seed_attempts": attempt + 1,
                "cycles": config.sizes.cycles,
                "events": counts["events"],
                "budget": contribution,
            }
        )
        corpus_dirs.append((plan.name, directory))
    # Importer by importer, each over every corpus: so the importers finish one after another,
    # which is what the progress shows (the results do not depend on the order).
    tasks = [
        RunTask(
            corpus_name=name,
            corpus_dir=str(directory),
            agent=agent,
            spec=agent_spec(agent),
            work_dir=str(out / "runs" / name / agent),
            isolated=isolated,
            sealed=sealed,
            situations=situations_of(attacks, agent),
            tamper=tamper,
        )
        for agent, isolated, sealed, tamper in agents_of(attacks)
        for name, directory in corpus_dirs
    ]
    by_agent = _run_all(tasks, workers, attacks, progress)
    subsample = {a.agent for a in attacks if a.category == "injection_subsample"}
    for agent, runs in by_agent.items():
        if agent != REFERENCE:
            budget_parts.extend(run_budget(run, agent in subsample) for run in runs)
    report = RedteamReport(
        seed=seed,
        level=level,
        attacks=[judge_attack(attack, by_agent[attack.agent]) for attack in attacks],
        reference=judge_reference(by_agent[REFERENCE]),
        achieved=total(budget_parts),
        corpora=corpora,
    )
    write_atomic(out / REPORT_FILE, canonical_json(report.attacks))
    write_atomic(out / SUMMARY_FILE, canonical_json(report.summary()))
    sign_report(out, report)
    return report


def sign_report(out: Path, report: RedteamReport) -> None:
    """The laboratory's signature on the report (`redteam.dsse.json`): an evaluation attaches it
    as the red-team evidence of `pilot_pass` (docs/attestation.md), so the predicate names the
    evaluator version it tested and what it found, including the injection attacks (the
    evaluator-injection-isolation check)."""
    from provebench.attest._envelope import sign_files
    from provebench.pilot.evaluate._rules import EVALUATOR_VERSION
    from provebench.pilot.record._signing import REDTEAM_ENVELOPE_FILE, REDTEAM_PREDICATE

    injection = [a for a in report.attacks if a["category"] == "injection_subsample"]
    predicate = {
        **report.summary(),
        "evaluator_version": EVALUATOR_VERSION,
        "budget_met": not report.budget_short,
        "injection_attacks": {
            "total": len(injection),
            "exercised_and_caught": sum(1 for a in injection if a["exercised"] and a["caught"]),
        },
    }
    files = (REPORT_FILE, SUMMARY_FILE)
    sign_files(out, files, out / REDTEAM_ENVELOPE_FILE, REDTEAM_PREDICATE, predicate)


def _prepare(out: Path) -> None:
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ProvebenchError("the output folder must be new or empty", path=out, field="--out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ProvebenchError(f"cannot create the output folder: {error}", path=out) from error


def _run_all(
    tasks: list[RunTask],
    workers: int | None,
    attacks: tuple[Attack, ...],
    progress: RedteamProgress | None,
) -> dict[str, list[dict[str, Any]]]:
    """Every run's result, by importer; `progress` hears of an importer once its last run is in."""
    count = workers if workers is not None else min(2, os.cpu_count() or 1)
    if count < 1:
        raise ProvebenchError("workers must be at least 1", field="--workers")
    left = Counter(task.agent for task in tasks)
    by_agent: dict[str, list[dict[str, Any]]] = {}
    if progress is not None:
        progress.start(len(left))
    try:
        for task, result in zip(tasks, _execute_all(tasks, count), strict=True):
            by_agent.setdefault(task.agent, []).append(result)
            left[task.agent] -= 1
            if progress is not None and not left[task.agent]:
                progress.importer_done(_said(task.agent, by_agent[task.agent], attacks))
    finally:
        if progress is not None:
            progress.finish()
    return by_agent


def _said(agent: str, runs: list[dict[str, Any]], attacks: tuple[Attack, ...]) -> str:
    """The progress line's verdict on one importer (judged again, the same way, for the report:
    judging is a pure function of the runs)."""
    said = []
    if agent == REFERENCE:
        said.append("reference: " + ("clean" if judge_reference(runs)["clean"] else "NOT CLEAN"))
    for attack in attacks:
        if attack.agent == agent:
            entry = judge_attack(attack, runs)
            caught = "caught" if entry["caught"] else "NOT CAUGHT"
            said.append(f"{attack.name}: {caught if entry['exercised'] else 'NOT EXERCISED'}")
    return "; ".join(said)


def _execute_all(tasks: list[RunTask], count: int) -> Iterator[dict[str, Any]]:
    """The tasks' results, in the tasks' order, as they come in."""
    if count == 1:
        yield from map(execute, tasks)
        return
    # Forked workers start at once and need no importable __main__; a run depends only on its
    # task (the importer gets a fresh instance per cycle and its own folders), never on the worker.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=count, mp_context=context) as pool:
        futures = [pool.submit(execute, task) for task in tasks]
        for future in futures:
            yield future.result()


__all__ = ["REPORT_FILE", "SUMMARY_FILE", "RedteamProgress", "RedteamReport", "run_redteam"]
