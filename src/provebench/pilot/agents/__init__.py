"""Importers for the call-import laboratory, and the interface they implement (pilot §3).

    class MyImporter:
        name = "my-importer"
        version = "1"

        def run_cycle(self, ctx: CycleContext) -> None: ...

Run one with `provebench pilot run CORPUS RUNDIR --agent path/to/file.py:MyImporter`.
Built-in: `reference` (exactly once, retries, self-checks) and `noop` (does nothing).
See docs/pilot-lab.md.
"""

from provebench.pilot._lab import (
    ApiTimeout,
    ConfirmedIds,
    CycleContext,
    Diagnostics,
    DriveApi,
    FileNotFound,
    FilePage,
    InvalidArgument,
    LabClock,
    LabError,
    PermissionDenied,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    SheetsApi,
    TemporaryApiError,
)
from provebench.pilot.agents._interface import Importer
from provebench.pilot.agents._loader import LoadedAgent, builtin_agents, load_agent
from provebench.pilot.agents._noop import NoopImporter
from provebench.pilot.agents._reference import ReferenceImporter

__all__ = [
    "ApiTimeout",
    "ConfirmedIds",
    "CycleContext",
    "Diagnostics",
    "DriveApi",
    "FileNotFound",
    "FilePage",
    "Importer",
    "InvalidArgument",
    "LabClock",
    "LabError",
    "LoadedAgent",
    "NoopImporter",
    "PermissionDenied",
    "RateLimited",
    "ReferenceImporter",
    "ServerError",
    "ServiceUnavailable",
    "SheetsApi",
    "TemporaryApiError",
    "builtin_agents",
    "load_agent",
]
