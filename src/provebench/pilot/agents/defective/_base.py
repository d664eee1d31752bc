"""`CorrectImporter`: a small, correct importer whose steps the defective importers override.

Per cycle: read the confirmed ids; list the whole Drive until a pass finds nothing new; decide
each new file once with the public rules (the decision is remembered in the work directory, so a
row keeps the zone of the run version in which the file first appeared); report refusals; sort
by the published order; append in batches, retrying only errors answered before any effect and
leaving in-doubt appends to the next cycle's confirmed ids; probe the final-status permission on
the documented self-check target (pilot §12). Each defective importer changes one step.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any, ClassVar

from provebench._canonical import compact_json, write_atomic
from provebench.pilot.agents._retry import RetryStats, with_retry
from provebench.pilot.lab import (
    ApiTimeout,
    CycleContext,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    TemporaryApiError,
)
from provebench.pilot.rules._contract import SELF_CHECK_PROBE_FILE_ID
from provebench.pilot.rules._decide import decide_row
from provebench.pilot.rules._rows import REGISTER_COLUMNS, OrderKey, Refusal, call_order_key

COLUMNS = tuple(c for c in REGISTER_COLUMNS if c != "status")
MAX_PASSES = 8
# Answered before an append takes effect, or maybe after it (docs/pilot-lab.md): the reference
# importer's split, which the correct baseline shares.
NOT_APPLIED: tuple[type[TemporaryApiError], ...] = (RateLimited, ServiceUnavailable)
IN_DOUBT: tuple[type[TemporaryApiError], ...] = (ServerError, ApiTimeout)
_Errors = tuple[type[TemporaryApiError], ...]
STATE_FILE = "defective_state.json"

Row = dict[str, str]


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
    with_retry(
        ctx,
        RetryStats(),
        partial(ctx.sheets.append_rows, batch),
        retry_on=retry_on,
        in_doubt=in_doubt,
    )


class CorrectImporter:
    """The correct baseline of the defective importers (not itself defective)."""

    name: ClassVar[str] = "correct-baseline"
    version: ClassVar[str] = "1"
    page_size: ClassVar[int] = 1000
    skip_confirmed: ClassVar[bool] = True

    def run_cycle(self, ctx: CycleContext) -> None:
        self.ctx = ctx
        self.state: dict[str, Any] = _load_state(ctx)
        self.state["cycles"] = int(self.state.get("cycles", 0)) + 1
        # What the cycle did, for the §12 self-checks it reports (`report_checks`).
        self.passes, self.complete, self.gave_up = 0, True, False
        self.acknowledged: list[Row] = []
        self.unsettled: list[Row] = []
        self.refused_ids: set[str] = set()
        try:
            confirmed = retried(ctx, ctx.confirmed.all)
        except TemporaryApiError as error:
            ctx.diagnostics.error("confirmed_ids_unavailable", str(error), call=error.call)
            self._finish()
            return
        listed = self.list_files()
        decided: dict[str, Any] = self.state.setdefault("decided", {})
        rows: list[Row] = []
        for file_id, file in listed.items():
            if self.skip_confirmed and file_id in confirmed:
                continue
            decision = decided.get(file_id)
            if decision is None:
                made = decide_row(file, ctx.time_zone)
                decision = (
                    {"refused": made.reason_code}
                    if isinstance(made, Refusal)
                    else {c: getattr(made, c) for c in COLUMNS}
                )
                decided[file_id] = decision
            if "refused" in decision:
                self.refused(file, str(decision["refused"]))
            else:
                rows.append(dict(decision))
        rows = self.choose_rows(sorted(rows, key=order_key), listed)
        _save_state(ctx, self.state)
        self.append(rows)
        self.after_append(rows, listed)
        self.report_checks(confirmed, listed, rows)
        self._finish()

    # -- steps a defective importer overrides ---------------------------------------------------
    def list_files(self) -> dict[str, Any]:
        listed: dict[str, Any] = {}
        for _ in range(MAX_PASSES):
            before = len(listed)
            if not self.list_pass(listed):
                return listed
            if len(listed) == before:
                break
        return listed

    def list_pass(self, listed: dict[str, Any]) -> bool:
        ctx, token = self.ctx, None
        self.passes += 1
        while True:
            try:
                page = retried(ctx, partial(ctx.drive.list_files, self.page_size, token))
            except TemporaryApiError as error:
                ctx.diagnostics.error("listing_incomplete", str(error), call=error.call)
                self.complete = False
                return False
            for file in page.files:
                listed.setdefault(file.file_id, file)
            token = page.next_page_token
            if token is None:
                return True

    def refused(self, file: Any, reason_code: str) -> None:
        self.refused_ids.add(file.file_id)
        self.ctx.diagnostics.failed_file(file.file_id, reason_code)

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        return rows

    def append(self, rows: list[Row]) -> None:
        for start in range(0, len(rows), 1000):
            batch = rows[start : start + 1000]
            if not self.append_batch(batch):
                self.unsettled.extend(rows[start:])
                return
            self.acknowledged.extend(batch)

    def append_batch(self, batch: list[Row]) -> bool:
        ctx = self.ctx
        try:
            append_retried(ctx, batch)
        except NOT_APPLIED as error:  # answered before any effect, every attempt
            self.gave_up = True
            ctx.diagnostics.error(
                "append_failed",
                str(error),
                call=error.call,
                file_ids=[row["file_id"] for row in batch],
            )
            return False
        except IN_DOUBT as error:  # maybe applied: the next cycle settles it
            self.in_doubt(batch, error)
            return False
        return True

    def in_doubt(self, batch: list[Row], error: Exception) -> None:
        """Report the append by its call and its rows' file_ids (agent contract, rule 8)."""
        call = getattr(error, "call", None)
        self.ctx.diagnostics.error(
            "append_in_doubt",
            f"{type(error).__name__}: {len(batch)} rows",
            call=call if isinstance(call, int) else None,
            file_ids=[row["file_id"] for row in batch],
        )

    def report_checks(
        self, confirmed: frozenset[str], listed: dict[str, Any], rows: list[Row]
    ) -> None:
        """The reconciliation and the §12 self-checks (agent contract, rule 9), each computed
        from what this cycle did: the defective importers inherit an honest account of their
        own defect."""
        ctx = self.ctx
        done = [row["file_id"] for row in self.acknowledged]
        known = sum(1 for f in listed if f in confirmed)
        imported = sum(1 for f in done if f in listed)
        in_doubt = sum(1 for row in self.unsettled if row["file_id"] in listed)
        failed = sum(1 for f in listed if f not in confirmed and f in self.refused_ids)
        ctx.diagnostics.reconciliation(
            source=len(listed),
            imported=imported,
            failed=failed,
            already_known=known,
            in_doubt=in_doubt,
        )
        checks = {
            "reconciliation": len(listed) == known + imported + failed + in_doubt,
            "pagination": self.complete and self.passes >= 1,
            "file_added_during_traversal": self.complete and self.passes >= 2,
            "repeated_run_without_new_files": not any(f in confirmed for f in done),
            "reappearing_id": len(set(done)) == len(done) and not any(f in confirmed for f in done),
            "same_name_different_ids": True,  # each listed id is decided on its own
            "temporary_failure_and_retry": not self.gave_up,
            "corrupted_file": not any(f in self.refused_ids for f in done),
            "time_zone": True,  # rows are decided in the run version's zone (`decide_row`)
        }
        for name, passed in checks.items():
            ctx.diagnostics.self_check(name, passed)

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        return None

    def _finish(self) -> None:
        _save_state(self.ctx, self.state)
        try:
            self.ctx.sheets.set_status(SELF_CHECK_PROBE_FILE_ID, "imported")
        except PermissionDenied:
            self.ctx.diagnostics.self_check("final_status_not_writable", True)
        else:
            self.ctx.diagnostics.self_check("final_status_not_writable", False)


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
