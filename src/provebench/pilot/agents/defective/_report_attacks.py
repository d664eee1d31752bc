"""Attacks on the cycle's own account of itself: the reconciliation's `in_doubt` slot and the §12
retry check, each made to look like an honest report of work that was not done (agent contract
rules 8 and 9; pilot §12, §14).

* `DefersRowClaimsInDoubt`: each cycle with two rows or more to append leaves the last one out
  — never attempted — and counts it `in_doubt` (the slot that balances `source = imported +
  failed + already_known + in_doubt`), claiming the reconciliation check passed. The row comes
  a cycle late, or never: completeness and recovery fall short.
* `NeverRetries`: no call is ever tried again — a listing page, a read of the confirmed ids or
  an append answered 429 or 503, which took no effect and is to be retried with backoff (rule
  8) — each failure is reported, and the §12 check `temporary_failure_and_retry` is claimed
  passed all the same. The retry the check names is not in the log.
"""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter, Row
from provebench.pilot.lab import TemporaryApiError


class DefersRowClaimsInDoubt(CorrectImporter):
    """The last row of a cycle never attempted, and reported in doubt."""

    name: ClassVar[str] = "defers-row-claims-in-doubt"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        self.deferred = rows[-1:] if len(rows) > 1 else []
        return rows[: len(rows) - len(self.deferred)]

    def report_reconciliation(self, **numbers: int) -> None:
        deferred = sum(1 for row in getattr(self, "deferred", []) if row["file_id"] in self.listed)
        numbers["in_doubt"] += deferred  # the defect: a row never attempted, called in doubt
        super().report_reconciliation(**numbers)

    def check(self, name: str, passed: bool, detail: str) -> None:
        super().check(name, passed or name == "reconciliation", detail)


class NeverRetries(CorrectImporter):
    """Nothing retried, a 429 or 503 included; the retry check claimed passed."""

    name: ClassVar[str] = "never-retries"
    read_retry_on: ClassVar[tuple[type[TemporaryApiError], ...]] = ()  # the defect
    append_retry_on: ClassVar[tuple[type[TemporaryApiError], ...]] = ()

    def check(self, name: str, passed: bool, detail: str) -> None:
        super().check(name, passed or name == "temporary_failure_and_retry", detail)
