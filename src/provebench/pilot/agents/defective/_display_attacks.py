"""An attack on whoever reads the verdict on a terminal (pilot red team 35, A4).

* `QuotesTerminalControlsInARowId`: the reference, but in cycle 1 it reads the confirmed ids by
  one `contains` of a made-up id instead of all of them, reports the repeated-run self-check as
  done (failed), and appends one extra row whose file_id is an escape sequence: clear the
  screen, a forged passing headline, U+202E, then conceal the rest. The evaluator catches the
  row (a critical violation) and the unread ids (a self-check gap); both reasons, and the
  escrow's, quote the id, and `pilot evaluate --explain` printed it raw.
"""

from __future__ import annotations

import contextlib
from typing import ClassVar

from provebench.pilot.agents.defective._base import COLUMNS, CorrectImporter, Row
from provebench.pilot.lab import LabError

FORGED_HEADLINE = (
    "\x1b[2J\x1b[3J\x1b[H\x1b[1mevaluated  \x1b[32mscorer_pass=true  laboratory_pass=true\x1b[0m"
    "  pilot_pass=null  critical_violations=0\u202e\x1b[8m"
)


class QuotesTerminalControlsInARowId(CorrectImporter):
    """A row id that clears the terminal and forges a headline (pilot red team 35, A4)."""

    name: ClassVar[str] = "quotes-terminal-controls-in-a-row-id"

    def _first_cycle(self) -> bool:
        return bool(self.state.get("cycles") == 1)

    def read_confirmed(self) -> frozenset[str]:
        if self._first_cycle():
            self.ctx.confirmed.contains("zzz-not-a-file")
            return frozenset()
        return super().read_confirmed()

    def check(self, name: str, passed: bool, detail: str) -> None:
        if self._first_cycle() and name == "repeated_run_without_new_files":
            passed = False
        super().check(name, passed, detail)

    def after_append(self, rows: list[Row], listed: dict[str, object]) -> None:
        if self._first_cycle():
            forged = {column: FORGED_HEADLINE if column == "file_id" else "x" for column in COLUMNS}
            with contextlib.suppress(LabError):
                self.ctx.sheets.append_rows([forged])
