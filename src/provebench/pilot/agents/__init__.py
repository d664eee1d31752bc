"""Importers for the call-import laboratory, and the interface they implement (pilot §3).

    class MyImporter:
        name = "my-importer"
        version = "1"

        def run_cycle(self, ctx: CycleContext) -> None: ...

Run one with `provebench pilot run CORPUS RUNDIR --agent path/to/file.py:MyImporter`.
Built-in: `reference` (exactly once, retries, self-checks) and `noop` (does nothing).
See docs/pilot-lab.md.

Names are imported on first use (PEP 562): the sandboxed worker (`_worker.py`) lives in this
package and must not pay for the reference importer's rules on every cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
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

_EXPORTS = {
    "ApiTimeout": "provebench.pilot._lab",
    "ConfirmedIds": "provebench.pilot._lab",
    "CycleContext": "provebench.pilot._lab",
    "Diagnostics": "provebench.pilot._lab",
    "DriveApi": "provebench.pilot._lab",
    "FileNotFound": "provebench.pilot._lab",
    "FilePage": "provebench.pilot._lab",
    "Importer": "provebench.pilot.agents._interface",
    "InvalidArgument": "provebench.pilot._lab",
    "LabClock": "provebench.pilot._lab",
    "LabError": "provebench.pilot._lab",
    "LoadedAgent": "provebench.pilot.agents._loader",
    "NoopImporter": "provebench.pilot.agents._noop",
    "PermissionDenied": "provebench.pilot._lab",
    "RateLimited": "provebench.pilot._lab",
    "ReferenceImporter": "provebench.pilot.agents._reference",
    "ServerError": "provebench.pilot._lab",
    "ServiceUnavailable": "provebench.pilot._lab",
    "SheetsApi": "provebench.pilot._lab",
    "TemporaryApiError": "provebench.pilot._lab",
    "builtin_agents": "provebench.pilot.agents._loader",
    "load_agent": "provebench.pilot.agents._loader",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
