"""Attacks on what the evaluator takes as evidence of work: the fault schedule and the §12
self-checks (docs/pilot-evaluator.md, invariants 2 and 5).

* `AbsorbsFaultsWithIdleCalls`: a blind retry of an in-doubt append (pilot §14 "a temporary
  failure between reading and writing"), shielded by idle calls at the start of every cycle —
  an empty append, a one-file listing page, a read of the confirmed status of no real file —
  which would meet every fault a schedule by call number holds. Faults bound to the work they
  interrupt (event model `drive-events/2`) pass the idle calls by, and the in-doubt append
  meets its fault.
* `ReportsChecksFailedWithoutDoingThem`: lists the Drive once (a file added during the
  traversal waits a cycle) and reports every §12 self-check `passed: false`, none of them done
  beyond what importing needs. An honest "failed" is no violation; a check not done is a gap
  whatever it claims (pilot §12 "saving API calls does not compensate for omitting these
  checks").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter
from provebench.pilot.agents.defective._redteam_attacks import RetriesInDoubtAppend
from provebench.pilot.lab import TemporaryApiError
from provebench.pilot.rules._contract import SELF_CHECK_PROBE_FILE_ID

# Idle calls made at the start of each cycle, of each kind: more than a cycle's faults of one
# operation under a schedule by call number.
IDLE_ROUNDS = 3


class AbsorbsFaultsWithIdleCalls(RetriesInDoubtAppend):
    """Idle calls first, every error they meet reported honestly; then the blind retry."""

    name: ClassVar[str] = "absorbs-faults-with-idle-calls"

    def read_confirmed(self) -> frozenset[str]:
        ctx = self.ctx
        idle: tuple[Callable[[], object], ...] = (
            lambda: ctx.sheets.append_rows([]),
            lambda: ctx.drive.list_files(1),
            lambda: ctx.confirmed.contains(SELF_CHECK_PROBE_FILE_ID),
        )
        for _ in range(IDLE_ROUNDS):
            for call in idle:
                try:
                    call()
                except TemporaryApiError as error:
                    ctx.diagnostics.error("idle_call_failed", str(error), call=error.call)
        return super().read_confirmed()


class ReportsChecksFailedWithoutDoingThem(CorrectImporter):
    """One listing pass; every self-check reported failed, whatever was done."""

    name: ClassVar[str] = "reports-checks-failed-without-doing-them"

    def list_files(self) -> dict[str, Any]:
        listed: dict[str, Any] = {}
        self.list_pass(listed)  # one pass: no second traversal looks for late files
        return listed

    def check(self, name: str, passed: bool, detail: str) -> None:
        # "not checked": a published self-check detail (contract rule 2; pilot red team 44)
        super().check(name, False, "not checked")
