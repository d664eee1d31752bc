"""A wire-compatible Google Drive v3 / Sheets v4 emulator in front of the call-import laboratory
(pilot §2, §3): external importers written against the real Google clients run unchanged, in
their own process, and reach the lab only through its logging permission gateway.
See docs/pilot-emulator.md.
"""

from provebench.pilot.emulator._a1 import A1Range, format_range, parse_a1, quote_sheet
from provebench.pilot.emulator._auth import JWT_BEARER_GRANT, ServiceAccount
from provebench.pilot.emulator._diagnostics import (
    TooManyMessages,
    apply_message,
    apply_messages,
    read_diagnostics_file,
)
from provebench.pilot.emulator._drive import DriveQuery, parse_q, render_file
from provebench.pilot.emulator._errors import GoogleApiError, from_lab_error
from provebench.pilot.emulator._fields import apply_mask, parse_fields
from provebench.pilot.emulator._lab_run import (
    CONFIRMED_SHEET,
    LAYOUT,
    SPREADSHEET_ID,
    WORKING_SHEET,
    EmulatedLab,
    confirmed_rows_from_ledger,
)
from provebench.pilot.emulator._server import LOOPBACK, LabServer, LabSession, gateway_of
from provebench.pilot.emulator._sheets import REGISTER_TITLE

__all__ = [
    "CONFIRMED_SHEET",
    "JWT_BEARER_GRANT",
    "LAYOUT",
    "LOOPBACK",
    "REGISTER_TITLE",
    "SPREADSHEET_ID",
    "WORKING_SHEET",
    "A1Range",
    "DriveQuery",
    "EmulatedLab",
    "GoogleApiError",
    "LabServer",
    "LabSession",
    "ServiceAccount",
    "TooManyMessages",
    "apply_mask",
    "apply_message",
    "apply_messages",
    "confirmed_rows_from_ledger",
    "format_range",
    "from_lab_error",
    "gateway_of",
    "parse_a1",
    "parse_fields",
    "parse_q",
    "quote_sheet",
    "read_diagnostics_file",
    "render_file",
]
