"""Bounded retry with exponential backoff on the lab clock (pilot §6 "recovers without loss")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from provebench.pilot.lab import TemporaryApiError

if TYPE_CHECKING:  # the context's module imports the gateway: not needed to run an importer
    from provebench.pilot.lab import CycleContext

T = TypeVar("T")

MAX_ATTEMPTS = 6
FIRST_BACKOFF_SEC = 0.5
MAX_BACKOFF_SEC = 30.0


class RetryStats:
    __slots__ = ("gave_up", "recovered", "temporary_errors")

    def __init__(self) -> None:
        self.temporary_errors = 0
        self.recovered = 0
        self.gave_up = 0


def with_retry(
    ctx: CycleContext,
    stats: RetryStats,
    call: Callable[[], T],
    *,
    retry_on: tuple[type[TemporaryApiError], ...] = (TemporaryApiError,),
    in_doubt: tuple[type[TemporaryApiError], ...] = (),
) -> T:
    """`call()`, retried on `retry_on` errors up to MAX_ATTEMPTS with backoff; re-raises the last
    error when the attempts run out. The default retries every temporary error: only for calls
    that are safe to repeat (reads). For writes, pass the errors answered before any effect as
    `retry_on` and the ones that may come after the write took effect as `in_doubt`: those are
    counted and re-raised at once, never retried blindly."""
    backoff = FIRST_BACKOFF_SEC
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            result = call()
        except in_doubt:
            stats.temporary_errors += 1
            raise
        except retry_on:
            stats.temporary_errors += 1
            if attempt == MAX_ATTEMPTS:
                stats.gave_up += 1
                raise
            ctx.clock.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SEC)
            continue
        if attempt > 1:
            stats.recovered += 1
        return result
    raise AssertionError("unreachable")


__all__ = ["MAX_ATTEMPTS", "RetryStats", "with_retry"]
