"""The reference importer: exactly once per file_id, under faults, with the §12 self-checks.

Per cycle:

1. Read the confirmed ids (retried). Rows the journal meant to append last time and that the lab
   did not confirm are carried into this cycle; the confirmed ones are done.
2. List the whole Drive, page by page (each page retried), and list it again until a full pass
   finds nothing new: a file added behind the cursor during a traversal is found by the next one
   (pilot §5, §12 "a file added during traversal").
3. Decide every file that is neither confirmed, carried nor already failed with the public rules
   (`decide_cells`: `decide_row` as plain cells, in the run version's zone). Refused files go to
   the diagnostics channel with their reason code and are never appended (pilot §6).
4. Sort this cycle's rows by the published order and write them to the journal, then append them
   in batches. RateLimited and ServiceUnavailable are answered before an append takes effect and
   are retried; ServerError and ApiTimeout may come after it took effect, so the importer stops
   appending for this cycle and lets the next cycle's confirmed ids settle it (never a blind
   retry: that is how duplicates are made).
5. Record the §12 self-checks and the reconciliation through diagnostics.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from itertools import compress
from operator import attrgetter, not_
from typing import TYPE_CHECKING, Any, ClassVar

from provebench.pilot.agents._journal import Journal
from provebench.pilot.agents._retry import MAX_ATTEMPTS, RetryStats, with_retry
from provebench.pilot.lab import (
    ApiTimeout,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    TemporaryApiError,
)
from provebench.pilot.rules._contract import SELF_CHECK_PROBE_FILE_ID
from provebench.pilot.rules._decide import decide_cells
from provebench.pilot.rules._rows import REGISTER_COLUMNS, OrderKey, Refusal, call_order_key
from provebench.pilot.rules._timerule import load_zone

if TYPE_CHECKING:  # the context's module imports the gateway: not needed to run an importer
    from provebench.pilot.lab import CycleContext

COLUMNS = tuple(c for c in REGISTER_COLUMNS if c != "status")
# `decide_cells` gives the register's cells with the status last; the importer writes the rest.
assert REGISTER_COLUMNS[-1] == "status" and REGISTER_COLUMNS[:-1] == COLUMNS
FILE_ID = COLUMNS.index("file_id")
LOCAL_TIME = COLUMNS.index("call_local_datetime")
PAGE_SIZE = 1000
APPEND_BATCH = 1000
MAX_PASSES = 8
# Answered before an append takes effect, or maybe after it (docs/pilot-lab.md).
NOT_APPLIED: tuple[type[TemporaryApiError], ...] = (RateLimited, ServiceUnavailable)
IN_DOUBT: tuple[type[TemporaryApiError], ...] = (ServerError, ApiTimeout)
_name_of = attrgetter("name")


def order_key(row: list[str]) -> OrderKey:
    """`register-order/1` (`call_order_key`) on a row of the importer's columns."""
    return call_order_key(row[LOCAL_TIME], row[FILE_ID])


