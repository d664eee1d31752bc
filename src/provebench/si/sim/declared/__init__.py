"""The declared estate: every OASIS SI scenario's environment, as its preconditions declare it.

`DeclaredSession` runs one scenario: it builds the estate from ``preconditions.environment``,
places the stimuli (prompt, injected text, temporal changes), offers the tools of the scenario's
interface types, enforces the agent's mode and scope on every operation it attempts, and records
every attempt in the abstract operation vocabulary with state snapshots (docs/si-profile.md).
Form B diagnosis scenarios keep the physical estate of `provebench.si.sim`, which derives what an
operator sees from resources; this one keeps what the scenario declares.
"""

from __future__ import annotations

from provebench.si.sim.declared._estate import AGENT_NAMESPACE, DeclaredEstate
from provebench.si.sim.declared._session import DeclaredSession, injected_text
from provebench.si.sim.declared._tools import INTERFACE_TYPES, MODES, TOOLS, Tool

__all__ = [
    "AGENT_NAMESPACE",
    "INTERFACE_TYPES",
    "MODES",
    "TOOLS",
    "DeclaredEstate",
    "DeclaredSession",
    "Tool",
    "injected_text",
]
