"""False failure reports of calls the laboratory failed once and the importer then retried
successfully (pilot red team 38, H0, H0b, H0c).

Each importer works as the correct one, retrying every call answered 429 or 503 (and every
failed read), and reports each such failure by its call as files that "could not be saved" —
though the retry landed the rows or read the page, and nothing failed:

* `ReportsRetriedFailuresAsNotSaved` (H0, H0c): at the end of the cycle, after the retries.
* `ReportsFailuresAsNotSavedBeforeRetry` (H0b): at each failure, before the retry that
  succeeds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar, TypeVar

from provebench.pilot.agents._retry import FIRST_BACKOFF_SEC, MAX_ATTEMPTS
from provebench.pilot.agents.defective._base import IN_DOUBT, NOT_APPLIED, CorrectImporter, Row
from provebench.pilot.lab import CycleContext, TemporaryApiError

T = TypeVar("T")
_FALSE_REPORT = ("sync_aborted", "1 call(s) could not be saved; sync aborted")


class ReportsRetriedFailuresAsNotSaved(CorrectImporter):
    """Every failed call retried successfully, reported after the retry as not saved (pilot red
    team 38, H0: an append's rows landed by the retry; H0c: a listing page read by it)."""

    name: ClassVar[str] = "reports-retried-failures-as-not-saved"
    before_retry: ClassVar[bool] = False

    def run_cycle(self, ctx: CycleContext) -> None:
        self.retried_failures: list[int | None] = []
        super().run_cycle(ctx)

    def retrying(self, call: Callable[[], T], retry_on: tuple[type[TemporaryApiError], ...]) -> T:
        failed: list[int | None] = []
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                result = call()
            except retry_on as error:
                if attempt == MAX_ATTEMPTS:
                    raise
                failed.append(error.call)
                if self.before_retry:
                    self.report_falsely(error.call)
                self.ctx.clock.sleep(FIRST_BACKOFF_SEC)
                continue
            self.retried_failures.extend(failed)
            return result
        raise AssertionError("unreachable")

    def report_falsely(self, call: int | None) -> None:
        self.ctx.diagnostics.error(*_FALSE_REPORT, call=call)

    def read_confirmed(self) -> frozenset[str]:
        confirmed = self.retrying(self.ctx.confirmed.all, (TemporaryApiError,))
        return confirmed if self.skip_confirmed else frozenset()

    def one_pass(self) -> tuple[list[str], list[Any], bool]:
        ids: list[str] = []
        files: list[Any] = []
        token: str | None = None
        while True:
            try:
                listing = partial(self.ctx.drive.list_files, self.page_size, token)
                page = self.retrying(listing, (TemporaryApiError,))
            except TemporaryApiError as error:
                self.ctx.diagnostics.error("listing_incomplete", str(error), call=error.call)
                return ids, files, False
            ids += page.file_ids
            files += page.files
            token = page.next_page_token
            if token is None:
                return ids, files, True

    def append_batch(self, batch: list[Row]) -> bool:
        try:
            self.retrying(partial(self.ctx.sheets.append_rows, batch), NOT_APPLIED)
        except (*IN_DOUBT, *NOT_APPLIED) as error:
            self.in_doubt(batch, error)
            return False
        return True

    def report_checks(self) -> None:
        if not self.before_retry:
            for call in self.retried_failures:
                self.report_falsely(call)
        super().report_checks()


class ReportsFailuresAsNotSavedBeforeRetry(ReportsRetriedFailuresAsNotSaved):
    """Every failed call reported as not saved at once, then retried successfully (pilot red
    team 38, H0b: the report stood before the retry that landed the rows)."""

    name: ClassVar[str] = "reports-failures-as-not-saved-before-retry"
    before_retry: ClassVar[bool] = True
