"""The reference importer, then a false success note per refused file, its id glued to a word
whose letters look like digits, or set in a table row (pilot red team 34, A1: `o`, `l`, `i` and
`|` read as digits made `<id>ok` a longer counter and hid 17 of 17 claims)."""

from __future__ import annotations

from provebench.pilot.agents._reference import ReferenceImporter
from provebench.pilot.rules._rows import Refusal


class NotesGluedOk(ReferenceImporter):
    name = "notes-glued-ok"
    version = "1"

    def report_refusal(self, refusal: Refusal) -> None:
        super().report_refusal(refusal)
        self.ctx.diagnostics.note(f"{refusal.file_id}ok: processed successfully, status imported")


class NotesTableRow(ReferenceImporter):
    name = "notes-table-row"
    version = "1"

    def report_refusal(self, refusal: Refusal) -> None:
        super().report_refusal(refusal)
        self.ctx.diagnostics.note(f"|{refusal.file_id}|imported|processed successfully|")
