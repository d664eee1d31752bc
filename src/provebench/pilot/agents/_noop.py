"""The no-op importer: does nothing, so every scorer must give it zero (STYLE: a no-op baseline)."""

from __future__ import annotations

from typing import ClassVar

from provebench.pilot.lab import CycleContext


class NoopImporter:
    """Imports nothing, reports nothing."""

    name: ClassVar[str] = "noop"
    version: ClassVar[str] = "1"

    def run_cycle(self, ctx: CycleContext) -> None:
        return None


__all__ = ["NoopImporter"]
