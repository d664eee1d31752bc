"""Invariant 2: the log's applied events and injected faults are the corpus's schedule (pilot §15).

The laboratory applies the corpus's events and injects its faults; the log records both
(`events_applied`, `fault_injected`). Were they suppressed or erased — a fault never injected, a
file never added — recovery would be measured over nothing ("0/0", vacuously fine). So the
evaluator replays the schedule from the corpus alone, cycle by cycle and call by call, and every
difference is a discrepancy between the independent snapshot and the published verified actual
value (pilot §15).

Faults are matched by the work a call carries (event model `drive-events/2`, `lab/_faults.py`):
a fault bound to file F fires on the first call of its operation in the cycle that carries F —
a served page that holds F (or the page the fault withheld, which the log keeps), an append
whose rows carry F's row, a read of all confirmed ids or of F's. A call answered
`invalid_argument`, or a status-carrying append (refused), never reaches the schedule.

Every scheduled fault is then accounted for (`FaultAccount`): exercised, with the entry that
injected it, or not, with the reason — no call carried its file, or its cycle never ran. The
laboratory gate needs them all exercised, one of them on an append (pilot §11 "10 temporary
failures", §14 "a temporary failure between reading and writing"): an importer that never does
the work a fault is bound to is not credited with recovering from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from provebench.ledger import LedgerEntry
from provebench.pilot.corpus._model import (
    APPLIED_FAULT_KINDS,
    ApiFault,
    FileAdded,
    FileAddedDuringScan,
    FileReappeared,
)
from provebench.pilot.corpus._model import FileRemoved as _Removed
from provebench.pilot.evaluate._log import IMPORTER_FILE_ID_INDEX, CycleLog, LogFacts, ref
from provebench.pilot.evaluate._verdict import FaultAccount, LogRef, ScheduledFault

# Log entry kind -> the schedule's operation name (event model `drive-events/2`).
FAULT_OPERATIONS = {
    "drive.list": "list_page",
    "sheets.read_confirmed": "read_confirmed_ids",
    "sheets.append": "append_rows",
}
_INVALID = "invalid_argument"
# What each operation's call must carry for a fault bound to a file to meet it.
_CARRIER = {
    "list_page": "listing page that held",
    "append_rows": "append that carried the row of",
    "read_confirmed_ids": "read of the confirmed ids that answered about",
}


@dataclass(frozen=True)
class PlannedFault:
    """One `api_fault` event of the corpus: its seq, operation, file and kind."""

    seq: int
    operation: str
    file_id: str
    fault: str


@dataclass
class CycleSchedule:
    """What the corpus schedules for one cycle."""

    added: list[str] = field(default_factory=list)  # file_added, in event order
    presence: list[list[str]] = field(default_factory=list)  # ["removed"|"reappeared", id]
    counts: dict[str, int] = field(default_factory=dict)  # events by kind
    mid_scan: list[tuple[int, str]] = field(default_factory=list)  # (after_page, id), by page
    faults: list[PlannedFault] = field(default_factory=list)  # in stream order


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
            plan.faults.append(PlannedFault(event.seq, event.operation, event.file_id, event.fault))

    def result(self) -> dict[int, CycleSchedule]:
        for plan in self.by_cycle.values():
            plan.mid_scan.sort(key=lambda item: item[0])  # stable: the gateway's firing order
        return self.by_cycle


def fault_files(schedule: dict[int, CycleSchedule]) -> frozenset[str]:
    """The files the corpus binds listing faults to: `read_log` notes the pages holding them."""
    return frozenset(
        f.file_id for plan in schedule.values() for f in plan.faults if f.operation == "list_page"
    )


Finding = tuple[str, str, list[LogRef]]
FileTest = Callable[[str], bool]


def schedule_differences(
    schedule: dict[int, CycleSchedule], log: LogFacts
) -> tuple[list[Finding], FaultAccount]:
    """Every way the log's events and faults differ from the corpus's schedule, and the account
    of every scheduled fault."""
    found: list[Finding] = []
    accounted: list[ScheduledFault] = []
    ran = {cycle.cycle for cycle in log.cycles}
    for cycle in log.cycles:
        plan = schedule.get(cycle.cycle, CycleSchedule())
        found.extend(_event_differences(cycle, plan))
        differences, account = _fault_differences(cycle, plan)
        found.extend(differences)
        accounted.extend(account)
    for number in sorted(set(schedule) - ran):
        accounted.extend(
            _account(number, fault, None, f"cycle {number} never ran")
            for fault in schedule[number].faults
        )
    return found, _fault_account(accounted)


def _fault_account(faults: list[ScheduledFault]) -> FaultAccount:
    exercised = [f for f in faults if f.exercised]
    return FaultAccount(
        scheduled=len(faults),
        exercised=len(exercised),
        on_appends=sum(1 for f in exercised if f.operation == "append_rows"),
        unexercised=len(faults) - len(exercised),
        faults=faults,
    )


def _account(
    cycle: int, fault: PlannedFault, injected: LedgerEntry | None, reason: str
) -> ScheduledFault:
    return ScheduledFault(
        cycle=cycle,
        operation=fault.operation,
        file_id=fault.file_id,
        fault=fault.fault,
        exercised=injected is not None,
        reason=reason,
        evidence=[] if injected is None else [ref(injected)],
    )


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


def _fault_differences(
    cycle: CycleLog, plan: CycleSchedule
) -> tuple[list[Finding], list[ScheduledFault]]:
    found: list[Finding] = []
    unspent: dict[str, list[PlannedFault]] = {}
    for fault in plan.faults:
        unspent.setdefault(fault.operation, []).append(fault)
    met: dict[int, tuple[LedgerEntry | None, str]] = {}  # planned seq -> (injection, reason)
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
        call = entry.payload.get("call")
        logged = injected.pop(call, None) if isinstance(call, int) else None
        waiting = unspent.get(operation, [])
        if not waiting and logged is None:
            continue  # nothing left to meet: what the call carried does not matter
        carries = _carried(cycle, entry, logged)
        scheduled = next((f for f in waiting if carries(f.file_id)), None)
        if scheduled is None and logged is None:
            continue
        if scheduled is None:
            assert logged is not None
            found.append(
                (
                    "schedule_faults",
                    f"cycle {cycle.cycle}: a fault on {operation} call {call} that the corpus "
                    "does not schedule on the work it carried",
                    [ref(logged)],
                )
            )
            continue
        waiting.remove(scheduled)
        where = f"{operation} call {call} (seq {entry.seq})"
        if (
            logged is None
            or logged.payload.get("fault") != scheduled.fault
            or logged.payload.get("file_id") != scheduled.file_id
            or "error" not in entry.payload
        ):
            found.append(
                (
                    "schedule_faults",
                    f"cycle {cycle.cycle}: the corpus schedules {scheduled.fault} on the first "
                    f"{_CARRIER[operation]} {scheduled.file_id}, {where}; the log does not show "
                    "it injected",
                    [ref(entry)],
                )
            )
            met[scheduled.seq] = (None, f"not injected on {where}, which carried its file")
        elif _applied_as_logged(entry, logged) != (scheduled.fault in APPLIED_FAULT_KINDS):
            # What happened to the rows is part of the fault: an applied_then_* fault whose
            # rows the log says were not written (or a plain one whose rows were) is not the
            # corpus's fault (pilot §14).
            found.append(
                (
                    "schedule_faults",
                    f"cycle {cycle.cycle}: the corpus schedules {scheduled.fault} on {where}; "
                    "the log says otherwise of whether its rows were applied",
                    [ref(logged), ref(entry)],
                )
            )
            met[scheduled.seq] = (None, f"injected on {where}, but not as scheduled")
        else:
            met[scheduled.seq] = (
                logged,
                f"injected on {where}, the first {_CARRIER[operation]} {scheduled.file_id}",
            )
    for entry in injected.values():
        found.append(
            (
                "schedule_faults",
                f"cycle {cycle.cycle}: a fault_injected entry with no call it answered",
                [ref(entry)],
            )
        )
    account = []
    for fault in plan.faults:
        logged, reason = met.get(
            fault.seq,
            (None, f"no {_CARRIER[fault.operation]} {fault.file_id} in cycle {cycle.cycle}"),
        )
        account.append(_account(cycle.cycle, fault, logged, reason))
    return found, account


def _applied_as_logged(entry: LedgerEntry, injected: LedgerEntry) -> bool:
    """Whether the log says the faulted call took effect: both the `fault_injected` entry and
    the call's own entry must say so (only an append can)."""
    return injected.payload.get("applied") is True and entry.payload.get("applied") is True


