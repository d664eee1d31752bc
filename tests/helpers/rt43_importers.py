"""The pilot red team 43 importers (attacks/rt43p.py), as the tests of the refusal shape run
them: each imports exactly as the reference does and changes only one report."""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents._reference import ReferenceImporter
from provebench.pilot.agents.defective._base import CorrectImporter
from provebench.pilot.lab import TemporaryApiError
from tests.helpers.closed_vocabulary_importers import _Pathed, _Retried, _Worded


class A2Http200Created(_Worded):
    detail = "{detail}; sheets append values {id}: http 201 created; http 200"


class A9WorkPathAllowedWords(_Pathed):
    path = "sheets/append/values/not/refused/{id}.json"


class _Refused(CorrectImporter):
    def said(self, file: Any, reason_code: str, detail: str) -> str:
        return detail

    def refused(self, file: Any, reason_code: str) -> None:
        refusal = self.refusals[file.file_id]
        detail = self.said(file, refusal.reason_code, refusal.detail)
        self.ctx.diagnostics.failed_file(refusal.file_id, refusal.reason_code, detail)
        self.journal.failed[refusal.file_id] = refusal.reason_code


class F1HonestMimeValueSeen(_Refused):
    """Rule 2's value seen: the served mime type, verbatim."""

    def said(self, file: Any, reason_code: str, detail: str) -> str:
        if reason_code != "unsupported_mime_type":
            return detail
        return (
            f"mime type {file.mime_type} is not one of audio/mpeg, audio/wav, audio/ogg, audio/mp4"
        )


class F2HonestContractWords(_Refused):
    """Rule 2's own descriptions of the reason codes."""

    def said(self, file: Any, reason_code: str, detail: str) -> str:
        if reason_code == "corrupted_unreadable_duration":
            return "duration_sec missing"
        if reason_code == "name_forbidden_character":
            return "a control character " + detail
        if reason_code == "name_not_conforming":
            return "the name has not the grammar's shape"
        return detail


class A7InDoubtAsConfirmed(ReferenceImporter):
    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        self.ctx.diagnostics.error(
            "transient_error",
            "HTTP 500 on sheets values append; then the rows were confirmed",
            call=error.call,
        )


class A12SettledMisstated(_Retried):
    """A retried listing failure reported as another call's failure whose rows landed."""

    code: ClassVar[str] = "transient_error"
    detail: ClassVar[str] = (
        "HTTP 500 timeout on sheets values append of 40 rows; the 40 rows were unavailable; "
        "retried; the rows landed"
    )


class A12cSettledTrue(_Retried):
    """Control for A12: the same report, true of the listing failure."""
