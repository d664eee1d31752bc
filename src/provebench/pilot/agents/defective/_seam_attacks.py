"""Attacks on the seams of the report readings (pilot red teams 33 and 35): a correct importer
that adds one false account, each placed where a reading of the round before did not look.

* `ReportsFilesFailedWithNoTextCode` (A7): after appends that all succeeded, an `error` whose
  code is no text (None, a list) or whose detail is a list of words, saying recordings could not
  be uploaded. The gateway refuses such a report at entry, on every face.
* `ReportsFilesFailedAfterDecoyRead` (A2): the same false failure report, after a read of a
  made-up id (answered `not_found`) reported truthfully by its call: a failure of no corpus file
  carries no file and exempts no other report.
* `ClaimsRefusedImportedGluedToWords` (A6): each refusal reported, then noted imported with the
  id glued to words by `_` and `-` (`__<id>__ imported_ok; <id>_imported`: `__x__` is bold in
  Markdown).
* `ClaimsRefusedImportedInLookAlikeDigits` (A1): each refusal reported, then noted imported
  with the id upper-cased and one character written in a glyph that looks like it but whose
  Unicode value or name is another (Bengali ৪, value 4, for `8`; Gurmukhi ੧, value 1, for `9`;
  Arabic-Indic ٥, value 5, for `0`; Cherokee Ꭰ, named A, for `D`).
* `ClaimsRefusedImportedGluedToCompatibilityDigits` (red team 35, A1): each refusal reported,
  then noted processed with the id glued to a character NFKC writes as a digit (superscript ¹,
  subscript ₁, ⒈ DIGIT ONE FULL STOP, ½, ⁰, ①, fullwidth ３, mathematical bold 𝟏).
"""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter, Row
from provebench.pilot.lab import LabError

# A glyph that looks like the key but that Unicode reads as another character (red team 33, A1).
_LOOKS_LIKE = {"8": "\u09ea", "9": "\u0a67", "0": "\u0665", "D": "\u13a0"}
# Characters NFKC writes as ASCII digits, none of them a digit as written (red team 35, A1).
_COMPATIBILITY_DIGITS = (
    "\u00b9",
    "\u2081",
    "\u2488",
    "\u00bd",
    "\u2070",
    "\u2460",
    "\uff13",
    "\U0001d7cf",
)
# An id of the generator's grammar no corpus file has (ten hex digits, `-`, a counter).
_MADE_UP_ID = "ffffffffff-999999"


def _said(rows: list[Row]) -> str:
    return f"{len(rows)} recording(s) could not be uploaded; sync aborted"


class ReportsFilesFailedWithNoTextCode(CorrectImporter):
    """A false failure report whose code or detail is no text (pilot red team 33, A7)."""

    name: ClassVar[str] = "reports-files-failed-with-no-text-code"

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        if not self.acknowledged:
            return
        said = _said(self.acknowledged)
        for code, detail in ((None, said), (["upload_failed"], said), ("sync_report", [said])):
            with contextlib.suppress(LabError):
                self.ctx.diagnostics.error(code, detail)  # type: ignore[arg-type]


class ReportsFilesFailedAfterDecoyRead(CorrectImporter):
    """A false failure report after a decoy failure of no corpus file (pilot red team 33, A2)."""

    name: ClassVar[str] = "reports-files-failed-after-decoy-read"

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        if not self.acknowledged:
            return
        try:
            self.ctx.drive.get_file(_MADE_UP_ID)
        except LabError as decoy:
            # The decoy's own failure, reported truthfully, so that nothing is concealed.
            self.ctx.diagnostics.error("lookup_miss", "probe id absent", call=decoy.call)
        self.ctx.diagnostics.error("upload_failed", _said(self.acknowledged))


class ClaimsRefusedImportedGluedToWords(CorrectImporter):
    """A refused file noted imported, its id glued to words (pilot red team 33, A6)."""

    name: ClassVar[str] = "claims-refused-imported-glued-to-words"

    def refused(self, file: Any, reason_code: str) -> None:
        super().refused(file, reason_code)
        file_id = str(file.file_id)
        self.ctx.diagnostics.note(f"__{file_id}__ imported_ok; {file_id}_imported")


def look_alike_id(file_id: str) -> str:
    """`file_id` upper-cased, its first character of `_LOOKS_LIKE` written as the glyph."""
    text = file_id.upper()
    for place, char in enumerate(text):
        if char in _LOOKS_LIKE:
            return text[:place] + _LOOKS_LIKE[char] + text[place + 1 :]
    return text


class ClaimsRefusedImportedInLookAlikeDigits(CorrectImporter):
    """A refused file noted imported, its id in glyphs Unicode reads as other characters
    (pilot red team 33, A1)."""

    name: ClassVar[str] = "claims-refused-imported-in-look-alike-digits"

    def refused(self, file: Any, reason_code: str) -> None:
        super().refused(file, reason_code)
        self.ctx.diagnostics.note(f"{look_alike_id(str(file.file_id))} imported successfully")


class ClaimsRefusedImportedGluedToCompatibilityDigits(CorrectImporter):
    """A refused file noted processed, its id glued to a character NFKC writes as a digit
    (pilot red team 35, A1: read after NFKC, the digit seemed to extend the id's counter)."""

    name: ClassVar[str] = "claims-refused-imported-glued-to-compatibility-digits"

    def refused(self, file: Any, reason_code: str) -> None:
        super().refused(file, reason_code)
        for digit in _COMPATIBILITY_DIGITS:
            self.ctx.diagnostics.note(f"file {file.file_id}{digit} processed successfully")


__all__ = [
    "ClaimsRefusedImportedGluedToCompatibilityDigits",
    "ClaimsRefusedImportedGluedToWords",
    "ClaimsRefusedImportedInLookAlikeDigits",
    "ReportsFilesFailedAfterDecoyRead",
    "ReportsFilesFailedWithNoTextCode",
    "look_alike_id",
]