def _carried(cycle: CycleLog, entry: LedgerEntry, injected: LedgerEntry | None) -> FileTest:
    """Which files' work the call of `entry` carried (as `lab/_gateway.py` decides it)."""
    payload = entry.payload
    if entry.kind == "drive.list":
        # A served page: the watched ids it held (`read_log`); a faulted one: the page the
        # fault withheld, as the log recorded it and the replayed Drive confirms.
        source = entry if injected is None else injected
        return cycle.page_hits.get(source.seq, frozenset()).__contains__
    if entry.kind == "sheets.append":
        rows = payload.get("rows")
        ids = {
            str(row[IMPORTER_FILE_ID_INDEX])
            for row in (rows if isinstance(rows, list) else [])
            if isinstance(row, list) and len(row) > IMPORTER_FILE_ID_INDEX
        }
        return ids.__contains__
    if payload.get("operation") == "all":
        return _every_file
    asked = payload.get("file_id")
    return asked.__eq__ if isinstance(asked, str) else _no_file


def _every_file(file_id: str) -> bool:
    return True


def _no_file(file_id: str) -> bool:
    return False


def _error_code(entry: LedgerEntry) -> str | None:
    error = entry.payload.get("error")
    return str(error.get("code")) if isinstance(error, dict) else None


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


__all__ = [
    "CycleSchedule",
    "PlannedFault",
    "ScheduleBuilder",
    "fault_files",
    "schedule_differences",
]
