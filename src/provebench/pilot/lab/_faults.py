"""Fault injection: the corpus's schedule of temporary API errors for one cycle (pilot §5, §11).

A fault names an operation (`list_page`, `read_confirmed_ids`, `append_rows`) and the 1-based
index of that operation's call within the cycle (event model `drive-events/1`). The fault kind
`applied_then_error` is pilot §14's "temporary failure between reading and writing": the append
takes effect and the importer is still told it failed, so a blind retry duplicates rows. The
schedule is the laboratory's secret: importers never see it (pilot §3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from provebench.pilot.lab._errors import TEMPORARY_ERRORS, TemporaryApiError

OPERATIONS = ("list_page", "read_confirmed_ids", "append_rows")
APPLIED_THEN_ERROR = "applied_then_error"


@dataclass(frozen=True, slots=True)
class Fault:
    operation: str
    call_index: int
    kind: str

    @property
    def applied_then_error(self) -> bool:
        return self.kind == APPLIED_THEN_ERROR

    def exception(self) -> TemporaryApiError:
        error_type = TEMPORARY_ERRORS[self.kind]
        return error_type(f"temporary error ({error_type.code}) on {self.operation}; retry")


class FaultPlan:
    """Faults of one cycle, looked up by (operation, call index) in O(1)."""

    __slots__ = ("_by_call", "_counts")

    def __init__(self, faults: Iterable[Fault] = ()) -> None:
        self._by_call = {(f.operation, f.call_index): f for f in faults}
        self._counts = dict.fromkeys(OPERATIONS, 0)

    def next(self, operation: str) -> Fault | None:
        """Count one call of `operation` and return the fault scheduled for it, if any."""
        count = self._counts[operation] + 1
        self._counts[operation] = count
        return self._by_call.get((operation, count)) if self._by_call else None

    def __len__(self) -> int:
        return len(self._by_call)


__all__ = ["APPLIED_THEN_ERROR", "OPERATIONS", "Fault", "FaultPlan"]
