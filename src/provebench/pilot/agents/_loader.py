"""`--agent NAME | module:Class | path.py:Class`: finding the importer a run should use."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._plugin import identity_of, resolve_class
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.record._seal import FROM_SEAL_KEY, not_the_sealed_candidate
from provebench.sandbox._candidate import code_digest, is_shipped
from provebench.sandbox._code_copy import SealedCode
from provebench.sandbox._isolation import ENVIRONMENT_KEY, SHIPPED
from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
from provebench.sandbox._manifest import environment_digest
from provebench.sandbox._policy import PACKAGE_DIR


def builtin_agents() -> dict[str, str]:
    """Built-in importers by name, as `module:Class` (imported only when chosen)."""
    return {
        "reference": "provebench.pilot.agents._reference:ReferenceImporter",
        "noop": "provebench.pilot.agents._noop:NoopImporter",
    }


def load_agent(
    spec: str,
    *,
    secrets: Mapping[str, Path] | None = None,
    seal: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    sealed: SealedCode | None = None,
    resources: contextlib.ExitStack | None = None,
) -> LoadedAgent:
    """Resolve `spec` to an importer; a one-line `ProvebenchError` when that fails.

    provebench's own importers (the built-in names, `provebench.…:Class`) run in the
    laboratory's process (`trusted-shipped`). Every other class runs sealed in the sandbox,
    which hides `secrets` (the corpus, the run folder) from it (`agents._sandboxed`); which one
    applies is decided here, from the spec, and is not an option; `seal` only adds isolation
    (the red team's sandbox attacks run sealed although provebench ships them). `sealed` runs
    the candidate of a seal from the seal's copy of its code (docs/attestation.md). A sandboxed
    candidate's code is snapshotted for the run, removed when `resources` closes."""
    if sealed is not None and sealed.spec != spec:
        raise not_the_sealed_candidate(sealed.opening, sealed.spec, spec)
    if seal or not is_shipped(spec, builtin_agents()):
        from provebench.pilot.agents._sandboxed import sandboxed_agent

        shipped = shipped_code_sha256() if is_shipped(spec, builtin_agents()) else None
        return sandboxed_agent(
            spec, secrets=secrets or {}, limits=limits, sealed=sealed, shipped_sha256=shipped,
            resources=resources,
        )  # fmt: skip
    candidate = resolve_class(spec, builtin_agents())
    name, version = identity_of(candidate)
    if not callable(getattr(candidate, "run_cycle", None)):
        raise ProvebenchError(f"{candidate.__name__} has no run_cycle(ctx) method", field="--agent")
    return LoadedAgent(
        spec=spec,
        name=name,
        version=version,
        factory=candidate,
        # From a seal, the environment it ran in (checked against the seal's by `sealed_code`).
        isolation=dict(SHIPPED)
        if sealed is None
        else {**SHIPPED, FROM_SEAL_KEY: sealed.commitment, ENVIRONMENT_KEY: environment_digest()},
        code_sha256=shipped_code_sha256(),
    )


@lru_cache(maxsize=1)
def shipped_code_sha256() -> str:
    """provebench's own code: its shipped importers are part of it."""
    return code_digest([PACKAGE_DIR], field="--agent", skip_caches=True)


__all__ = ["LoadedAgent", "builtin_agents", "load_agent"]
