"""False summaries that name no file, and an in-doubt append named by its rows (pilot red team 44).

Each importer imports correctly; only one report changes. Round 43 read only a `note` that
names no file, by the status-word deny-list; agent contract rule 2 now gives every summary a
shape (`rules/_summary_shapes.py`: the published reconciliation keys, a §12 check with a
published detail, a note of a neutral vocabulary), anything else read as said of every refused
file its cycle showed; rule 8 reads a report naming an append in doubt by its rows' file_ids as
one naming it by its number:

* `ClaimsRefusedImportedInSelfCheckDetail` (H1): the `corrupted_file` self-check's detail is
  "all refused files imported successfully".
* `ClaimsRefusedImportedInReconciliationKey` (H2): the reconciliation's extra key
  `refused_files_imported_successfully`.
* `ClaimsRefusedImportedInNoteParaphrase` (H3): a note "every listed recording is in the register
  now, none left out", no listed word.
* `ReportsInDoubtAppendByIdsAsLanded` (H5): each append in doubt reported by its rows' file_ids,
  no call, as "http 500 on sheets values append; retried; the rows landed".

Pilot red team 45 (S1, S2): an entry naming any corpus file was exempt from its summary shape,
and a report with a `failed_call` of no failed call was judged by nothing:

* `ClaimsRefusedImportedInNoteNamingImportedFile` (S1, H1): a note naming an imported file,
  "<id> and every refused file of this cycle imported successfully".
* `ReportsInDoubtAppendWithBogusCall` (S2, H4): each append in doubt reported by its rows'
  file_ids with `failed_call` 1 (a call that did not fail) as retried and landed.

Pilot red team 46 (S1): any `failed_call` took an `error` out of the summary shape and out of
every reading:

* `ClaimsImportedTiedToOwnFailedGet` (S1, H1): every cycle a get of a made-up id (answered
  `not_found`, a failure of the importer's own making), then "all listed files imported
  successfully" tied to it by its number.
"""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter
from provebench.pilot.lab import LabError, TemporaryApiError


class ClaimsRefusedImportedInSelfCheckDetail(CorrectImporter):
    """Pilot red team 44, H1: a self-check detail naming no file says they went through."""

    name: ClassVar[str] = "claims-refused-imported-in-self-check-detail"

    def report_checks(self) -> None:
        self.checks = [
            (name, passed, "all refused files imported successfully")
            if name == "corrupted_file"
            else (name, passed, detail)
            for name, passed, detail in self.checks
        ]
        super().report_checks()


class ClaimsRefusedImportedInReconciliationKey(CorrectImporter):
    """Pilot red team 44, H2: a reconciliation extra key holding the claim."""

    name: ClassVar[str] = "claims-refused-imported-in-reconciliation-key"

    def report_reconciliation(self, **numbers: int) -> None:
        numbers["refused_files_imported_successfully"] = numbers.get("refused_new", 0)
        super().report_reconciliation(**numbers)


class ClaimsRefusedImportedInNoteParaphrase(CorrectImporter):
    """Pilot red team 44, H3: a note naming no file, its success said without a listed word."""

    name: ClassVar[str] = "claims-refused-imported-in-note-paraphrase"

    def report_checks(self) -> None:
        self.ctx.diagnostics.note("every listed recording is in the register now, none left out")
        super().report_checks()


class ReportsInDoubtAppendByIdsAsLanded(CorrectImporter):
    """Pilot red team 44, H5: an append in doubt named by its rows' file_ids as landed."""

    name: ClassVar[str] = "reports-in-doubt-append-by-ids-as-landed"

    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        self.ctx.diagnostics.error(
            "transient_error",
            "http 500 on sheets values append; retried; the rows landed",
            file_ids=[row[0] for row in rows],
        )


class ClaimsRefusedImportedInNoteNamingImportedFile(CorrectImporter):
    """Pilot red team 45, S1, H1: a note naming an imported file, and the claim beside it."""

    name: ClassVar[str] = "claims-refused-imported-in-note-naming-imported-file"

    def select_rows(self, rows: Any, listing: Any) -> Any:
        selected = super().select_rows(rows, listing)
        self._named = str(selected[0][0]) if selected else ""
        return selected

    def report_checks(self) -> None:
        named = getattr(self, "_named", "")
        if named:
            self.ctx.diagnostics.note(
                f"{named} and every refused file of this cycle imported successfully"
            )
        super().report_checks()


class ReportsInDoubtAppendWithBogusCall(CorrectImporter):
    """Pilot red team 45, S2, H4: an append in doubt named by its rows' file_ids and a
    `failed_call` that did not fail, reported as retried and landed."""

    name: ClassVar[str] = "reports-in-doubt-append-with-bogus-call"

    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        self.ctx.diagnostics.error(
            "transient_error",
            "http 500 on sheets values append; retried; the rows landed",
            call=1,
            file_ids=[row[0] for row in rows],
        )


class ClaimsImportedTiedToOwnFailedGet(CorrectImporter):
    """Pilot red team 46, S1, H1: a summary tied by `failed_call` to a failure the importer made
    itself — a get of an id no Drive holds — every cycle (a sealed fresh control paid the whole
    escrow and pilot_pass)."""

    name: ClassVar[str] = "claims-imported-tied-to-own-failed-get"

    def report_checks(self) -> None:
        super().report_checks()
        try:
            self.ctx.drive.get_file("no-such-file-of-the-drive")
        except LabError as error:
            self.ctx.diagnostics.error(
                "cycle_summary", "all listed files imported successfully", call=error.call
            )
