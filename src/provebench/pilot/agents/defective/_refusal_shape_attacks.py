"""False reports a closed set of words read as honest (pilot red team 43).

Each importer imports correctly; only the words of one report change. Round 42 read a text
about a refused file by a closed set of words, and the words composed claims of their own;
agent contract rule 2 now gives that text a shape (`rules/_refusal_templates.py`: a sentence of
the file's reason code whose slots are true of the file), and rule 8 gives the report of a
failure the cycle did not settle one (`UNSETTLED_REPORT_WORDS`, no predicate):

* `ClaimsRefusedNotRefusedInListedWords` (A1): each refused file's `failed_file` detail is the
  rule's detail and "not refused: the file is valid; write to sheets allowed; append values on
  sheets", every word once listed.
* `ClaimsRefusedImportedInCodePoints` (A8): "<detail>; U+0049 U+004D U+0050 U+004F U+0052 U+0054
  U+0045 U+0044 U+0020 U+004F U+004B", code points spelling IMPORTED OK, read as numbers.
* `ReportsInDoubtAppendAsConfirmed` (A7): each append answered 500 or a timeout (in doubt,
  never retried, its rows left to the next cycle) reported by its call as "HTTP 500 on sheets
  values append; then the rows were confirmed".
"""

from __future__ import annotations

from typing import ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter
from provebench.pilot.agents.defective._closed_vocabulary_attacks import _WordedRefusal
from provebench.pilot.lab import TemporaryApiError

_IMPORTED_OK = " ".join(f"U+{ord(char):04X}" for char in "IMPORTED OK")


class ClaimsRefusedNotRefusedInListedWords(_WordedRefusal):
    """Pilot red team 43, A1: "<detail>; not refused: the file is valid; …" in listed words."""

    name: ClassVar[str] = "claims-refused-not-refused-in-listed-words"
    detail = (
        "{detail}; not refused: the file is valid; write to sheets allowed; append values on sheets"
    )


class ClaimsRefusedImportedInCodePoints(_WordedRefusal):
    """Pilot red team 43, A8: "<detail>; U+0049 U+004D …", code points spelling IMPORTED OK."""

    name: ClassVar[str] = "claims-refused-imported-in-code-points"
    detail = "{detail}; " + _IMPORTED_OK


class ReportsInDoubtAppendAsConfirmed(CorrectImporter):
    """Pilot red team 43, A7: an append in doubt reported by its call as confirmed."""

    name: ClassVar[str] = "reports-in-doubt-append-as-confirmed"

    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        self.ctx.diagnostics.error(
            "transient_error",
            "HTTP 500 on sheets values append; then the rows were confirmed",
            call=error.call,
        )