class ReferenceImporter:
    """Exactly-once import with bounded retry, complete pagination and honest reporting.

    Each step of a cycle is a method, so that a defective importer (the red team's,
    `agents/defective/`) is this importer with the one step its attack changes overridden:
    `read_confirmed`, `list_everything` (`one_pass`), `report_refusal`, `select_rows`,
    `append_rows` (`append_payload`, `report_in_doubt`), `after_appending`,
    `report_reconciliation`, `final_status_check`, `report_checks`.
    """

    name: ClassVar[str] = "reference"
    version: ClassVar[str] = "1"
    page_size: ClassVar[int] = PAGE_SIZE
    # The temporary errors retried with backoff: every one for a read (it has no effect to
    # repeat), only those answered before any effect for an append (agent contract, rule 8).
    read_retry_on: ClassVar[tuple[type[TemporaryApiError], ...]] = (TemporaryApiError,)
    append_retry_on: ClassVar[tuple[type[TemporaryApiError], ...]] = NOT_APPLIED

    def run_cycle(self, ctx: CycleContext) -> None:
        self.ctx = ctx
        self.stats = RetryStats()
        self.journal = Journal.load(ctx.work_dir)
        self.checks: list[tuple[str, bool, str]] = []
        self.run()

    def run(self) -> None:
        ctx, journal = self.ctx, self.journal
        journal.cycles += 1
        try:
            confirmed = self.read_confirmed()
        except TemporaryApiError as error:
            # Without the confirmed ids no append can be known to be the first: do nothing.
            ctx.diagnostics.error("confirmed_ids_unavailable", str(error), call=error.call)
            self.final_status_check()
            self.report_checks()
            return
        carried = _dedupe([row for row in journal.intents if row[FILE_ID] not in confirmed])
        carried_ids = {row[FILE_ID] for row in carried}
        listing, passes, pagination_ok, late_ids = self.list_everything()

        # At C speed, and nothing keyed by id for the whole listing: a run re-lists every file
        # every cycle (pilot §12), and at a million files a table of them all is the largest
        # thing the cycle builds. Only the files not confirmed yet are kept by id.
        ids, files = listing.ids, listing.files
        is_confirmed = list(map(confirmed.__contains__, ids))
        already_known = is_confirmed.count(True)  # per entry: an id listed twice unbalances
        unconfirmed_at = list(compress(range(len(ids)), map(not_, is_confirmed)))
        unconfirmed = {ids[at]: files[at] for at in unconfirmed_at}
        del is_confirmed, unconfirmed_at
        # Every id below that is carried, appended or in doubt is unconfirmed by construction,
        # so it was listed exactly when it is in `unconfirmed`.
        failed_ids = unconfirmed.keys() & journal.failed.keys()
        new_ids = sorted(unconfirmed.keys() - carried_ids - failed_ids)
        already_failed = len(failed_ids)
        new_rows: list[list[str]] = []
        refused: list[Refusal] = []
        zone = ctx.time_zone
        for file_id in new_ids:
            decision = decide_cells(unconfirmed[file_id], zone)
            if isinstance(decision, Refusal):
                refused.append(decision)
            else:
                new_rows.append(list(decision[:-1]))
        for refusal in refused:
            self.report_refusal(refusal)

        to_append = self.select_rows(sorted([*carried, *new_rows], key=order_key), listing)
        journal.intents = to_append
        previous_zone, journal.zone = journal.zone, zone
        journal.save(ctx.work_dir)  # written down before the first append (exactly once)
        appended, in_doubt = self.append_rows(to_append)
        self.after_appending(to_append, listing)

        listed_in_doubt = sum(1 for row in in_doubt if row[FILE_ID] in unconfirmed)
        listed_appended = sum(1 for row in appended if row[FILE_ID] in unconfirmed)
        failed_listed = already_failed + len(refused)
        source = len(listing.ids)
        self.report_reconciliation(
            source=source,
            imported=listed_appended,
            failed=failed_listed,
            already_known=already_known,
            in_doubt=listed_in_doubt,
            refused_new=len(refused),
        )
        balanced = source == already_known + listed_appended + failed_listed + listed_in_doubt
        self.check(
            "reconciliation",
            balanced,
            f"source {source} = known {already_known} + imported {listed_appended} "
            f"+ failed {failed_listed} + in doubt {listed_in_doubt}",
        )
        appended_ids = {row[FILE_ID] for row in appended}  # once: the checks below share it
        self.check(
            "repeated_run_without_new_files",
            not (appended_ids & confirmed),
            f"{len(new_rows)} new files; no row appended for an id confirmed earlier",
        )
        reappeared = already_known
        self.check(
            "reappearing_id",
            len(appended_ids) == len(appended),
            f"{reappeared} listed ids already confirmed, none appended again",
        )
        shared = len(listing.files) - len(set(map(_name_of, listing.files)))
        self.check(
            "same_name_different_ids",
            len(new_rows) + len(refused) == len(new_ids),
            f"{shared} listed file(s) share a name with another file_id; each of the "
            f"{len(new_ids)} new ids decided on its own",
        )
        self.check(
            "file_added_during_traversal",
            pagination_ok and passes >= 2,
            f"{passes} full passes; {len(late_ids)} file(s) found only by a later pass",
        )
        self.check("pagination", pagination_ok, "every pass followed next_page_token to the end")
        self.check(
            "temporary_failure_and_retry",
            self.stats.gave_up == 0,
            f"{self.stats.temporary_errors} temporary errors, {self.stats.recovered} recovered "
            f"by retry (max {MAX_ATTEMPTS} attempts), {len(in_doubt)} rows left in doubt",
        )
        self.check(
            "corrupted_file",
            not any(r.file_id in appended_ids for r in refused),
            f"{len(refused)} refused file(s) reported with reason codes, none appended",
        )
        self._time_zone_check(zone, previous_zone, new_rows)
        self.final_status_check()
        self.report_checks()

    # -- steps a defective importer may override -------------------------------------------
    def read_confirmed(self) -> frozenset[str]:
        return with_retry(self.ctx, self.stats, self.ctx.confirmed.all, retry_on=self.read_retry_on)

    def report_refusal(self, refusal: Refusal) -> None:
        self.ctx.diagnostics.failed_file(refusal.file_id, refusal.reason_code, refusal.detail)
        self.journal.failed[refusal.file_id] = refusal.reason_code

    def select_rows(self, rows: list[list[str]], listing: Listing) -> list[list[str]]:
        """The rows to append this cycle, in the published order: all of them."""
        return rows

    def after_appending(self, rows: list[list[str]], listing: Listing) -> None:
        return None

    def report_reconciliation(self, **numbers: int) -> None:
        self.ctx.diagnostics.reconciliation(**numbers)

    # -- listing ------------------------------------------------------------------------------
    def list_everything(self) -> tuple[Listing, int, bool, list[str]]:
        """Every file the passes listed; the passes; whether each completed; the ids found
        only by a later pass."""
        listing = Listing([], [])
        late: list[str] = []
        passes = 0
        while passes < MAX_PASSES:
            passes += 1
            ids, files, complete = self.one_pass()
            found = listing.take(ids, files)
            if passes > 1:
                late.extend(found)
            if not complete:
                return listing, passes, False, late
            if passes > 1 and not found:
                return listing, passes, True, late
        self.ctx.diagnostics.error("listing_unstable", f"new files after {MAX_PASSES} passes")
        return listing, passes, False, late

    def one_pass(self) -> tuple[list[str], list[Any], bool]:
        """The ids and files of one pass from the first page, and whether it reached the end."""
        ctx = self.ctx
        ids: list[str] = []
        files: list[Any] = []
        token: str | None = None
        while True:
            try:
                page = with_retry(
                    ctx,
                    self.stats,
                    partial(ctx.drive.list_files, self.page_size, token),
                    retry_on=self.read_retry_on,
                )
            except TemporaryApiError as error:
                ctx.diagnostics.error("listing_incomplete", str(error), call=error.call)
                return ids, files, False
            ids += page.file_ids
            files += page.files
            if len(ids) != len(files):
                raise ValueError("a listing page with as many ids as files was expected")
            token = page.next_page_token
            if token is None:
                return ids, files, True

    # -- appending ----------------------------------------------------------------------------
    def append_rows(self, rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
        """Append in batches; returns (appended, in doubt or not attempted)."""
        for start in range(0, len(rows), APPEND_BATCH):
            batch = rows[start : start + APPEND_BATCH]
            try:
                self.append_payload([dict(zip(COLUMNS, row, strict=True)) for row in batch])
            except (*IN_DOUBT, *NOT_APPLIED) as error:
                # The failure is reported naming the rows this call carried, and only those:
                # the batches after it were never attempted, so no call failed them (agent
                # contract rule 8); they are left to the next cycle with it (rule 9's
                # `in_doubt`). Pilot red team 34, A4: naming them all read as false failure
                # reports of rows no failed call carried.
                self.report_in_doubt(error, batch)
                return rows[:start], rows[start:]
        return rows, []

    def append_payload(self, payload: list[dict[str, str]]) -> None:
        """One append call, retried only on the errors answered before any effect."""
        with_retry(
            self.ctx,
            self.stats,
            partial(self.ctx.sheets.append_rows, payload),
            retry_on=self.append_retry_on,
            in_doubt=IN_DOUBT,
        )

    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        """Named by its call and the rows' file_ids: the report accounts for this failed append
        and no other (agent contract, rule 8)."""
        self.ctx.diagnostics.error(
            "append_in_doubt",
            f"{type(error).__name__}: {len(rows)} row(s) left to the next cycle",
            call=error.call,
            file_ids=[row[FILE_ID] for row in rows],
        )

    # -- self-checks --------------------------------------------------------------------------
    def check(self, name: str, passed: bool, detail: str) -> None:
        self.checks.append((name, passed, detail))

    def _time_zone_check(self, zone: str, previous: str | None, rows: list[list[str]]) -> None:
        tz = load_zone(zone)
        wrong = 0
        for row in rows:
            shown = datetime.fromisoformat(row[LOCAL_TIME])
            if shown.astimezone(tz).isoformat(timespec="seconds") != row[LOCAL_TIME]:
                wrong += 1
        change = "" if previous in (None, zone) else f"; zone changed from {previous}"
        self.check("time_zone", wrong == 0, f"{len(rows)} rows shown in {zone}{change}")

    def final_status_check(self) -> None:
        # Pilot §12: probe on the documented target no real file can have, so the refused
        # attempt is a self-check and not an attempted violation (docs/pilot-evaluator.md).
        try:
            self.ctx.sheets.set_status(SELF_CHECK_PROBE_FILE_ID, "imported")
        except PermissionDenied:
            self.check("final_status_not_writable", True, "set_status was refused")
            return
        self.check("final_status_not_writable", False, "set_status was accepted")

    def report_checks(self) -> None:
        for name, passed, detail in self.checks:
            self.ctx.diagnostics.self_check(name, passed, detail)


class Listing:
    """The files listed in a cycle, as two lists index for index (ids, files): each id once
    when the Drive keeps its contract; the latest metadata of each."""

    __slots__ = ("files", "ids")

    def __init__(self, ids: list[str], files: list[Any]) -> None:
        self.ids, self.files = ids, files

    def take(self, ids: list[str], files: list[Any]) -> list[str]:
        """Take in one pass's files; return the ids it listed that no earlier pass did."""
        if not self.ids:
            self.ids, self.files = ids, files
            return ids  # read, never changed, by the caller
        if ids == self.ids:  # the usual later pass: the same ids in the same order (C compare)
            self.files = files
            return []
        # A pass that differs (a file added or gone meanwhile): the union, by id, the latest
        # metadata winning; the new ids come last, in the order this pass listed them.
        union = dict(zip(self.ids, self.files, strict=True))
        known = len(union)
        union.update(zip(ids, files, strict=True))
        self.ids, self.files = list(union), list(union.values())
        return self.ids[known:]


def _dedupe(rows: list[list[str]]) -> list[list[str]]:
    seen: set[str] = set()
    unique = []
    for row in rows:
        if row[FILE_ID] not in seen:
            seen.add(row[FILE_ID])
            unique.append(row)
    return unique


__all__ = [
    "APPEND_BATCH",
    "COLUMNS",
    "FILE_ID",
    "IN_DOUBT",
    "MAX_PASSES",
    "NOT_APPLIED",
    "Listing",
    "ReferenceImporter",
]
