"""Escrow of the preliminary signal (pilot §8, §13), with regrading of earlier attempts.

Each cycle is graded twice. *When confirmed*: with what was known at the end of that cycle — no
file_id confirmed twice so far, every file due by then confirmed on time, no critical violation
dated up to then. *Final*: with hindsight over the whole run — every admissible file that had
appeared by then is confirmed exactly once in the final state and was on time, no row confirmed
by then was duplicated later, no critical violation dated up to then or undated (a tampered log
is discovered only by the evaluator). A cycle that was clean when confirmed but is not clean with
hindsight is *regraded* (pilot §8: "a duplicate or omission discovered late corrects the
original attempt"), and a tranche released on it is taken back.

* A cycle is graded against the *defects dated by then* as well: every finding of the
  laboratory gate (`_gate.py`: metrics short of 1, refused files not reported in the cycle shown
  or reported wrongly, a missing §12 probe or self-check, faults not met, …) and, dated finely,
  wrong fields, unexpected rows (a near-duplicate or invented file_id) and order breaks
  (`dated_defects`; invariant 4). Why: "correct completion" (pilot §8) of a cycle the gate
  finds fault with is not correct, and paying a tranche on it is an exploit (pilot §15; red
  team 26, H1). A finding the record dates to no cycle holds, with hindsight, every cycle from
  the first one the dated evidence finds not clean (every cycle when none is: `graded_cycles`).
* First tranche (40%): the first full cycle, judged at the due cycle of cycle 1's files; it is
  taken back when an omission or duplicate is discovered later in the run (pilot §8: a late
  omission "corrects the original attempt") — otherwise an importer that passes the first cycle
  and fails later (pilot §1) would keep a payment.
* Control tranche (60%): at least 20 laboratory cycles of a §11 control set (the `control`
  profile, ≥ 500 file events, as the log's identity records the corpus), every cycle clean.
* The preliminary signal (`Perf_shadow`) is credited only without any critical violation and
  after the first full cycle completed correctly (pilot §13).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from provebench.pilot.evaluate._gate import WHOLE_RUN, GateFinding
from provebench.pilot.evaluate._rules import (
    ESCROW_CONTROL_CYCLES,
    ESCROW_CONTROL_SHARE,
    ESCROW_FIRST_SHARE,
)
from provebench.pilot.evaluate._timeline import Timeline
from provebench.pilot.evaluate._verdict import (
    Escrow,
    EscrowCycle,
    EscrowTranche,
    OrderBreak,
    Violation,
    WrongFields,
)

Defects = Mapping[int, Sequence[str]]


def dated_defects(
    gate: Sequence[GateFinding],
    wrong_fields: Sequence[WrongFields] = (),
    order_breaks: Sequence[OrderBreak] = (),
    unexpected: Mapping[str, int] | None = None,
    importer_errors: Sequence[int] = (),
) -> dict[int, list[str]]:
    """Cycle → what went wrong in it besides omissions, duplicates and violations: every
    finding of the laboratory gate (`_gate.py`; invariant 4), at the cycle it is dated to
    (`WHOLE_RUN`: see `graded_cycles`), and, dated more finely than the
    metric that counts them, wrong and unexpected rows (`unexpected`: file_id → the cycle that
    confirmed its first row — a near-duplicate or invented id the corpus has no row for) and
    order breaks. Every gate finding is taken, whatever its kind: none can be paid.

    `importer_errors`: the cycles the importer's own exception (or its time limit) ended, the
    log's `agent_error`. Pilot §8 pays "after correct completion" of a cycle, and such a cycle
    the importer did not complete: whatever it says, it is not paid, nor any later one (pilot
    red team 36, A12: an exception ending every cycle cost nothing). It is no gate finding: the
    gate judges what the evidence shows, and an exception is no evidence of a wrong register."""
    found: dict[int, list[str]] = {}
    for file_id, cycle in sorted((unexpected or {}).items(), key=lambda item: (item[1], item[0])):
        found.setdefault(cycle, []).append(f"unexpected row: {file_id}")
    for wrong in wrong_fields:
        found.setdefault(wrong.cycle, []).append(f"wrong fields: {wrong.file_id}")
    for broken in order_breaks:
        found.setdefault(broken.cycle, []).append(
            f"order broken: {broken.earlier_file_id} before {broken.later_file_id}"
        )
    # After the rows: a reason names the file behind a metric's shortfall before the metric.
    for finding in gate:
        found.setdefault(finding.cycle, []).append(finding.text)
    for cycle in importer_errors:
        found.setdefault(cycle, []).append(f"the importer's own exception ended cycle {cycle}")
    return found


def _defects_by(defects: Defects, cycle: int) -> list[str]:
    """The defects dated to a cycle up to `cycle` (not those of the whole run, `WHOLE_RUN`)."""
    dated = [text for when in sorted(defects) if 0 < when <= cycle for text in defects[when]]
    return [f"{len(dated)} defect(s) by cycle {cycle}: {'; '.join(dated[:3])}"] if dated else []


def _grade_when_confirmed(timeline: Timeline, cycle: int, violations: list[Violation]) -> list[str]:
    reasons: list[str] = []
    duplicated = sorted(f for _, second, f in timeline.duplicated if second <= cycle)
    if duplicated:
        reasons.append(f"duplicated by cycle {cycle}: {', '.join(duplicated[:5])}")
    omitted = sorted(f for due, f in timeline.late if due <= cycle)
    if omitted:
        reasons.append(f"omitted by their due cycle: {', '.join(omitted[:5])}")
    dated = [v for v in violations if v.cycle is not None and v.cycle <= cycle]
    if dated:
        reasons.append(f"{len(dated)} critical violation(s) by cycle {cycle}")
    return reasons


def _grade_final(timeline: Timeline, cycle: int, violations: list[Violation]) -> list[str]:
    reasons: list[str] = []
    wrong = sorted(f for appeared, f in timeline.not_once_on_time if appeared <= cycle)
    if wrong:
        reasons.append(f"not confirmed exactly once and on time: {', '.join(wrong[:5])}")
    later_duplicates = sorted(f for first, _, f in timeline.duplicated if first <= cycle)
    if later_duplicates:
        reasons.append(f"rows duplicated later: {', '.join(later_duplicates[:5])}")
    counted = [v for v in violations if v.cycle is None or v.cycle <= cycle]
    if counted:
        reasons.append(f"{len(counted)} critical violation(s) (dated by then or undated)")
    return reasons


def graded_cycles(
    timeline: Timeline, violations: list[Violation], defects: Defects | None = None
) -> list[EscrowCycle]:
    """Every cycle graded when confirmed and with hindsight (the same for both levels).

    A defect of the whole run (`WHOLE_RUN`: the final-state scorer's failure, a metric short
    overall only, no fault met on an append) is found only with hindsight, and the record does
    not say which cycle it belongs to. It holds every cycle from the first one that is not clean
    with hindsight on the dated evidence — the likeliest cause, e.g. the omission behind a
    failed final state — and every cycle when none is: never a cycle paid on a run the
    laboratory gate failed (red team 26, H1)."""
    defects = defects or {}
    graded: list[tuple[int, list[str], list[str]]] = [
        (
            cycle,
            _grade_when_confirmed(timeline, cycle, violations) + _defects_by(defects, cycle),
            _grade_final(timeline, cycle, violations) + _defects_by(defects, cycle),
        )
        for cycle in range(1, timeline.cycles + 1)
    ]
    undated = list(defects.get(WHOLE_RUN, []))
    first_dirty = next((cycle for cycle, _, hindsight in graded if hindsight), 1)
    cycles: list[EscrowCycle] = []
    for cycle, at_the_time, hindsight in graded:
        if undated and cycle >= first_dirty:
            hindsight = [
                *hindsight,
                f"{len(undated)} defect(s) of the whole run: {'; '.join(undated[:3])}",
            ]
        cycles.append(
            EscrowCycle(
                cycle=cycle,
                clean_when_confirmed=not at_the_time,
                clean_final=not hindsight,
                regraded=not at_the_time and bool(hindsight),
                reasons=hindsight or at_the_time,
            )
        )
    return cycles


def credit(
    timeline: Timeline,
    cycles: list[EscrowCycle],
    perf_shadow: float,
    violations: list[Violation],
    unsealed: str | None,
) -> tuple[bool, float, str]:
    """Pilot §13: whether the preliminary signal is credited, the signal, and why."""
    first_due = timeline.snapshot.due_after(1) if timeline.cycles else 0
    first = cycles[first_due - 1] if cycles else None
    first_ok = first is not None and first.clean_final
    credited = first_ok and not violations and unsealed is None
    if unsealed is not None:
        reason = f"not credited: {unsealed}"
    elif violations:
        reason = f"not credited: {len(violations)} critical violation(s) (pilot §13)"
    elif not first_ok:
        reason = "not credited: the first full cycle did not complete correctly (pilot §13)"
    else:
        reason = "credited: no critical violation; the first full cycle completed correctly"
    return credited, perf_shadow if credited else 0.0, reason


def escrow_of(
    credited: bool,
    signal: float,
    reason: str,
    tranches: list[EscrowTranche],
    cycles: list[EscrowCycle],
) -> Escrow:
    """The escrow of a run, whichever tranches its level releases (the released total is theirs)."""
    return Escrow(
        preliminary_signal_credited=credited,
        preliminary_signal=signal,
        reason=reason,
        tranches=tranches,
        released_total=sum(t.amount for t in tranches),
        cycles=cycles,
    )


def cycle_ranges(cycles: Sequence[int]) -> str:
    """Every cycle, folded into ranges and never cut: `2–11, 13, 15–20`."""
    parts: list[str] = []
    ordered = sorted(set(cycles))
    start = previous = ordered[0] if ordered else 0
    for cycle in [*ordered[1:], None]:
        if cycle is not None and cycle == previous + 1:
            previous = cycle
            continue
        parts.append(str(start) if start == previous else f"{start}–{previous}")
        if cycle is not None:
            start = previous = cycle
    return ", ".join(parts) if ordered else "none"


# What held a cycle, from the grading's own reasons (`_grade_*`, `_defects_by`), by the label the
# escrow's reasons name it with.
_CAUSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("critical violations", ("critical violation",)),
    ("omissions or duplicates", ("omitted by", "duplicated by", "not confirmed exactly once")),
    ("rows duplicated later", ("rows duplicated later",)),
    ("gate findings (rows, order, self-checks, refusal reports, faults)", ("defect(s) ",)),
)


def held_by(cycles: Sequence[EscrowCycle]) -> str:
    """The cycles that were not clean with hindsight, every one, and the defect behind each:
    `cycles not clean: 2–20 (critical violations: 2–20; omissions: 5, 7)`."""
    dirty = [c for c in cycles if not c.clean_final]
    causes = []
    for label, prefixes in _CAUSES:
        hit = [c.cycle for c in dirty if any(p in r for r in c.reasons for p in prefixes)]
        if hit:
            causes.append(f"{label}: {cycle_ranges(hit)}")
    return f"cycles not clean: {cycle_ranges([c.cycle for c in dirty])} ({'; '.join(causes)})"


def compute_escrow(
    timeline: Timeline,
    perf_shadow: float,
    violations: list[Violation],
    defects: Defects | None = None,
    unsealed: str | None = None,
    *,
    not_a_control_set: str | None,
) -> Escrow:
    """Pilot §8 escrow. `unsealed` (why the candidate was not sealed, or why the run is not the
    one the laboratory signed) withholds every tranche: a candidate that could reach the log or
    the answers, or a run folder changed since, has earned nothing it can be paid.
    `not_a_control_set` (why the run's corpus, as its log records it, is not a §11 control set:
    `record/_seal.py:control_size_problem`, or why it is not the sealed candidate's verified
    fresh control: `_core.not_the_fresh_control`) withholds the control tranche: a public
    development corpus run for 20 cycles is not "a control sequence" (red team 26, F2), nor is
    a control-profile corpus generated from a public seed (red team 28, H3)."""
    cycles = graded_cycles(timeline, violations, defects)
    credited, signal, reason = credit(timeline, cycles, perf_shadow, violations, unsealed)
    first_due = timeline.snapshot.due_after(1) if timeline.cycles else 0
    first = cycles[first_due - 1] if cycles else None
    later_dirty = [c.cycle for c in cycles if not c.clean_final and c.cycle > first_due]
    first_released = credited and not later_dirty
    first_tranche = EscrowTranche(
        name="first_full_cycle",
        share=ESCROW_FIRST_SHARE,
        released_when_confirmed=first is not None and first.clean_when_confirmed,
        released=first_released,
        regraded=first is not None and first.clean_when_confirmed and not first_released,
        amount=ESCROW_FIRST_SHARE * signal if first_released else 0.0,
        reason=f"cycle 1 judged at its due cycle {first_due}: "
        + ("; ".join(first.reasons) if first is not None and first.reasons else "clean")
        + (
            f"; taken back: later {held_by([c for c in cycles if c.cycle in later_dirty])}"
            if later_dirty
            else ""
        ),
    )
    enough = timeline.cycles >= ESCROW_CONTROL_CYCLES and not_a_control_set is None
    all_clean_then = enough and all(c.clean_when_confirmed for c in cycles)
    all_clean = enough and all(c.clean_final for c in cycles)
    control_released = credited and all_clean
    if timeline.cycles < ESCROW_CONTROL_CYCLES:
        control_reason = (
            f"{timeline.cycles} cycles; the control sequence needs {ESCROW_CONTROL_CYCLES}"
        )
    elif not_a_control_set is not None:
        control_reason = f"not a control sequence: {not_a_control_set} (pilot §11)"
    else:
        dirty = [c.cycle for c in cycles if not c.clean_final]
        control_reason = "every cycle clean" if not dirty else held_by(cycles)
    control_tranche = EscrowTranche(
        name="control_sequence",
        share=ESCROW_CONTROL_SHARE,
        released_when_confirmed=all_clean_then,
        released=control_released,
        regraded=all_clean_then and not control_released,
        amount=ESCROW_CONTROL_SHARE * signal if control_released else 0.0,
        reason=control_reason,
    )
    tranches = [first_tranche, control_tranche]
    return escrow_of(credited, signal, reason, tranches, cycles)


__all__ = [
    "compute_escrow",
    "credit",
    "cycle_ranges",
    "dated_defects",
    "escrow_of",
    "graded_cycles",
    "held_by",
]
