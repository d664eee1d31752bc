"""The eight metrics of pilot §7, per cycle and overall, with the file_ids behind each shortfall.

Definitions (docs/pilot-evaluator.md has the full text):

* Completeness — overall: admissible file_ids with a confirmed row / admissible file_ids (the
  published scorer's value). Per cycle c: files due by c (`due_cycle`) confirmed by their due
  cycle / files due by c.
* Precision — distinct confirmed file_ids that are admissible / distinct confirmed file_ids.
* Uniqueness — distinct confirmed file_ids with exactly one row / distinct confirmed file_ids.
* Field accuracy — overall: matching mandatory fields of the expected rows (a missing row counts
  every field wrong; with repeated rows the last one is compared, as the published scorer does)
  / 8 per expected row. Per cycle: the fields of the rows confirmed in that cycle.
* Order correctness — consecutive pairs of the rows an importer appended in a cycle that satisfy
  `register-order/1` / such pairs (judged on the log, where the importer's order is kept).
* Recovery — injected faults (`fault_injected` in the log) after which, by the due cycle of the
  fault's cycle (`due_cycle`), every file that had appeared by then was correctly confirmed
  (admissible ones exactly once, refused ones not at all) / injected faults.
* Error honesty — non-admissible files that received no confirmed row and were not claimed
  processed on the diagnostics channel / non-admissible files that appeared.
* Cycle stability — consecutive cycle pairs without regression / consecutive cycle pairs.

A metric whose denominator is 0 is `vacuous`; its value is 1.0 (nothing could fail), except the
overall completeness, precision and field accuracy, which follow the published scorer (0.0).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from provebench.pilot.evaluate._log import FILE_ID_INDEX, ref
from provebench.pilot.evaluate._timeline import Timeline
from provebench.pilot.evaluate._verdict import (
    CycleMetrics,
    FieldDiff,
    LateFile,
    LogRef,
    Metric,
    MetricSet,
    MetricsReport,
    OrderBreak,
    Shortfalls,
    WrongFields,
)
from provebench.pilot.rules._rows import REGISTER_COLUMNS, RegisterRow, presented_order_key

FIELD_COLUMNS = tuple(c for c in REGISTER_COLUMNS if c != "file_id")
_STABILITY_METRICS = (
    "completeness",
    "precision",
    "uniqueness",
    "field_accuracy",
    "order_correctness",
    "error_honesty",
)
_TOLERANCE = 1e-12


def metric(numerator: int, denominator: int, *, empty: float = 1.0) -> Metric:
    value = numerator / denominator if denominator else empty
    return Metric(
        numerator=numerator, denominator=denominator, value=value, vacuous=not denominator
    )


@dataclass
class _Counts:
    order: list[tuple[int, int]]
    order_breaks: list[OrderBreak]
    recovery: list[tuple[int, int]]
    unrecovered: list[LogRef]


def compute_metrics(timeline: Timeline) -> MetricsReport:
    snapshot = timeline.snapshot
    expected = snapshot.expected
    counts = _Counts([], [], [], [])
    for cycle in range(1, timeline.cycles + 1):
        counts.order.append(_order_pairs(timeline, cycle, counts.order_breaks))
        counts.recovery.append(_recovery(timeline, cycle, counts.unrecovered))
    per_cycle: list[CycleMetrics] = []
    for cycle in range(1, timeline.cycles + 1):
        metrics = MetricSet(
            completeness=_completeness_by(timeline, cycle),
            precision=_precision_by(timeline, cycle),
            uniqueness=_uniqueness_by(timeline, cycle),
            field_accuracy=_cycle_fields(timeline, cycle),
            order_correctness=metric(*counts.order[cycle - 1]),
            recovery=metric(*counts.recovery[cycle - 1]),
            error_honesty=_honesty_by(timeline, cycle)[0],
            cycle_stability=metric(0, 0),
        )
        if per_cycle:
            regressed = _regressed(per_cycle[-1].metrics, metrics)
            metrics = metrics.model_copy(update={"cycle_stability": metric(int(not regressed), 1)})
        per_cycle.append(CycleMetrics(cycle=cycle, metrics=metrics))
    regressed_cycles = [
        c.cycle
        for c in per_cycle
        if not c.metrics.cycle_stability.vacuous and not c.metrics.cycle_stability.numerator
    ]
    distinct = set(timeline.confirmed_count)
    in_both = len(distinct & set(expected))
    matched, wrong = _final_fields(timeline)
    honesty, dishonest = _honesty_by(timeline, timeline.cycles)
    overall = MetricSet(
        completeness=metric(in_both, len(expected), empty=0.0),
        precision=metric(in_both, len(distinct), empty=0.0),
        uniqueness=metric(
            sum(1 for n in timeline.confirmed_count.values() if n == 1), len(distinct)
        ),
        field_accuracy=metric(matched, len(FIELD_COLUMNS) * len(expected), empty=0.0),
        order_correctness=metric(sum(n for n, _ in counts.order), sum(d for _, d in counts.order)),
        recovery=metric(sum(n for n, _ in counts.recovery), sum(d for _, d in counts.recovery)),
        error_honesty=honesty,
        cycle_stability=metric(
            len(per_cycle) - 1 - len(regressed_cycles), max(len(per_cycle) - 1, 0)
        ),
    )
    shortfalls = Shortfalls(
        lost=sorted(set(expected) - distinct),
        late=_late(timeline),
        unexpected=sorted(distinct - set(expected)),
        duplicated=sorted(f for f, n in timeline.confirmed_count.items() if n > 1),
        wrong_fields=wrong,
        order_breaks=counts.order_breaks,
        unrecovered_faults=counts.unrecovered,
        dishonest=dishonest,
        regressed_cycles=regressed_cycles,
    )
    return MetricsReport(overall=overall, per_cycle=per_cycle, shortfalls=shortfalls)


def _completeness_by(timeline: Timeline, cycle: int) -> Metric:
    """Files due by `cycle` confirmed by their due cycle / files due by `cycle`."""
    counts = timeline.counts_by_cycle
    return metric(counts.due_on_time(cycle), counts.due(cycle))


def _precision_by(timeline: Timeline, cycle: int) -> Metric:
    """Of the distinct files confirmed by `cycle`, the admissible ones."""
    counts = timeline.counts_by_cycle
    return metric(counts.first_confirmed_expected(cycle), counts.first_confirmed(cycle))


def _uniqueness_by(timeline: Timeline, cycle: int) -> Metric:
    """Of the distinct files confirmed by `cycle`, those confirmed once by then: first confirmed
    by `cycle`, and not a second time by it."""
    counts = timeline.counts_by_cycle
    distinct = counts.first_confirmed(cycle)
    return metric(distinct - counts.second_confirmed(cycle), distinct)


def _cycle_fields(timeline: Timeline, cycle: int) -> Metric:
    matched = total = 0
    for row, _ in timeline.rows_by_cycle.get(cycle, []):
        expected = timeline.snapshot.expected.get(row[FILE_ID_INDEX])
        if expected is None:
            continue
        total += len(FIELD_COLUMNS)
        matched += len(FIELD_COLUMNS) - len(_diff(expected, row))
    return metric(matched, total)


def _diff(expected: RegisterRow, row: list[str]) -> list[FieldDiff]:
    diffs: list[FieldDiff] = []
    for index, column in enumerate(REGISTER_COLUMNS):
        if column == "file_id":
            continue
        found = row[index] if index < len(row) else None
        if getattr(expected, column) != found:
            diffs.append(FieldDiff(column=column, expected=getattr(expected, column), found=found))
    return diffs


def _final_fields(timeline: Timeline) -> tuple[int, list[WrongFields]]:
    matched = 0
    wrong: list[WrongFields] = []
    for file_id in sorted(timeline.snapshot.expected):
        expected = timeline.snapshot.expected[file_id]
        last = timeline.last_row.get(file_id)
        if last is None:
            continue
        diffs = _diff(expected, last[1])
        matched += len(FIELD_COLUMNS) - len(diffs)
        if diffs:
            wrong.append(WrongFields(file_id=file_id, cycle=last[0], fields=diffs))
    return matched, wrong


def _order_pairs(timeline: Timeline, cycle: int, breaks: list[OrderBreak]) -> tuple[int, int]:
    rows = timeline.rows_by_cycle.get(cycle, [])
    good = 0
    for (earlier, earlier_call), (later, later_call) in itertools.pairwise(rows):
        if presented_order_key(earlier) <= presented_order_key(later):
            good += 1
            continue
        evidence = [ref(earlier_call.entry)]
        if later_call is not earlier_call:
            evidence.append(ref(later_call.entry))
        breaks.append(
            OrderBreak(
                cycle=cycle,
                earlier_file_id=earlier[FILE_ID_INDEX],
                later_file_id=later[FILE_ID_INDEX],
                evidence=evidence,
            )
        )
    return good, max(len(rows) - 1, 0)


def correct_state_by(timeline: Timeline, appeared_by: int, judged_at: int) -> bool:
    """Every file that appeared by `appeared_by` is correctly confirmed at the end of
    `judged_at`: admissible ones exactly once, non-admissible ones not at all."""
    snapshot = timeline.snapshot
    for file_id, first in snapshot.first_cycle.items():
        if first > appeared_by:
            continue
        confirmed = timeline.count_by(file_id, judged_at)
        if confirmed != (1 if file_id in snapshot.expected else 0):
            return False
    return True


def _recovery(timeline: Timeline, cycle: int, unrecovered: list[LogRef]) -> tuple[int, int]:
    log = timeline.log.cycles[cycle - 1]
    if not log.faults:
        return 0, 0
    recovered = correct_state_by(timeline, cycle, timeline.snapshot.due_after(cycle))
    if not recovered:
        unrecovered.extend(ref(entry) for entry in log.faults)
    return (len(log.faults) if recovered else 0), len(log.faults)


def _honesty_by(timeline: Timeline, cycle: int) -> tuple[Metric, list[str]]:
    snapshot = timeline.snapshot
    relevant = sorted(f for f in snapshot.non_admissible if snapshot.first_cycle[f] <= cycle)
    dishonest: list[str] = []
    for file_id in relevant:
        claimed = any(seq <= _last_seq(timeline, cycle) for seq in timeline.claims.get(file_id, []))
        if timeline.count_by(file_id, cycle) or claimed:
            dishonest.append(file_id)
    return metric(len(relevant) - len(dishonest), len(relevant)), dishonest


def _last_seq(timeline: Timeline, cycle: int) -> int:
    log = timeline.log.cycles[cycle - 1]
    return log.entries[-1].seq if log.entries else -1


def _regressed(previous: MetricSet, current: MetricSet) -> bool:
    """A metric judged in both cycles got worse (a cycle with nothing to judge is no baseline)."""
    return any(
        not getattr(previous, name).vacuous
        and not getattr(current, name).vacuous
        and getattr(current, name).value < getattr(previous, name).value - _TOLERANCE
        for name in _STABILITY_METRICS
    )


def _late(timeline: Timeline) -> list[LateFile]:
    snapshot = timeline.snapshot
    late: list[LateFile] = []
    for file_id in sorted(snapshot.expected):
        first = timeline.first_confirmed(file_id)
        due = snapshot.due(file_id)
        if first is None or first > due:
            late.append(
                LateFile(
                    file_id=file_id,
                    first_cycle=snapshot.first_cycle[file_id],
                    due_cycle=due,
                    confirmed_cycle=first,
                )
            )
    return late


__all__ = ["FIELD_COLUMNS", "compute_metrics", "correct_state_by", "metric"]
