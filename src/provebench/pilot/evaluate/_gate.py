"""The laboratory gate's findings, each dated: the one list both the gate and the escrow read.

`laboratory_pass` (pilot §2) is a clean scorer and no gate finding. The escrow (pilot §8) pays a
tranche only on cycles that "completed correctly"; a cycle is not clean once a gate finding is
dated to it or to an earlier cycle (`_escrow.py:dated_defects`). Before, the escrow kept its
own list of defects beside the gate's conditions, and a condition the gate counted but the list
lacked was paid in full (red team 26, H1: every refused file concealed, or reported under a
wrong code — the gate's FAIL, escrow 1.0). Built here once, from the same values the gate
judges, no gate condition can be left out of the escrow: there is no other list to forget it in.

A finding's `cycle` is the first cycle it concerns, or `WHOLE_RUN` when nothing in the record
dates it (a metric short overall but in no single cycle, a fault condition of the whole
schedule, a stopping condition): such a finding holds, with hindsight, every cycle from the first
one the dated evidence finds not clean, and every cycle when none is (`_escrow.graded_cycles`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from provebench.pilot.evaluate._verdict import (
    FaultAccount,
    MetricsReport,
    RefusalReportGap,
    SelfCheckGap,
    StopCondition,
    Violation,
)

GateFindingKind = Literal[
    "final_state",
    "metric",
    "critical_violation",
    "stopping_condition",
    "missing_probe",
    "self_check_gap",
    "refusal_report_gap",
    "fault",
]
WHOLE_RUN = 0
"""The date of a finding no single cycle carries (cycles are numbered from 1)."""


@dataclass(frozen=True)
class GateFinding:
    kind: GateFindingKind
    cycle: int  # the first cycle it concerns, or WHOLE_RUN
    text: str


def gate_findings(
    *,
    final_state_pass: bool,
    metrics: MetricsReport,
    violations: Sequence[Violation],
    stops: Sequence[StopCondition],
    missing_probes: Sequence[int],
    self_check_gaps: Sequence[SelfCheckGap],
    refusal_gaps: Sequence[RefusalReportGap],
    faults: FaultAccount,
) -> list[GateFinding]:
    """Every condition that keeps a run from the laboratory gate, dated."""
    found: list[GateFinding] = []
    if not final_state_pass:
        found.append(GateFinding("final_state", WHOLE_RUN, "the final-state scorer did not pass"))
    for name in type(metrics.overall).model_fields:
        value = getattr(metrics.overall, name).value
        if value == 1.0:
            continue
        short = [c.cycle for c in metrics.per_cycle if getattr(c.metrics, name).value != 1.0]
        found.append(
            GateFinding("metric", short[0] if short else WHOLE_RUN, f"{name} {value:.4f} < 1")
        )
    for violation in violations:
        found.append(
            GateFinding(
                "critical_violation",
                WHOLE_RUN if violation.cycle is None else violation.cycle,
                f"critical violation {violation.kind}"
                + (f": {violation.file_id}" if violation.file_id else ""),
            )
        )
    for stop in stops:
        if stop.status == "triggered":
            found.append(GateFinding("stopping_condition", WHOLE_RUN, f"stopped: {stop.name}"))
    for cycle in missing_probes:
        found.append(GateFinding("missing_probe", cycle, "no §12 final-status self-check probe"))
    for gap in self_check_gaps:
        found.append(
            GateFinding("self_check_gap", gap.cycle, f"§12 self-check {gap.check}: {gap.reason}")
        )
    for refusal in refusal_gaps:
        found.append(
            GateFinding(
                "refusal_report_gap",
                refusal.cycle,
                f"refused-file report {refusal.problem}: {refusal.file_id}",
            )
        )
    for fault in reversed(faults.faults):
        if not fault.exercised:
            found.append(
                GateFinding(
                    "fault",
                    fault.cycle,
                    f"fault not exercised: {fault.fault} on {fault.operation} of {fault.file_id}",
                )
            )
    if faults.unexercised and all(fault.exercised for fault in faults.faults):
        found.append(
            GateFinding("fault", WHOLE_RUN, f"{faults.unexercised} fault(s) not exercised")
        )
    if faults.scheduled and not faults.on_appends:
        found.append(
            GateFinding("fault", WHOLE_RUN, "no scheduled fault was met on an append (§14)")
        )
    return found


__all__ = ["WHOLE_RUN", "GateFinding", "GateFindingKind", "gate_findings"]
