"""Bounded retry with exponential backoff on the lab clock (pilot §6 "recovers without loss")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from provebench.pilot._lab import CycleContext, TemporaryApiError

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


def with_retry(ctx: CycleContext, stats: RetryStats, call: Callable[[], T]) -> T:
    """`call()`, retried on temporary errors up to MAX_ATTEMPTS with backoff; re-raises the last
    error when the attempts run out. Only for calls that are safe to repeat (reads)."""
    backoff = FIRST_BACKOFF_SEC
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            result = call()
        except TemporaryApiError:
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
