"""The garbage collector paused over work that makes many objects and no reference cycles.

Automatic collection is triggered by allocations. Where a process allocates millions of objects
that stay alive (a laboratory run's Drive, a scorer's rows), each triggered pass rescans live
objects that cannot be garbage, again and again. Two places pay for this, each measured in
docs/benchmarks.md: the laboratory's cycles (about a quarter of a run's CPU time) and the
final-state scorer's id join (2–12% by candidate). Both pause collection with this one function;
nothing else should. Start-up is the third such place: importing provebench builds about 80
pydantic models, and the collector's passes over them were about a seventh of one `si score`
invocation (docs/benchmarks.md).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_collection() -> Iterator[None]:
    """Automatic collection off inside the block, back as it was after it (explicit
    `gc.collect()` calls still work)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def importing() -> Iterator[None]:
    """Imports at start-up: collection paused while modules build what stays alive for the
    whole process, and all of it frozen afterwards, so that no later pass rescans it."""
    with paused_collection():
        yield
    gc.freeze()


__all__ = ["importing", "paused_collection"]
