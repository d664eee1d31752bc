"""The importer interface: what a candidate implements to run in the laboratory (pilot §3).

An importer is a class with a `name`, a `version` and a `run_cycle(ctx)` method. The runner makes
a fresh instance for every cycle, so anything an importer must remember between cycles lives in
`ctx.work_dir` (its journal), which the laboratory persists and checkpoints with the cycle: after
a crash the cycle is re-run from its start with the work directory as it was at that start.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from provebench.pilot.lab import CycleContext


@runtime_checkable
class Importer(Protocol):
    """One cycle of importing new call recordings from the Drive into the working sheet."""

    name: ClassVar[str]
    version: ClassVar[str]

    def run_cycle(self, ctx: CycleContext) -> None:
        """Do this cycle's work through `ctx` only; return when done (the lab then confirms)."""


__all__ = ["Importer"]
