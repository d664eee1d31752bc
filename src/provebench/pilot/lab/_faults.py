"""Fault injection: the corpus's temporary API errors for one cycle (pilot §5, §11, §14).

A fault names an operation (`list_page`, `read_confirmed_ids`, `append_rows`) and the file whose
work it interrupts (event model `drive-events/2`): it fires on the first call of the cycle that
carries that file — the listing page that holds it, the append whose rows carry its row, a read
of the confirmed ids that answers about it. A call that carries no such work spends nothing, so
an importer cannot use up the schedule with idle calls (an empty append, a one-file page it did
not need) and keep its real defect out of reach. The fault kinds `applied_then_error` and
`applied_then_timeout` are pilot §14's "temporary failure between reading and writing": the
append takes effect and the importer is still told it failed (a server error) or never hears
back (a timeout), so a blind retry duplicates rows. The schedule is the laboratory's secret:
importers never see it (pilot §3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from provebench.pilot.corpus._model import APPLIED_FAULT_KINDS
from provebench.pilot.lab._errors import TEMPORARY_ERRORS, ApiTimeout, TemporaryApiError

OPERATIONS = ("list_page", "read_confirmed_ids", "append_rows")


@dataclass(frozen=True, slots=True)
class Fault:
    operation: str
    file_id: str
    kind: str

    @property
    def applied(self) -> bool:
        """The call takes effect before it fails (`applied_then_error`, `applied_then_timeout`)."""
        return self.kind in APPLIED_FAULT_KINDS

    def exception(self) -> TemporaryApiError:
        error_type = TEMPORARY_ERRORS[self.kind]
        if error_type is ApiTimeout:
            # The same words whether or not the call took effect: the importer cannot tell.
            return error_type(f"no answer (timeout) on {self.operation}; the effect is unknown")
        return error_type(f"temporary error ({error_type.code}) on {self.operation}; retry")


class FaultPlan:
    """The unspent faults of one cycle, by operation, in the stream's order."""

    __slots__ = ("_unspent",)

    def __init__(self, faults: Iterable[Fault] = ()) -> None:
        self._unspent: dict[str, list[Fault]] = {}
        for fault in faults:
            self._unspent.setdefault(fault.operation, []).append(fault)

    def pending(self, operation: str) -> bool:
        """Whether `operation` has a fault left (lets a caller skip building what a call
        carries when nothing can fire)."""
        return bool(self._unspent.get(operation))

    def meet(self, operation: str, carries: Callable[[str], bool]) -> Fault | None:
        """Spend and return the first unspent fault of `operation` whose file the call carries
        (`carries(file_id)`), or None: a call that carries none of them spends nothing."""
        waiting = self._unspent.get(operation)
        if not waiting:
            return None
        for index, fault in enumerate(waiting):
            if carries(fault.file_id):
                del waiting[index]
                return fault
        return None

    def __len__(self) -> int:
        return sum(map(len, self._unspent.values()))


__all__ = ["OPERATIONS", "Fault", "FaultPlan"]
