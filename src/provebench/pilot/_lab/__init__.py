"""The call-import laboratory (pilot §2 laboratory level): a synthetic Drive and Sheets behind a
permission gateway that records every call before it answers, with the corpus's faults injected.

Importers see only `CycleContext` and its facades; the rest is the runner's.
"""

from provebench.pilot._lab._api import (
    ConfirmedIds,
    CycleContext,
    Diagnostics,
    DriveApi,
    LabClock,
    SheetsApi,
)
from provebench.pilot._lab._drive_state import DriveState
from provebench.pilot._lab._errors import (
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
from provebench.pilot._lab._faults import Fault, FaultPlan
from provebench.pilot._lab._files import LabFile, LabMetadata, lab_file
from provebench.pilot._lab._gateway import MAX_PAGE_SIZE, FilePage, Gateway, SheetSchema
from provebench.pilot._lab._record import CycleRecord
from provebench.pilot._lab._world import CyclePlan, apply_cycle_events

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
