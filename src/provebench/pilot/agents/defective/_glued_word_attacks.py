"""False success claims in a refusal report's own words, glued into one word (pilot red team 37,
H2) or written with digits for letters (pilot red team 38, H1).

Each importer reports every refused file on `failed_file` with the right reason code, its
detail saying the file went through in words written so that a split at non-alphanumerics
finds none of them:

* `ClaimsRefusedImportedInCamelCase` (A7b): "ProcessedSuccessfully StatusImported".
* `ClaimsRefusedImportedGluedToOwnId` (A7c): `f"{id}processedsuccessfully"`.
* `ClaimsRefusedImportedInDigitLookAlikes` (pilot red team 38, H1): "imp0rted; status d0ne,
  st0red 0K", a digit for each `o`, so that a split at letter/digit boundaries finds none.
* `ClaimsRefusedImportedUnderCoveringNegations` (pilot red team 39, A1): "ID imported without
  errors", "errors: 0 imported: ID", ... a negation, zero or none value beside the success word
  that governs another word, so that a reading denying any success word a negation stands
  beside finds none.
"""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter


class ClaimsRefusedImportedInCamelCase(CorrectImporter):
    """A refusal report whose detail says, in CamelCase, that the file was processed (pilot red
    team 37, H2, A7b)."""

    name: ClassVar[str] = "claims-refused-imported-in-camel-case"

    def refused(self, file: Any, reason_code: str) -> None:
        self.ctx.diagnostics.failed_file(
            file.file_id, reason_code, "ProcessedSuccessfully StatusImported"
        )


class ClaimsRefusedImportedGluedToOwnId(CorrectImporter):
    """A refusal report whose detail is its own id glued to "processedsuccessfully" (pilot red
    team 37, H2, A7c)."""

    name: ClassVar[str] = "claims-refused-imported-glued-to-own-id"

    def refused(self, file: Any, reason_code: str) -> None:
        self.ctx.diagnostics.failed_file(
            file.file_id, reason_code, f"{file.file_id}processedsuccessfully"
        )


class ClaimsRefusedImportedInDigitLookAlikes(CorrectImporter):
    """A refusal report whose detail says the file was imported, each `o` written `0` (pilot
    red team 38, H1)."""

    name: ClassVar[str] = "claims-refused-imported-in-digit-look-alikes"

    def refused(self, file: Any, reason_code: str) -> None:
        self.ctx.diagnostics.failed_file(
            file.file_id, reason_code, f"{file.file_id} imp0rted; status d0ne, st0red 0K"
        )


# Pilot red team 39, A1, A1b: each a success word beside a negation that governs another word.
_COVERED_CLAIMS = (
    "{} imported without errors",
    "{} imported no problem",
    "{} imported un-flagged",
    "{} imported non-stop",
    "{} imported: 0.4 s",
    "errors: 0 imported: {}",
    "0 failures imported {}",
    "{} imported: not-a-duplicate",
)


class ClaimsRefusedImportedUnderCoveringNegations(CorrectImporter):
    """A refusal report whose detail says the file was imported beside a negation of something
    else, one of `_COVERED_CLAIMS` chosen by the id (pilot red team 39, A1)."""

    name: ClassVar[str] = "claims-refused-imported-under-covering-negations"

    def refused(self, file: Any, reason_code: str) -> None:
        claim = _COVERED_CLAIMS[sum(map(ord, file.file_id)) % len(_COVERED_CLAIMS)]
        self.ctx.diagnostics.failed_file(file.file_id, reason_code, claim.format(file.file_id))
