"""The red-team table printed by `provebench pilot redteam` (rich, no markup from data; every
cell and line through the one escape set, `provebench._errors.shown`, as `pilot evaluate
--explain`: a run error or a verdict's words can carry a candidate's text, pilot red team 35,
A4)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from provebench._errors import shown
from provebench.pilot.redteam._budget import MINIMUM
from provebench.pilot.redteam._harness import RedteamReport


def _said(entry: dict[str, Any]) -> str:
    """What the evaluator said, over every corpus: shortfalls, violations, errors, signals."""
    parts: list[str] = []
    for run in entry["evidence"]:
        said: list[str] = []
        said += [f"{name} {ratio}" for name, ratio in run["metric_shortfalls"].items()]
        said += [f"{kind} ×{n}" for kind, n in run["critical_violations"].items()]
        said += [f"config {code}" for code in run["configuration_errors"]]
        if run["self_check_missing_cycles"]:
            said.append(f"self-check missing in {run['self_check_missing_cycles']} cycles")
        if run.get("self_check_gaps"):
            said.append(f"{run['self_check_gaps']} self-check gap(s) (not performed)")
        if run.get("faults_unexercised"):
            said.append(f"{run['faults_unexercised']} scheduled fault(s) not exercised")
        if run.get("refusal_report_gaps"):
            said.append(f"{run['refusal_report_gaps']} refused-file report gap(s)")
        if run["run_error"]:
            said.append(f"run refused: {run['run_error']}")
        if run["positive_signal"]:
            said.append("POSITIVE: " + ", ".join(run["positive_signal"]))
        if not run["exercised"]:
            said.append("NOT EXERCISED (situation did not arise)")
        # One line per corpus, each escaped: the lines are the table's, the words the runs'.
        parts.append(shown(f"{run['corpus']}: " + ("; ".join(said) if said else "nothing")))
    return "\n".join(parts)


def _verdict(entry: dict[str, Any]) -> str:
    if not entry["exercised"]:
        return "NOT EXERCISED"
    return "yes" if entry["caught"] else "NO"


def print_report(report: RedteamReport, console: Console) -> None:
    table = Table(title=f"pilot §14 red team — seed {report.seed}, budget {report.level}")
    table.add_column("attack", overflow="fold")
    table.add_column("source", max_width=24)
    table.add_column("importer", overflow="fold")
    table.add_column("what the evaluator said", min_width=40, overflow="fold")
    table.add_column("caught")
    for entry in report.attacks:
        table.add_row(
            *map(shown, (entry["attack"], entry["source"], entry["agent"])),
            _said(entry),
            _verdict(entry),
        )
    console.print(table)
    reference = report.reference
    verdicts = ", ".join(
        f"{run['corpus']}: laboratory_pass={str(run['laboratory_pass']).lower()}"
        for run in reference["evidence"]
    )
    console.print(
        f"reference importer: {'clean' if reference['clean'] else 'NOT CLEAN'} ({shown(verdicts)})"
    )
    budget = Table(title="pilot §14 minimum budget")
    budget.add_column("line")
    budget.add_column("achieved", justify="right")
    budget.add_column("minimum", justify="right")
    budget.add_column("met")
    for line, minimum in MINIMUM.items():
        achieved = report.achieved[line]
        budget.add_row(line, str(achieved), str(minimum), "yes" if achieved >= minimum else "no")
    console.print(budget)
    caught = sum(1 for entry in report.attacks if entry["caught"])
    console.print(
        shown(
            f"{caught}/{len(report.attacks)} attacks exercised and caught"
            + (f"; NOT caught: {', '.join(report.uncaught)}" if report.uncaught else "")
            + (
                f"; NOT EXERCISED (the corpora never gave them their situation): "
                f"{', '.join(report.not_exercised)}"
                if report.not_exercised
                else ""
            )
            + (
                ""
                if report.level == "full"
                else " (ci budget: the §14 minimum needs --budget full)"
            )
        )
    )


__all__ = ["print_report"]
