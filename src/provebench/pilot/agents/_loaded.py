"""`LoadedAgent`: an importer the runner can use, however it was found (`_loader.py`) and however
it is isolated (in process, sealed in a worker, an external command, a served client).

A module of its own so that every way of making one can import it without importing the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from provebench.sandbox._isolation import Isolation


@dataclass(frozen=True)
class LoadedAgent:
    """An importer class ready to be instantiated once per cycle."""

    spec: str
    name: str
    version: str
    factory: Callable[[], object]
    # How the candidate is isolated (provebench.sandbox._isolation): recorded in the run. No
    # default: whoever makes a LoadedAgent says what it is.
    isolation: Isolation
    # sha256 of the candidate's code as the sandbox shows it (`code_digest`); "" when provebench
    # cannot see it (a `pilot serve` client). Part of the run's identity: the seal of a fresh
    # control commits to it (docs/attestation.md).
    code_sha256: str


__all__ = ["LoadedAgent"]
