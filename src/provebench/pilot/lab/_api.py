"""What an importer is handed each cycle: narrow facades over the gateway (pilot §3).

Each facade holds only the gateway; its public methods are the whole contract. The operations the
contract withholds are present as methods so that an attempt is answered — and recorded — rather
than failing as a missing attribute: `PermissionDenied`, and a `refused` entry in the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from provebench.pilot.lab._gateway import FilePage, Gateway


class DriveApi:
    """Read-only Drive: paginated listing and metadata lookup."""

    __slots__ = ("_gateway",)

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway

    def list_files(self, page_size: int = 100, page_token: str | None = None) -> FilePage:
        """One page of present files in ascending `file_id` order. Pass `next_page_token` back
        for the next page; a token stays valid when files are added meanwhile (one added below
        it is not seen by this traversal, one added above it is)."""
        return self._gateway.list_files(page_size, page_token)

    def get_file(self, file_id: str) -> Any:
        """The current metadata of one file, or `FileNotFound`."""
        return self._gateway.get_file(file_id)

    def delete_file(self, file_id: str) -> None:
        self._gateway.refuse("drive.delete_file", {"file_id": file_id})

    def rename_file(self, file_id: str, name: str) -> None:
        self._gateway.refuse("drive.rename_file", {"file_id": file_id, "name": name})

    def move_file(self, file_id: str, folder_id: str) -> None:
        self._gateway.refuse("drive.move_file", {"file_id": file_id, "folder_id": folder_id})

    def upload(self, name: str, content: object = None, **metadata: object) -> None:
        self._gateway.refuse("drive.upload", {"name": name, "metadata": dict(metadata)})


class SheetsApi:
    """Write-only working sheet: rows are appended; the lab confirms them at cycle end."""

    __slots__ = ("_gateway",)

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway

    def append_rows(self, rows: Sequence[Mapping[str, str]]) -> int:
        """Append rows (every importer column, str values, no status); returns how many."""
        return self._gateway.append_rows(rows)

    def delete_row(self, file_id: str) -> None:
        self._gateway.refuse("sheets.delete_row", {"file_id": file_id})

    def update_row(self, file_id: str, values: Mapping[str, str]) -> None:
        self._gateway.refuse("sheets.update_row", {"file_id": file_id, "values": values})

    def set_status(self, file_id: str, status: str) -> None:
        self._gateway.refuse("sheets.set_status", {"file_id": file_id, "status": status})


class ConfirmedIds:
    """Read-only view of the file_ids the lab has already confirmed in the register."""

    __slots__ = ("_gateway",)

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway

    def contains(self, file_id: str) -> bool:
        return self._gateway.is_confirmed(file_id)

    def all(self) -> frozenset[str]:
        return self._gateway.confirmed_ids()

    def remove(self, file_id: str) -> None:
        self._gateway.refuse("confirmed.remove", {"file_id": file_id})


class Diagnostics:
    """The importer's own account: errors, failed files, reconciliation, self-checks.

    What is said here is recorded and published but never scored as fact (pilot §9: the agent's
    textual report is not the verified actual value)."""

    __slots__ = ("_gateway",)

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway

    def error(
        self,
        code: str,
        detail: str = "",
        *,
        call: int | None = None,
        file_ids: Sequence[str] = (),
    ) -> None:
        """Report a problem. To account for a failed call, name it (agent contract, rule 8):
        `call`, the number in the error (`LabError.call`; logged as `failed_call`), or the
        `file_ids` of an append's rows. A report that names neither accounts for no failure."""
        fields: dict[str, object] = {"code": code, "detail": detail}
        if call is not None:
            # Not "call": every entry's own `call` is the gateway's number of the report itself.
            fields["failed_call"] = call
        if file_ids:
            fields["file_ids"] = list(file_ids)
        self._gateway.diagnose("error", fields)

    def failed_file(self, file_id: str, reason_code: str, detail: str = "") -> None:
        fields = {"file_id": file_id, "reason_code": reason_code, "detail": detail}
        self._gateway.diagnose("failed_file", fields)

    def reconciliation(
        self, *, source: int, imported: int, failed: int, already_known: int, **extra: int
    ) -> None:
        numbers = {
            "source": source,
            "imported": imported,
            "failed": failed,
            "already_known": already_known,
        }
        self._gateway.diagnose("reconciliation", {**numbers, "extra": extra})

    def self_check(self, name: str, passed: bool, detail: str = "") -> None:
        self._gateway.diagnose("self_check", {"name": name, "passed": passed, "detail": detail})

    def note(self, message: str) -> None:
        self._gateway.diagnose("note", {"message": message})


class LabClock:
    """Virtual seconds since the cycle started. `sleep` advances it at once (and is logged)."""

    __slots__ = ("_gateway",)

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway

    def now(self) -> float:
        return self._gateway.clock_sec

    def sleep(self, seconds: float) -> None:
        self._gateway.sleep(seconds)


class CycleContext:
    """Everything an importer receives for one cycle — and nothing else (pilot §3)."""

    __slots__ = (
        "_work_guard",
        "clock",
        "confirmed",
        "diagnostics",
        "drive",
        "run_version",
        "sheets",
        "time_zone",
        "work_dir",
    )

    def __init__(self, gateway: Gateway, *, time_zone: str, run_version: str, work_dir: Path):
        self.drive = DriveApi(gateway)
        self.sheets = SheetsApi(gateway)
        self.confirmed = ConfirmedIds(gateway)
        self.diagnostics = Diagnostics(gateway)
        self.clock = LabClock(gateway)
        self.time_zone = time_zone
        self.run_version = run_version
        self.work_dir = work_dir
        # The laboratory's check of work/ (`_work_guard.WorkGuard`), set by `run_cycle`: a
        # sealed cycle's folder checks its copy with it and carries its listing back. Not part
        # of the importer's contract (`_work_guard.work_guard_of`).
        self._work_guard: Any = None


def record_model_transcript(ctx: CycleContext, transcript: str) -> None:
    """Record provebench's own model loop's turns of this cycle as the laboratory's record
    (`Gateway.record_model_transcript`), outside the diagnostics channel. Not part of the
    importer's contract: no facade offers it, and a sandboxed importer's calls reach only the
    facades (`agents._sandboxed`)."""
    ctx.diagnostics._gateway.record_model_transcript(transcript)


__all__ = [
    "ConfirmedIds",
    "CycleContext",
    "Diagnostics",
    "DriveApi",
    "LabClock",
    "SheetsApi",
    "record_model_transcript",
]
