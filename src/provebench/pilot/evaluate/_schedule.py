"""Invariant 2: the log's applied events and injected faults are the corpus's schedule (pilot §15).

The laboratory applies the corpus's events and injects its faults; the log records both
(`events_applied`, `fault_injected`). Were they suppressed or erased — a fault never injected, a
file never added — recovery would be measured over nothing ("0/0", vacuously fine). So the
evaluator replays the schedule from the corpus alone, cycle by cycle and call by call, and every
difference is a discrepancy between the independent snapshot and the published verified actual
value (pilot §15).

Faults are matched as the gateway counts calls (event model `drive-events/1`): the k-th call of an
operation in a cycle, counting the calls that got past argument validation (a malformed call is
answered `invalid_argument` before the schedule is consulted, and a status-carrying append is
refused). A scheduled fault whose call never came is no discrepancy: the importer did not make it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provebench.ledger import LedgerEntry
from provebench.pilot.corpus._model import ApiFault, FileAdded, FileAddedDuringScan, FileReappeared
from provebench.pilot.corpus._model import FileRemoved as _Removed
from provebench.pilot.evaluate._log import CycleLog, LogFacts, ref
from provebench.pilot.evaluate._verdict import LogRef

# Log entry kind -> the schedule's operation name (event model `drive-events/1`).
FAULT_OPERATIONS = {
    "drive.list": "list_page",
    "sheets.read_confirmed": "read_confirmed_ids",
    "sheets.append": "append_rows",
}
_INVALID = "invalid_argument"


@dataclass
class CycleSchedule:
    """What the corpus schedules for one cycle."""

    added: list[str] = field(default_factory=list)  # file_added, in event order
    presence: list[list[str]] = field(default_factory=list)  # ["removed"|"reappeared", id]
    counts: dict[str, int] = field(default_factory=dict)  # events by kind
    mid_scan: list[tuple[int, str]] = field(default_factory=list)  # (after_page, id), by page
    faults: dict[tuple[str, int], str] = field(default_factory=dict)  # (operation, k) -> kind


class ScheduleBuilder:
    """The corpus's schedule by cycle, fed its event stream one event at a time (the snapshot
    reads the stream once, for everything)."""

    def __init__(self) -> None:
        self.by_cycle: dict[int, CycleSchedule] = {}

    def add(self, event: object) -> None:
        cycle = getattr(event, "cycle", 0)
        plan = self.by_cycle.get(cycle)
        if plan is None:
            plan = self.by_cycle[cycle] = CycleSchedule()
        kind = str(getattr(event, "kind", ""))
        plan.counts[kind] = plan.counts.get(kind, 0) + 1
        if isinstance(event, FileAdded):
            plan.added.append(event.file.file_id)
        elif isinstance(event, FileAddedDuringScan):
            plan.mid_scan.append((event.after_page, event.file.file_id))
        elif isinstance(event, _Removed):
            plan.presence.append(["removed", event.file_id])
        elif isinstance(event, FileReappeared):
            plan.presence.append(["reappeared", event.file_id])
        elif isinstance(event, ApiFault):
            plan.faults[(event.operation, event.call_index)] = event.fault

    def result(self) -> dict[int, CycleSchedule]:
        for plan in self.by_cycle.values():
            plan.mid_scan.sort(key=lambda item: item[0])  # stable: the gateway's firing order
        return self.by_cycle


Finding = tuple[str, str, list[LogRef]]


def schedule_differences(schedule: dict[int, CycleSchedule], log: LogFacts) -> list[Finding]:
    """Every way the log's events and faults differ from the corpus's schedule."""
    found: list[Finding] = []
    for cycle in log.cycles:
        plan = schedule.get(cycle.cycle, CycleSchedule())
        found.extend(_event_differences(cycle, plan))
        found.extend(_fault_differences(cycle, plan))
    return found


def _event_differences(cycle: CycleLog, plan: CycleSchedule) -> list[Finding]:
    found: list[Finding] = []
    applied = [e for e in cycle.entries if e.kind == "events_applied"]
    before = [e for e in applied if e.payload.get("phase") == "before_scan"]
    if len(before) != 1:
        where = [ref(e) for e in before] or [ref(cycle.started)]
        return [
            (
                "schedule_events",
                f"cycle {cycle.cycle}: {len(before)} before_scan "
                "events_applied entries, the laboratory writes exactly one",
                where,
            )
        ]
    start = before[0]
    if (
        start.payload.get("added") != plan.added
        or start.payload.get("presence") != plan.presence
        or start.payload.get("counts") != dict(sorted(plan.counts.items()))
    ):
        found.append(
            (
                "schedule_events",
                f"cycle {cycle.cycle}: the events applied before the "
                "scan are not the corpus's events of the cycle",
                [ref(start)],
            )
        )
    fired: list[tuple[LedgerEntry, str]] = [
        (entry, str(file_id))
        for entry in applied
        if entry is not start
        for file_id in _list(entry.payload.get("added"))
    ]
    if [file_id for _, file_id in fired] != [file_id for _, file_id in plan.mid_scan]:
        where = [ref(e) for e in applied if e is not start] or [ref(start)]
        found.append(
            (
                "schedule_events",
                f"cycle {cycle.cycle}: the files added during the scan "
                "are not the corpus's, in its order",
                where,
            )
        )
        return found
    pages = _pages_served_before(cycle)
    for (entry, file_id), (after_page, _) in zip(fired, plan.mid_scan, strict=True):
        served = pages.get(entry.seq, 0)
        early = entry.payload.get("phase") == "during_scan" and served < after_page
        late = entry.payload.get("phase") == "cycle_end" and served >= after_page
        if early or late:
            found.append(
                (
                    "schedule_events",
                    f"cycle {cycle.cycle}: {file_id} was added after "
                    f"page {served}, the corpus says after page {after_page}",
                    [ref(entry)],
                )
            )
    return found


def _pages_served_before(cycle: CycleLog) -> dict[int, int]:
    """seq of each events_applied entry -> pages the Drive had served before it."""
    served = 0
    at: dict[int, int] = {}
    for entry in cycle.entries:
        if entry.kind == "drive.list" and "error" not in entry.payload:
            served += 1
        elif entry.kind == "events_applied":
            at[entry.seq] = served
    return at


def _fault_differences(cycle: CycleLog, plan: CycleSchedule) -> list[Finding]:
    found: list[Finding] = []
    counted: dict[str, int] = {}
    injected: dict[int, LedgerEntry] = {}
    for entry in cycle.entries:
        if entry.kind == "fault_injected":
            call = entry.payload.get("call")
            if isinstance(call, int):
                injected[call] = entry
            else:
                found.append(
                    ("schedule_faults", "a fault_injected entry without its call", [ref(entry)])
                )
            continue
        operation = FAULT_OPERATIONS.get(entry.kind)
        if operation is None or _error_code(entry) == _INVALID:
            continue
        index = counted[operation] = counted.get(operation, 0) + 1
        scheduled = plan.faults.get((operation, index))
        call = entry.payload.get("call")
        logged = injected.pop(call, None) if isinstance(call, int) else None
        if scheduled is None and logged is None:
            continue
        if scheduled is None:
            assert logged is not None
            found.append(
                (
                    "schedule_faults",
                    f"cycle {cycle.cycle}: a fault on {operation} call "
                    f"{index} that the corpus does not schedule",
                    [ref(logged)],
                )
            )
        elif (
            logged is None
            or logged.payload.get("fault") != scheduled
            or "error" not in (entry.payload)
        ):
            found.append(
                (
                    "schedule_faults",
                    f"cycle {cycle.cycle}: the corpus schedules "
                    f"{scheduled} on {operation} call {index}; the log does not show it "
                    "injected",
                    [ref(entry)],
                )
            )
    for entry in injected.values():
        found.append(
            (
                "schedule_faults",
                f"cycle {cycle.cycle}: a fault_injected entry with no call it answered",
                [ref(entry)],
            )
        )
    return found


def _error_code(entry: LedgerEntry) -> str | None:
    error = entry.payload.get("error")
    return str(error.get("code")) if isinstance(error, dict) else None


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


__all__ = ["CycleSchedule", "ScheduleBuilder", "schedule_differences"]
