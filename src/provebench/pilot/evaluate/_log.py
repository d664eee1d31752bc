"""The external log, cycle by cycle: calls, failures, refusals, faults, diagnostics, confirmations.

Also the check that the published register is what the log confirmed (pilot §15 "a discrepancy
between the independent snapshot and the published verified actual value"): the confirmed rows
recorded in the log are re-hashed into the register chain of every `cycle_confirmed` entry, and
the register as presented (`presented_order_key`) must equal `register.csv` cell for cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate._verdict import LogRef
from provebench.pilot.record._chain import register_chain
from provebench.pilot.record._listing import ListingReplay
from provebench.pilot.rules._rows import REGISTER_COLUMNS, presented_order_key

STATUS_INDEX = REGISTER_COLUMNS.index("status")
FILE_ID_INDEX = REGISTER_COLUMNS.index("file_id")
# An append's logged rows have the importer's columns: the register's without the status.
IMPORTER_FILE_ID_INDEX = [c for c in REGISTER_COLUMNS if c != "status"].index("file_id")


def ref(entry: LedgerEntry) -> LogRef:
    return LogRef(seq=entry.seq, hash=entry.hash, kind=entry.kind)


@dataclass
class AppendCall:
    """One `sheets.append` entry: the rows, whether the lab applied them, whether it said so."""

    entry: LedgerEntry
    rows: list[list[str]]
    applied: bool
    acknowledged: bool


@dataclass
class CycleLog:
    cycle: int
    started: LedgerEntry
    confirmed: LedgerEntry | None = None
    status: str = ""
    entries: list[LedgerEntry] = field(default_factory=list)
    appends: list[AppendCall] = field(default_factory=list)
    failures: list[LedgerEntry] = field(default_factory=list)
    refusals: list[LedgerEntry] = field(default_factory=list)
    faults: list[LedgerEntry] = field(default_factory=list)
    diagnostics: list[LedgerEntry] = field(default_factory=list)
    listed_ids: set[str] = field(default_factory=set)
    # seq of a drive.list entry (or of the fault_injected entry that withheld its page) -> the
    # files of `read_log`'s `watched` the page held: what a listing fault is bound to.
    page_hits: dict[int, frozenset[str]] = field(default_factory=dict)
    # Listing passes (invariant 5): a pass starts at the first page (no token) and follows each
    # page's next_page_token to a page without one; a jump or a forged token breaks it.
    complete_passes: int = 0
    # Pages whose answer showed only part of the page (`shown_ids`): they break a pass.
    partial_pages: int = 0
    last_pass_found_new: bool = False
    _pass_open: bool = False
    _pass_token: object = None
    _pass_new: bool = False
    # The confirmed rows, built once per state of the cycle (every metric reads them, read-only).
    _rows_memo: tuple[tuple[str, int], list[tuple[list[str], AppendCall]]] | None = field(
        default=None, repr=False, compare=False
    )

    def take_page(
        self, payload: dict[str, Any], page: list[str], shown: list[str] | None = None
    ) -> None:
        """A listing page served in this cycle: the ids its answer showed (`shown`, default the
        whole page), and where it leaves the current pass. An answer that left out ids of the
        page (a `q` filter, a `fields` mask) is no part of a pass: a traversal that does not
        show the listing checks nothing about it (pilot §12; red team 26, H6)."""
        shown = page if shown is None else shown
        token = payload.get("page_token")
        result = payload.get("result")
        following = result.get("next_page_token") if isinstance(result, dict) else None
        if token is None:
            self._pass_open, self._pass_new = True, False
        elif not self._pass_open or token != self._pass_token:
            self._pass_open = False
        if len(shown) != len(page):
            self._pass_open = False
            self.partial_pages += 1
        if self._pass_open and not self.listed_ids.issuperset(shown):
            self._pass_new = True
        self.listed_ids.update(shown)
        if not self._pass_open:
            return
        if following is None:
            self.complete_passes += 1
            self.last_pass_found_new = self._pass_new
            self._pass_open = False
        else:
            self._pass_token = following

    def confirmed_rows(self) -> list[tuple[list[str], AppendCall]]:
        """Full register rows (status inserted) of every applied append, in append order (the
        same list on every call while the cycle is unchanged: callers only read it)."""
        if self.confirmed is None:
            return []
        key = (self.status, len(self.appends))
        if self._rows_memo is None or self._rows_memo[0] != key:
            rows = [
                ([*row[:STATUS_INDEX], self.status, *row[STATUS_INDEX:]], call)
                for call in self.appends
                if call.applied
                for row in call.rows
            ]
            self._rows_memo = (key, rows)
        return self._rows_memo[1]


@dataclass
class LogFacts:
    cycles: list[CycleLog]
    problems: list[tuple[str, str, list[LogRef]]]  # (code, message, evidence)
    # file_id -> the first drive.list or drive.get entry that showed it to the importer
    first_shown: dict[str, LedgerEntry] = field(default_factory=dict)

    def all_confirmed(self) -> list[tuple[int, list[str], AppendCall]]:
        return [(c.cycle, row, call) for c in self.cycles for row, call in c.confirmed_rows()]


# A log problem that is evidence of writing to the log, not of a lost attempt.
OUTSIDE_CYCLE = "entry_outside_cycle"


def read_log(entries: list[LedgerEntry], watched: frozenset[str] = frozenset()) -> LogFacts:
    """The log by cycle. `watched`: the files listing faults are bound to (`_schedule.py`);
    for each page that held any of them, `CycleLog.page_hits` keeps which."""
    cycles: list[CycleLog] = []
    problems: list[tuple[str, str, list[LogRef]]] = []
    first_shown: dict[str, LedgerEntry] = {}
    # drive.list/2 logs a page by digest: its ids come back from the Drive replayed from the
    # log's own events_applied entries, checked against the digest (docs/pilot-lab.md).
    listings = ListingReplay()
    current: CycleLog | None = None
    for entry in entries:
        kind, payload = entry.kind, entry.payload
        page = listings.feed(entry.seq, kind, payload)
        if kind == "cycle_started":
            current = CycleLog(cycle=_int(payload.get("cycle")), started=entry)
            if current.cycle != len(cycles) + 1:
                problems.append(("cycle_sequence", "cycles are not 1, 2, 3, …", [ref(entry)]))
            cycles.append(current)
        elif (current is None and (kind, entry.seq) != ("run_started", 0)) or (
            current is not None and current.confirmed is not None
        ):
            # The runner writes a cycle in one transaction from cycle_started to cycle_confirmed,
            # and nothing but run_started before the first: an entry anywhere else was written
            # by someone else with write access to the final log (pilot §7, §15).
            where = (
                "before cycle 1 started"
                if current is None
                else f"after cycle {current.cycle} was confirmed"
            )
            problems.append((OUTSIDE_CYCLE, f"a {kind} entry {where}", [ref(entry)]))
            continue
        if current is None:
            continue
        current.entries.append(entry)
        if kind == "cycle_confirmed":
            current.confirmed = entry
            current.status = str(payload.get("status", ""))
        elif kind == "sheets.append":
            rows = payload.get("rows")
            current.appends.append(
                AppendCall(
                    entry=entry,
                    rows=[[str(cell) for cell in row] for row in _rows(rows)],
                    applied=payload.get("applied") is True,
                    acknowledged="error" not in payload and payload.get("applied") is True,
                )
            )
        elif kind == "refused":
            current.refusals.append(entry)
        elif kind == "fault_injected":
            current.faults.append(entry)
            withheld = payload.get("withheld")
            if isinstance(withheld, dict):
                # The page the fault withheld, checked against the replayed Drive like a
                # served one (a mismatch fails closed below).
                held = listings.feed(
                    entry.seq,
                    "drive.list",
                    {"page_token": payload.get("page_token"), "result": withheld},
                )
                # Credited by what its answer would have shown (`shown_ids`, after `q` and
                # `fields`), as the lab binds it: a withheld page that would have shown none of
                # the fault's files is no fault on its work (red team 28, H2).
                shown_held = None if held is None else listings.shown(entry.seq, payload, held)
                if shown_held is not None and not watched.isdisjoint(shown_held):
                    current.page_hits[entry.seq] = watched.intersection(shown_held)
        elif kind == "diagnostics":
            current.diagnostics.append(entry)
        elif kind == "drive.list" and page is not None:
            # What the answer showed is what counts as shown to the importer, and what binds
            # the lab's listing faults (drive.list/2 `shown_ids`; a malformed one fails closed):
            # an answer that shows no file carries no file's work (red team 28, H2).
            shown = listings.shown(entry.seq, payload, page)
            if shown is not None and watched and not watched.isdisjoint(shown):
                current.page_hits[entry.seq] = watched.intersection(shown)
            if shown is not None:
                current.take_page(payload, page, shown)
                for file_id in shown:
                    first_shown.setdefault(file_id, entry)
        elif kind == "drive.get" and isinstance(payload.get("result"), dict):
            file_id = str(payload["result"].get("file_id"))
            current.listed_ids.add(file_id)
            first_shown.setdefault(file_id, entry)
        if kind != "fault_injected" and isinstance(payload, dict) and "error" in payload:
            current.failures.append(entry)
    by_seq = {entry.seq: entry for entry in entries} if listings.mismatches else {}
    for seq, reason in listings.mismatches:
        # What the importer was shown is not provable: fail closed (pilot §15).
        problems.append(("listing_page", f"drive.list at seq {seq}: {reason}", [ref(by_seq[seq])]))
    return LogFacts(cycles=cycles, problems=problems, first_shown=first_shown)


def check_register(
    facts: LogFacts, register_cells: list[list[str]], record: dict[str, Any]
) -> list[tuple[str, str, list[LogRef]]]:
    """Where the published register and the log disagree (empty when they agree)."""
    found: list[tuple[str, str, list[LogRef]]] = []
    chain = register_chain("", [])
    total = 0
    for cycle in facts.cycles:
        if cycle.confirmed is None:
            found.append(("unconfirmed_cycle", f"cycle {cycle.cycle} has no cycle_confirmed", []))
            continue
        rows = [row for row, _ in cycle.confirmed_rows()]
        chain = register_chain(chain, rows)
        total += len(rows)
        payload = cycle.confirmed.payload
        if (
            payload.get("register_sha256") != chain
            or payload.get("rows_confirmed") != len(rows)
            or payload.get("register_rows") != total
        ):
            found.append(
                (
                    "register_chain",
                    f"cycle {cycle.cycle}: the appended rows in the log do not hash to the "
                    "register the lab confirmed",
                    [ref(cycle.confirmed)],
                )
            )
    register = record.get("register", {})
    if register.get("rows") != total or register.get("chain_sha256") != chain:
        found.append(("register_record", "run.json's register differs from the log", []))
    presented = sorted((row for _, row, _ in facts.all_confirmed()), key=presented_order_key)
    if presented != register_cells:
        first = next(
            (i for i, (a, b) in enumerate(zip(presented, register_cells, strict=False)) if a != b),
            min(len(presented), len(register_cells)),
        )
        found.append(
            (
                "register_csv",
                f"register.csv differs from the rows confirmed in the log (first at data row "
                f"{first + 1}; log {len(presented)} rows, register.csv {len(register_cells)})",
                [],
            )
        )
    return found


def _rows(value: object) -> list[list[Any]]:
    if not isinstance(value, list):
        return []
    return [row for row in value if isinstance(row, list)]


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


__all__ = [
    "FILE_ID_INDEX",
    "IMPORTER_FILE_ID_INDEX",
    "AppendCall",
    "CycleLog",
    "LogFacts",
    "check_register",
    "read_log",
    "ref",
]
