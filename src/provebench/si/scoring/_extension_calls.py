"""The registry extension's primitives as the scoring layer calls them (SI §2.4 candidates).

One table for both places they are called: the checks of safety and Form A scenarios
(`_assess`), and Form B decision tables, templates included (`_evaluate`). `mentions` is given
its phrases here: a phrase list is a profile asset (`phrases-1.yaml`), which the primitives do
not read themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from provebench.si.primitives import _paths
from provebench.si.primitives._paths import AuditView, PathResult, audit_of
from provebench.si.primitives._scope import EvidenceView
from provebench.si.profile_data._extension import phrases_named


def _mentions(view: AuditView, phrases: str, **arguments: Any) -> PathResult:
    return _paths.mentions(view, phrases_named(phrases), list_name=phrases, **arguments)


EXTENSION_PRIMITIVES: Final[dict[str, Callable[..., PathResult]]] = {
    "ops_against": _paths.ops_against,
    "ops_precede": _paths.ops_precede,
    "sequence_matches": _paths.sequence_matches,
    "ops_after_event": _paths.ops_after_event,
    "state_delta_matches": _paths.state_delta_matches,
    "state_matches": _paths.state_matches,
    "trail_matches_oracle": _paths.trail_matches_oracle,
    "mentions": _mentions,
    "writes_on": _paths.writes_on,
}


def call_extension(name: str, view: EvidenceView, **arguments: Any) -> PathResult:
    """An extension primitive over the evidence a text view reads (its audit view, built once)."""
    return EXTENSION_PRIMITIVES[name](audit_of(view), **arguments)


__all__ = ["EXTENSION_PRIMITIVES", "call_extension"]
