"""`CorrectImporter`: the reference importer, with its steps in the shapes the attacks change.

There is one correct importer, `agents/_reference.py`. The red team's defective importers are
that importer with one step overridden; this class only hands each step to them in the shape an
attack is easiest to read in — a row as a dict of register columns (what `append_rows` takes),
the listed files by id — and gives a defect a memory of its own between cycles (`state`, in its
work directory next to the reference's journal). With no step overridden it imports exactly as
the reference does: same calls, same rows, same report.

The steps, and what each defaults to:

* `list_files()` → every listed file by id, pass after pass (`list_pass`) until a pass finds
  nothing new, as the reference lists;
* `choose_rows(rows, listed)` → the rows to append (decided by the public rules, with the rows
  an earlier cycle left in doubt, sorted by the published order): all of them. A row left in
  doubt may be for a file this cycle's listing no longer shows;
* `refused(file, reason_code)` → the reference's failed-file report;
* `append(rows)`, `append_batch(batch)`, `in_doubt(batch, error)` → the reference's batches,
  retry policy (`agents/_retry.py`) and in-doubt report;
* `after_append(rows, listed)` → nothing.

The reference's own steps (`read_confirmed`, `report_reconciliation`, `final_status_check`,
`report_checks`, …) can be overridden as they are.
"""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from provebench._canonical import compact_json, write_atomic
from provebench.pilot.agents._reference import (
    APPEND_BATCH,
    COLUMNS,
    IN_DOUBT,
    MAX_PASSES,
    NOT_APPLIED,
    Listing,
    ReferenceImporter,
)
from provebench.pilot.agents._retry import RetryStats, with_retry
from provebench.pilot.lab import TemporaryApiError
from provebench.pilot.rules._rows import OrderKey, Refusal, call_order_key

if TYPE_CHECKING:  # the context's module imports the gateway: not needed to run an importer
    from provebench.pilot.lab import CycleContext

STATE_FILE = "defective_state.json"

Row = dict[str, str]
_Errors = tuple[type[TemporaryApiError], ...]


def order_key(row: Row) -> OrderKey:
    """`register-order/1` (`call_order_key`) on a row as the importer appends it."""
    return call_order_key(row["call_local_datetime"], row["file_id"])


def retried(ctx: CycleContext, call: Any) -> Any:
    """`call()` retried on temporary errors (reads only: safe to repeat), with the reference
    importer's one retry policy (`agents/_retry.py`)."""
    return with_retry(ctx, RetryStats(), call)


def append_retried(ctx: CycleContext, batch: list[Row], retry_on: _Errors = NOT_APPLIED) -> None:
    """One append with the one retry policy: `retry_on` errors retried, any other temporary
    error raised at once (the correct importer never repeats an append that may have taken
    effect; an attack that does passes every temporary error)."""
    in_doubt = tuple(error for error in IN_DOUBT if error not in retry_on)
    call = partial(ctx.sheets.append_rows, batch)
    with_retry(ctx, RetryStats(), call, retry_on=retry_on, in_doubt=in_doubt)


class CorrectImporter(ReferenceImporter):
    """The reference importer, its steps in the attacks' shapes (not itself defective)."""

    name: ClassVar[str] = "correct-baseline"
    version: ClassVar[str] = "1"
    # False: the confirmed ids are not read, so every listed file looks new every cycle.
    skip_confirmed: ClassVar[bool] = True

    def run_cycle(self, ctx: CycleContext) -> None:
        self.state: dict[str, Any] = _load_state(ctx)
        self.state["cycles"] = int(self.state.get("cycles", 0)) + 1
        self.listed: dict[str, Any] = {}
        self.passes, self.complete, self.late = 0, True, list[str]()
        self.refusals: dict[str, Refusal] = {}
        self.chosen: list[Row] = []
        try:
            super().run_cycle(ctx)
        finally:
            _save_state(ctx, self.state)

    # -- the reference's steps, handed to the attacks' shapes ----------------------------------
    def read_confirmed(self) -> frozenset[str]:
        confirmed = super().read_confirmed()
        return confirmed if self.skip_confirmed else frozenset()

    def list_everything(self) -> tuple[Listing, int, bool, list[str]]:
        self.listed = self.list_files()
        listing = Listing(list(self.listed), list(self.listed.values()))
        return listing, self.passes, self.complete, self.late

    def report_refusal(self, refusal: Refusal) -> None:
        self.refusals[refusal.file_id] = refusal  # refused files are listed ones
        self.refused(self.listed[refusal.file_id], refusal.reason_code)

    def select_rows(self, rows: list[list[str]], listing: Listing) -> list[list[str]]:
        self.chosen = self.choose_rows(_dicts(rows), self.listed)
        return _cells(self.chosen)

    def append_rows(self, rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
        self.acknowledged: list[Row] = []
        self.unsettled: list[Row] = []
        self.append(_dicts(rows))
        return _cells(self.acknowledged), _cells(self.unsettled)

    def after_appending(self, rows: list[list[str]], listing: Listing) -> None:
        self.after_append(self.chosen, self.listed)

    # -- the steps the attacks override ---------------------------------------------------------
    def list_files(self) -> dict[str, Any]:
        listed: dict[str, Any] = {}
        for _ in range(MAX_PASSES):
            before = len(listed)
            if not self.list_pass(listed):
                return listed
            if self.passes > 1:
                self.late.extend(list(listed)[before:])
                if len(listed) == before:
                    return listed
        self.ctx.diagnostics.error("listing_unstable", f"new files after {MAX_PASSES} passes")
        self.complete = False
        return listed

    def list_pass(self, listed: dict[str, Any]) -> bool:
        """One pass from the first page into `listed`; whether it reached the end."""
        self.passes += 1
        ids, files, complete = self.one_pass()
        for file_id, file in zip(ids, files, strict=True):
            listed[file_id] = file  # the latest metadata wins, as in the reference
        if not complete:
            self.complete = False
        return complete

    def refused(self, file: Any, reason_code: str) -> None:
        ReferenceImporter.report_refusal(self, self.refusals[file.file_id])

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        return rows

    def append(self, rows: list[Row]) -> None:
        for start in range(0, len(rows), APPEND_BATCH):
            batch = rows[start : start + APPEND_BATCH]
            if not self.append_batch(batch):
                self.unsettled.extend(rows[start:])
                return
            self.acknowledged.extend(batch)

    def append_batch(self, batch: list[Row]) -> bool:
        try:
            self.append_payload(batch)
        except (*IN_DOUBT, *NOT_APPLIED) as error:
            self.in_doubt(batch, error)
            return False
        return True

    def in_doubt(self, batch: list[Row], error: Exception) -> None:
        """Report the append by its call and its rows' file_ids (agent contract, rule 8)."""
        if isinstance(error, TemporaryApiError):
            self.report_in_doubt(error, _cells(batch))

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        return None


def _dicts(rows: list[list[str]]) -> list[Row]:
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows]


def _cells(rows: list[Row]) -> list[list[str]]:
    return [[row[column] for column in COLUMNS] for row in rows]


def _load_state(ctx: CycleContext) -> dict[str, Any]:
    path = ctx.work_dir / STATE_FILE
    if not path.is_file():
        return {}
    state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return state


def _save_state(ctx: CycleContext, state: dict[str, Any]) -> None:
    write_atomic(ctx.work_dir / STATE_FILE, compact_json(state))


__all__ = [
    "COLUMNS",
    "IN_DOUBT",
    "NOT_APPLIED",
    "CorrectImporter",
    "Row",
    "append_retried",
    "order_key",
    "retried",
]
