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
    from provebench.pilot.agents._interface import Importer
    from provebench.pilot.agents._loader import LoadedAgent, builtin_agents, load_agent
    from provebench.pilot.agents._noop import NoopImporter
    from provebench.pilot.agents._reference import ReferenceImporter
    from provebench.pilot.lab import (
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

_EXPORTS = {
    "ApiTimeout": "provebench.pilot.lab",
    "ConfirmedIds": "provebench.pilot.lab",
    "CycleContext": "provebench.pilot.lab",
    "Diagnostics": "provebench.pilot.lab",
    "DriveApi": "provebench.pilot.lab",
    "FileNotFound": "provebench.pilot.lab",
    "FilePage": "provebench.pilot.lab",
    "Importer": "provebench.pilot.agents._interface",
    "InvalidArgument": "provebench.pilot.lab",
    "LabClock": "provebench.pilot.lab",
    "LabError": "provebench.pilot.lab",
    "LoadedAgent": "provebench.pilot.agents._loader",
    "NoopImporter": "provebench.pilot.agents._noop",
    "PermissionDenied": "provebench.pilot.lab",
    "RateLimited": "provebench.pilot.lab",
    "ReferenceImporter": "provebench.pilot.agents._reference",
    "ServerError": "provebench.pilot.lab",
    "ServiceUnavailable": "provebench.pilot.lab",
    "SheetsApi": "provebench.pilot.lab",
    "TemporaryApiError": "provebench.pilot.lab",
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
