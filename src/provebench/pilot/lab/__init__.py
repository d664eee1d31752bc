"""The call-import laboratory (pilot §2 laboratory level): a synthetic Drive and Sheets behind a
permission gateway that records every call before it answers, with the corpus's faults injected.

Importers see only `CycleContext` and its facades; the rest is the runner's.

Names are imported on first use (PEP 562): a sandboxed importer's worker
(`agents/_worker.py`) needs the error classes and the file tuples, not the gateway's machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.pilot.lab._api import (
        ConfirmedIds,
        CycleContext,
        Diagnostics,
        DriveApi,
        LabClock,
        SheetsApi,
    )
    from provebench.pilot.lab._drive_state import DriveState
    from provebench.pilot.lab._errors import (
        ApiTimeout,
        FileNotFound,
        InvalidArgument,
        LabError,
        PermissionDenied,
        RateLimited,
        ServerError,
        ServiceUnavailable,
        TemporaryApiError,
    )
    from provebench.pilot.lab._faults import Fault, FaultPlan
    from provebench.pilot.lab._files import FilePage, LabFile, LabMetadata, lab_file
    from provebench.pilot.lab._gateway import MAX_PAGE_SIZE, Gateway, SheetSchema
    from provebench.pilot.lab._record import CycleRecord
    from provebench.pilot.lab._world import CyclePlan, apply_cycle_events

_EXPORTS = {
    "ApiTimeout": "provebench.pilot.lab._errors",
    "ConfirmedIds": "provebench.pilot.lab._api",
    "CycleContext": "provebench.pilot.lab._api",
    "CyclePlan": "provebench.pilot.lab._world",
    "CycleRecord": "provebench.pilot.lab._record",
    "Diagnostics": "provebench.pilot.lab._api",
    "DriveApi": "provebench.pilot.lab._api",
    "DriveState": "provebench.pilot.lab._drive_state",
    "Fault": "provebench.pilot.lab._faults",
    "FaultPlan": "provebench.pilot.lab._faults",
    "FileNotFound": "provebench.pilot.lab._errors",
    "FilePage": "provebench.pilot.lab._files",
    "Gateway": "provebench.pilot.lab._gateway",
    "InvalidArgument": "provebench.pilot.lab._errors",
    "LabClock": "provebench.pilot.lab._api",
    "LabError": "provebench.pilot.lab._errors",
    "LabFile": "provebench.pilot.lab._files",
    "LabMetadata": "provebench.pilot.lab._files",
    "MAX_PAGE_SIZE": "provebench.pilot.lab._gateway",
    "PermissionDenied": "provebench.pilot.lab._errors",
    "RateLimited": "provebench.pilot.lab._errors",
    "ServerError": "provebench.pilot.lab._errors",
    "ServiceUnavailable": "provebench.pilot.lab._errors",
    "SheetSchema": "provebench.pilot.lab._gateway",
    "SheetsApi": "provebench.pilot.lab._api",
    "TemporaryApiError": "provebench.pilot.lab._errors",
    "apply_cycle_events": "provebench.pilot.lab._world",
    "lab_file": "provebench.pilot.lab._files",
}

__all__ = [
    "MAX_PAGE_SIZE",
    "ApiTimeout",
    "ConfirmedIds",
    "CycleContext",
    "CyclePlan",
    "CycleRecord",
    "Diagnostics",
    "DriveApi",
    "DriveState",
    "Fault",
    "FaultPlan",
    "FileNotFound",
    "FilePage",
    "Gateway",
    "InvalidArgument",
    "LabClock",
    "LabError",
    "LabFile",
    "LabMetadata",
    "PermissionDenied",
    "RateLimited",
    "ServerError",
    "ServiceUnavailable",
    "SheetSchema",
    "SheetsApi",
    "TemporaryApiError",
    "apply_cycle_events",
    "lab_file",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
