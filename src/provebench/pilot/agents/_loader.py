"""`--agent NAME | module:Class | path.py:Class`: finding the importer a run should use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from provebench._errors import ProvebenchError
from provebench._plugin import identity_of, resolve_class


@dataclass(frozen=True)
class LoadedAgent:
    """An importer class ready to be instantiated once per cycle."""

    spec: str
    name: str
    version: str
    factory: Callable[[], object]


def builtin_agents() -> dict[str, str]:
    """Built-in importers by name, as `module:Class` (imported only when chosen)."""
    return {
        "reference": "provebench.pilot.agents._reference:ReferenceImporter",
        "noop": "provebench.pilot.agents._noop:NoopImporter",
    }


def load_agent(spec: str) -> LoadedAgent:
    """Resolve `spec` to an importer class; a one-line `ProvebenchError` when that fails."""
    candidate = resolve_class(spec, builtin_agents())
    name, version = identity_of(candidate)
    if not callable(getattr(candidate, "run_cycle", None)):
        raise ProvebenchError(f"{candidate.__name__} has no run_cycle(ctx) method", field="--agent")
    return LoadedAgent(spec=spec, name=name, version=version, factory=candidate)


__all__ = ["LoadedAgent", "builtin_agents", "load_agent"]
