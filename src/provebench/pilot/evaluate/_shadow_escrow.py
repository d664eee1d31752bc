"""Shadow escrow `shadow-escrow/1` (pilot §8: "at the shadow operational level, the period and
share are fixed separately; the recommended initial period is seven calendar days").

A shadow corpus fixes its terms before any run (`shadow_origin.json`, `escrow.period_days`,
chosen at `pilot shadow-corpus`), so no one picks a period after seeing the results. Time is
calendar time measured on the capture times: cycle *n* happened when snapshot *n* was taken.

* Periods: period *k* (from 1) covers the captures in
  `[first capture + (k−1)·P days, first capture + k·P days)`. A period is *complete* once a
  capture was taken at or after its end; the run's last, incomplete period releases nothing yet.
* Each complete period is one tranche, in equal shares of the shadow signal (one complete period:
  100%; four: 25% each). A tranche is released when every cycle of its period is clean with
  hindsight (the laboratory's grading: no omission, duplicate, wrong or unexpected row, order
  break, missing §12 check or critical violation by then); *released when confirmed* says how it
  looked at the period's end, so a duplicate or omission discovered late takes an earlier
  release back (`regraded`), as §8 says of every escrow.
* Credit (pilot §13) is the laboratory's: no critical violation, the first full cycle correct,
  a sealed and signed run.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from provebench.pilot.corpus import ShadowOrigin
from provebench.pilot.evaluate._escrow import Defects, credit, escrow_of, graded_cycles
from provebench.pilot.evaluate._timeline import Timeline
from provebench.pilot.evaluate._verdict import Escrow, EscrowCycle, EscrowTranche, Violation


def _moment(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def shadow_periods(origin: ShadowOrigin) -> list[tuple[str, str, list[int]]]:
    """Each complete period: its start and end (UTC text) and its cycles."""
    times = [_moment(s.captured_at) for s in origin.snapshots]
    if not times:
        return []
    first, last = times[0], times[-1]
    length = timedelta(days=origin.escrow.period_days)
    periods: list[tuple[str, str, list[int]]] = []
    start = first
    while start + length <= last:
        end = start + length
        cycles = [index for index, t in enumerate(times, start=1) if start <= t < end]
        periods.append((_text(start), _text(end), cycles))
        start = end
    return periods


def _text(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def compute_shadow_escrow(
    timeline: Timeline,
    perf_shadow: float,
    violations: list[Violation],
    defects: Defects | None = None,
    unsealed: str | None = None,
    *,
    origin: ShadowOrigin,
) -> Escrow:
    """`compute_escrow`'s grading and credit, released by calendar period (module docstring)."""
    cycles = graded_cycles(timeline, violations, defects)
    credited, signal, reason = credit(timeline, cycles, perf_shadow, violations, unsealed)
    periods = shadow_periods(origin)
    days = origin.escrow.period_days
    tranches = [
        _tranche(
            number, start, end, [cycles[c - 1] for c in members], len(periods), credited, signal
        )
        for number, (start, end, members) in enumerate(periods, start=1)
    ]
    if not periods:
        reason += (
            f"; nothing released yet: the captures span less than one period of {days} "
            f"day(s) ({origin.escrow.rule})"
        )
    else:
        reason += f"; {len(periods)} complete period(s) of {days} day(s) ({origin.escrow.rule})"
    return escrow_of(credited, signal, reason, tranches, cycles)


def _tranche(
    number: int, start: str, end: str, members: list[EscrowCycle], count: int, credited: bool,
    signal: float,
) -> EscrowTranche:  # fmt: skip
    share = 1.0 / count
    # A period without a capture shows nothing: it is not clean (never a vacuous release).
    clean_then = bool(members) and all(c.clean_when_confirmed for c in members)
    clean = bool(members) and all(c.clean_final for c in members)
    released = credited and clean
    dirty = [c.cycle for c in members if not c.clean_final]
    span = f"cycles {members[0].cycle}–{members[-1].cycle}" if members else "no capture"
    return EscrowTranche(
        name="shadow_period",
        share=share,
        released_when_confirmed=clean_then,
        released=released,
        regraded=clean_then and not released,
        amount=share * signal if released else 0.0,
        reason=f"period {number}, {start} to {end} ({span}): "
        + (
            "no capture, nothing to release"
            if not members
            else "every cycle clean"
            if not dirty
            else f"cycles not clean: {dirty[:10]}"
        ),
    )


__all__ = ["compute_shadow_escrow", "shadow_periods"]
