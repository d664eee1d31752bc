"""Running the laboratory behind the emulator: one server per run, one open cycle at a time.

`EmulatedLab` owns the server, the run's fake service account (written outside the run
directory) and the confirmed register the Sheets emulator shows; `open_cycle`/`close_cycle` wrap
each cycle of the runner. The confirmed rows are rebuilt from the run's ledger when the lab
starts (so a resumed run shows what the ledger committed) and extended with each cycle's working
rows after the cycle (the runner confirms exactly those rows, in that order).
"""

from __future__ import annotations

from pathlib import Path

from provebench.ledger import Ledger
from provebench.pilot.emulator._auth import ServiceAccount
from provebench.pilot.emulator._server import LabServer, LabSession, gateway_of
from provebench.pilot.emulator._sheets import SheetLayout
from provebench.pilot.lab import CycleContext
from provebench.pilot.rules._rows import IMPORTED_STATUS, REGISTER_COLUMNS
from provebench.sandbox._private import private_folder, remove_private_folder

# A fixed id, so that nothing an importer sees or the log records depends on the run.
SPREADSHEET_ID = "1provebenchLabCallRegister0000000000000000"
WORKING_SHEET = "Working sheet"
CONFIRMED_SHEET = "Confirmed"
STATUS_COLUMN = "status"
LAYOUT = SheetLayout(
    spreadsheet_id=SPREADSHEET_ID,
    working_sheet=WORKING_SHEET,
    confirmed_sheet=CONFIRMED_SHEET,
    importer_columns=tuple(c for c in REGISTER_COLUMNS if c != STATUS_COLUMN),
    register_columns=REGISTER_COLUMNS,
    status_column=STATUS_COLUMN,
)
SERVICE_ACCOUNT_FILE = "service_account.json"


def with_status(row: tuple[str, ...] | list[str]) -> list[str]:
    index = REGISTER_COLUMNS.index(STATUS_COLUMN)
    return [*row[:index], IMPORTED_STATUS, *row[index:]]


def confirmed_rows_from_ledger(path: Path) -> list[list[str]]:
    """The confirmed register as the committed cycles left it (applied appends, in order)."""
    if not path.is_file():
        return []
    rows: list[list[str]] = []
    pending: list[list[str]] = []
    ledger = Ledger.open_readonly(path)
    try:
        for entry in ledger.entries():
            if entry.kind == "sheets.append" and entry.payload.get("applied"):
                pending.extend(with_status(list(row)) for row in entry.payload["rows"])
            elif entry.kind == "cycle_confirmed":
                rows.extend(pending)
                pending = []
    finally:
        ledger.close()
    return rows


class EmulatedLab:
    """The emulator for one run: server + service account + confirmed register."""

    def __init__(
        self,
        *,
        serve_mode: bool = False,
        port: int = 0,
        host: str = "127.0.0.1",
        page_token_key: bytes | None = None,
    ):
        self.session = LabSession(LAYOUT, serve_mode=serve_mode, page_token_key=page_token_key)
        self.server = LabServer(self.session, host=host, port=port)
        self.private_dir = private_folder("lab")
        self.account = ServiceAccount(self.token_uri)
        self.session.account = self.account
        self.credentials_path = self.private_dir / SERVICE_ACCOUNT_FILE
        self.account.write(self.credentials_path)
        self.confirmed_rows: list[list[str]] | None = None
        self.ledger_path: Path | None = None

    @property
    def token_uri(self) -> str:
        return f"{self.server.base_url}/token"

    @property
    def drive_endpoint(self) -> str:
        return f"{self.server.base_url}/drive/v3/"

    @property
    def sheets_endpoint(self) -> str:
        return f"{self.server.base_url}/"

    def client_environment(self) -> dict[str, str]:
        """The documented variables an importer reads (docs/pilot-emulator.md)."""
        return {
            "GOOGLE_APPLICATION_CREDENTIALS": str(self.credentials_path),
            "PROVEBENCH_DRIVE_ENDPOINT": self.drive_endpoint,
            "PROVEBENCH_SHEETS_ENDPOINT": self.sheets_endpoint,
            "PROVEBENCH_TOKEN_URI": self.token_uri,
            "PROVEBENCH_LAB_ENDPOINT": f"{self.server.base_url}/provebench/v1/",
            "PROVEBENCH_SPREADSHEET_ID": LAYOUT.spreadsheet_id,
            "PROVEBENCH_WORKING_SHEET": LAYOUT.working_sheet,
            "PROVEBENCH_CONFIRMED_SHEET": LAYOUT.confirmed_sheet,
            "PROVEBENCH_COLUMNS": ",".join(LAYOUT.importer_columns),
        }

    def start(self) -> None:
        self.server.start()

    def stop(self) -> None:
        self.server.stop()
        remove_private_folder(self.private_dir)

    def __enter__(self) -> EmulatedLab:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def open_cycle(self, ctx: CycleContext) -> None:
        if self.confirmed_rows is None:
            self.confirmed_rows = (
                [] if self.ledger_path is None else confirmed_rows_from_ledger(self.ledger_path)
            )
        self.session.open_cycle(ctx, self.confirmed_rows)

    def close_cycle(self, ctx: CycleContext) -> None:
        """Close the cycle; the working rows become confirmed rows (as the runner confirms)."""
        self.session.close_cycle()
        assert self.confirmed_rows is not None
        self.confirmed_rows.extend(with_status(row) for row in gateway_of(ctx).working_rows)


__all__ = [
    "CONFIRMED_SHEET",
    "LAYOUT",
    "SPREADSHEET_ID",
    "WORKING_SHEET",
    "EmulatedLab",
    "confirmed_rows_from_ledger",
]
