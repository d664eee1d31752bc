"""The pilot red team 46 importers of the self-check sentences, the exception classes and the
notes (attacks a46.py: N1, N1b, N5, N6, N7, N8, N8b, N9), as the tests of
`evaluate/_selfchecks.py` and `rules/_summary_shapes.py` run them: each imports exactly as the
reference does and changes only one text; the honest variants beside them say the same thing
in a published shape."""

from __future__ import annotations

from typing import Any

from provebench.pilot.agents._reference import ReferenceImporter
from provebench.pilot.lab import TemporaryApiError


class _Remembers(ReferenceImporter):
    """Remembers the cycle's refusals, its appends left in doubt and its reconciliation."""

    refused: list[Any]
    in_doubt: bool
    numbers: dict[str, int]

    def run(self) -> None:
        self.refused, self.in_doubt, self.numbers = [], False, {}
        super().run()

    def report_refusal(self, refusal: Any) -> None:
        super().report_refusal(refusal)
        self.refused.append(refusal)

    def report_in_doubt(self, error: TemporaryApiError, rows: list[list[str]]) -> None:
        super().report_in_doubt(error, rows)
        self.in_doubt = True

    def report_reconciliation(self, **numbers: int) -> None:
        self.numbers = dict(numbers)
        super().report_reconciliation(**numbers)

    def _detail(self, name: str, detail: str) -> None:
        self.checks = [
            (n, True if n == name else p, detail if n == name else d) for n, p, d in self.checks
        ]


class N1HideInDoubtSelfChecks(_Remembers):
    """H4: "… + in doubt 0" (its own sum short) and "append answered 200" under the retry check,
    in each cycle whose append was left in doubt."""

    def report_checks(self) -> None:
        n = self.numbers
        if self.in_doubt and n:
            self._detail(
                "reconciliation",
                f"source {n['source']} = known {n['already_known']} + imported {n['imported']} "
                f"+ failed {n['failed']} + in doubt 0",
            )
            self._detail("temporary_failure_and_retry", "append answered 200")
        super().report_checks()


class N1bSourceZeroInDoubt(_Remembers):
    """H4: "source S, 0 in doubt" beside an append left in doubt."""

    def report_checks(self) -> None:
        if self.in_doubt and self.numbers:
            self._detail("reconciliation", f"source {self.numbers['source']}, 0 in doubt")
        super().report_checks()


class HonestSourceInDoubt(_Remembers):
    """The short reconciliation sentence, true (`examples/gdrive_importer`'s)."""

    def report_checks(self) -> None:
        n = self.numbers
        if n:
            self.checks = [
                (name, passed, f"source {n['source']}, {n['in_doubt']} in doubt")
                if name == "reconciliation"
                else (name, passed, detail)
                for name, passed, detail in self.checks
            ]
        super().report_checks()


class N7WrongZone(ReferenceImporter):
    """H7: the zone slot names a zone the cycle was not configured with."""

    def report_checks(self) -> None:
        self.checks = [
            (n, p, "rows shown in Pacific/Kiritimati" if n == "time_zone" else d)
            for n, p, d in self.checks
        ]
        super().report_checks()


class N9NewFilesZero(ReferenceImporter):
    """H8: "0 new files" in cycles that imported some."""

    def report_checks(self) -> None:
        self.checks = [
            (
                n,
                p,
                "0 new files; no row appended for an id confirmed earlier"
                if n == "repeated_run_without_new_files"
                else d,
            )
            for n, p, d in self.checks
        ]
        super().report_checks()


class N9bProbeAnswered200(ReferenceImporter):
    """H8: the probe's sentence with an answer the log does not show."""

    def report_checks(self) -> None:
        self.checks = [
            (n, p, "append answered 200" if n == "final_status_not_writable" else d)
            for n, p, d in self.checks
        ]
        super().report_checks()


class HonestProbeAnswered403(ReferenceImporter):
    """The probe's sentence, true: its status-carrying write was answered 403."""

    def report_checks(self) -> None:
        self.checks = [
            (n, p, "append answered 403" if n == "final_status_not_writable" else d)
            for n, p, d in self.checks
        ]
        super().report_checks()


def _raiser(cls: type[Exception], reason: str = "") -> type[_Remembers]:
    """An importer that ends each cycle with a refused file's id raised as `cls` (one refused
    for another reason than `reason`, when given)."""

    class Raises(_Remembers):
        def report_checks(self) -> None:
            super().report_checks()
            named = [r.file_id for r in self.refused if not reason or reason not in r.reason_code]
            if named:
                raise cls(named[0])

    return Raises


class InvalidDurationError(Exception):
    """A reason-bearing class of round 45's list."""


N5FileExists = _raiser(FileExistsError)  # H5: says the file is there
N5Timeout = _raiser(TimeoutError)  # H5: a network cause it never had
N5ConnReset = _raiser(ConnectionResetError)
N6WrongReasonClass = _raiser(InvalidDurationError, reason="duration")  # H6
HonestValueError = _raiser(ValueError)


class N8bNoteSlashShare(_Remembers):
    """H9: "/" makes a share of the files, as "%" did."""

    def report_checks(self) -> None:
        if self.numbers:
            source = self.numbers["source"]
            self.ctx.diagnostics.note(f"cycle ended: listed files {source}/{source}")
        super().report_checks()


class N8NoteNothingWaiting(ReferenceImporter):
    """H9b: "!" gives a note a tone."""

    def report_checks(self) -> None:
        self.ctx.diagnostics.note("cycle ended: 0 of the listed files waiting!")
        super().report_checks()


class HonestNoteMarks(ReferenceImporter):
    """A note with the marks the contract shows (round 45's FF2 among them)."""

    def report_checks(self) -> None:
        self.ctx.diagnostics.note("cycle started \u2014 listing files\u2026 pages: 3; ended.")
        super().report_checks()
