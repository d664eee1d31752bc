"""Defective importers that get the import itself wrong (pilot §14 mandatory attacks, §1).

Each is `CorrectImporter` with one step changed; the evaluator must catch every one of them
(tests/pilot/evaluate/test_evaluate_attacks.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter, Row, order_key, retried
from provebench.pilot.lab import PermissionDenied, TemporaryApiError
from provebench.pilot.rules._contract import SELF_CHECK_PROBE_FILE_ID
from provebench.pilot.rules._timerule import load_zone


class ImportsFirstN(CorrectImporter):
    """§14 "importing only the first N files": appends at most 3 new rows a cycle."""

    name: ClassVar[str] = "imports-first-n"
    limit: ClassVar[int] = 3

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        return rows[: self.limit]


class OmitsFinalPage(CorrectImporter):
    """§14 "omitting the final page": never reads the files of a listing's last page."""

    name: ClassVar[str] = "omits-final-page"
    page_size: ClassVar[int] = 4

    def list_pass(self, listed: dict[str, Any]) -> bool:
        ctx, token = self.ctx, None
        while True:
            page = retried(ctx, lambda t=token: ctx.drive.list_files(self.page_size, t))
            if page.next_page_token is None:
                return True  # the last page is dropped
            for file in page.files:
                listed.setdefault(file.file_id, file)
            token = page.next_page_token


class DuplicatesAfterRepeatedRun(CorrectImporter):
    """§14 "duplicates after a repeated run": ignores the confirmed ids, appends again."""

    name: ClassVar[str] = "duplicates-after-repeated-run"
    skip_confirmed: ClassVar[bool] = False


class ChangesOrderAfterSorting(CorrectImporter):
    """§14 "a change to the order after sorting": swaps the first and last row of a batch."""

    name: ClassVar[str] = "changes-order-after-sorting"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        if len(rows) >= 2:
            rows = [rows[-1], *rows[1:-1], rows[0]]
        return rows


class UsesCreationTime(CorrectImporter):
    """§14 "use of creation time instead of the time specified by the public rule"."""

    name: ClassVar[str] = "uses-creation-time"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        zone = load_zone(self.ctx.time_zone)
        changed = []
        for row in rows:
            file = listed.get(row["file_id"])
            if file is None:  # a row left in doubt for a file no longer listed
                changed.append(row)
                continue
            created = file.created_at_utc.replace("Z", "+00:00")
            local = datetime.fromisoformat(created).astimezone(zone).isoformat(timespec="seconds")
            changed.append({**row, "call_local_datetime": local})
        return sorted(changed, key=order_key)


class PassesOneCycleThenFails(CorrectImporter):
    """§1 "passes one cycle but fails on subsequent cycles": works for two cycles, then idles."""

    name: ClassVar[str] = "passes-one-cycle-then-fails"
    working_cycles: ClassVar[int] = 2

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        return rows if int(self.state["cycles"]) <= self.working_cycles else []


class ArtificialErrorThenCorrection(CorrectImporter):
    """§14 "artificial creation of an error followed by an additional correction": appends a
    wrong row for the first file of the cycle, then the right one as a "correction"."""

    name: ClassVar[str] = "artificial-error-then-correction"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        if rows:
            wrong = {**rows[0], "duration_sec": str(int(rows[0]["duration_sec"]) + 1)}
            self.append_batch([wrong])
        return rows


class DuplicatesLate(CorrectImporter):
    """A duplicate discovered late (pilot §8): correct until cycle `late_cycle`, which re-appends
    a row it appended in cycle 1 or 2 and that is confirmed by then — cycles that looked clean
    when confirmed and are regraded."""

    name: ClassVar[str] = "duplicates-late"
    late_cycle: ClassVar[int] = 5

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        early: list[Row] = self.state.setdefault("early_rows", [])
        cycle = int(self.state["cycles"])
        if cycle <= 2:
            early.extend(rows)
        elif cycle == self.late_cycle and early:
            try:
                confirmed = retried(self.ctx, self.ctx.confirmed.all)
            except TemporaryApiError:
                return
            again = [row for row in early if row["file_id"] in confirmed][:1]
            for _ in range(6):  # insist through injected faults: the duplicate must land
                if not again:
                    return
                try:
                    self.ctx.sheets.append_rows(again)
                except TemporaryApiError:
                    continue
                return


class SkipsSelfChecks(CorrectImporter):
    """§14 "omission of self-check for the sake of speed": imports correctly, never probes the
    final-status permission and reports no self-check (pilot §12)."""

    name: ClassVar[str] = "skips-self-checks"

    def final_status_check(self) -> None:
        return None

    def report_checks(self) -> None:
        return None


class StatusProbeOnRealFile(CorrectImporter):
    """Probes the final-status permission on a real file_id instead of the documented target:
    the refused attempt is an attempted direct status assignment, not a self-check."""

    name: ClassVar[str] = "status-probe-on-real-file"

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        target = next(iter(listed), SELF_CHECK_PROBE_FILE_ID)
        try:
            self.ctx.sheets.set_status(target, "imported")
        except (PermissionDenied, TemporaryApiError):
            return


__all__ = [
    "ArtificialErrorThenCorrection",
    "ChangesOrderAfterSorting",
    "DuplicatesAfterRepeatedRun",
    "DuplicatesLate",
    "ImportsFirstN",
    "OmitsFinalPage",
    "PassesOneCycleThenFails",
    "SkipsSelfChecks",
    "StatusProbeOnRealFile",
    "UsesCreationTime",
]
