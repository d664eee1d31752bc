"""The per-cycle time limit of an in-process importer (pilot §2, §3; docs/pilot-lab.md).

An in-process importer runs on the laboratory's main thread, so the limit is a SIGALRM timer
(`setitimer(ITIMER_REAL)`) whose handler raises `ImporterTimedOut` in the importer's code. The
exception derives from BaseException so that an importer's `except Exception:` does not swallow
it, and the timer repeats every `REPEAT_SEC` after the limit, so an importer that catches even
BaseException and goes on is interrupted again.

The exception must never surface inside the laboratory's own code: a gateway call interrupted
half-way would leave the cycle's write-ahead record half-written. Every gateway entry point is
therefore a *lab section* (`lab_section`): an alarm that fires inside one only marks the limit
as passed, and the exception is raised when the section ends, after the call is fully recorded
and before control returns to the importer. Once the limit has passed, a new gateway call is
refused at entry (nothing performed, nothing recorded), so no row is appended late.

Where SIGALRM or `setitimer` is missing, or the cycle does not run on the main thread, there is
no limit: the cycle runs exactly as before, never an error.
"""

from __future__ import annotations

import functools
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, Concatenate, NoReturn, ParamSpec, Protocol, TypeVar, cast

DEFAULT_CYCLE_TIMEOUT_SEC = 600.0
# After the limit has passed, the alarm fires again this often (an importer that catches
# BaseException and carries on is interrupted again; a missed first firing is retried).
REPEAT_SEC = 1.0
# A previous timer that came due while the cycle ran fires at once after it (never lost).
_OVERDUE_SEC = 1e-6


class ImporterTimedOut(BaseException):
    """The importer did not finish its cycle within the time limit (recorded as agent_error)."""


def timeout_message(limit_sec: float) -> str:
    """The fixed agent_error message: the limit only, no clock reading (a deterministic log)."""
    return f"the importer did not finish its cycle within {limit_sec:g} s"


class LabSections:
    """What the gateway's guard reads and writes on every call: plain attributes, no allocation.

    A gateway without a deadline holds an inert instance (`passed` stays False, `pending` is
    never set), so the guard costs the same two counter updates whether or not a limit runs."""

    __slots__ = ("depth", "message", "passed", "pending")

    def __init__(self) -> None:
        self.depth = 0  # > 0 while the laboratory's own code handles a call
        self.passed = False  # the limit has passed: new calls are refused at entry
        self.pending = False  # the alarm fired inside a section: raise when it ends
        self.message = ""


class _HasSections(Protocol):
    _sections: LabSections


_Gate = TypeVar("_Gate", bound=_HasSections)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def lab_section(
    method: Callable[Concatenate[_Gate, _P], _R],
) -> Callable[Concatenate[_Gate, _P], _R]:
    """Run a gateway entry point as a lab section (see the module docstring).

    Race-free by construction: an alarm before `depth += 1` raises before anything is performed;
    one after it is deferred to the `finally`, which runs only after the call is recorded; one
    after `depth -= 1` interrupts a call that is already complete. The guard runs on every
    gateway call, so the wrapper takes the method's positional arguments as they are (no
    `*args` tuple or `**kwargs` dict built per call): gateway methods are called positionally."""
    arity = method.__code__.co_argcount - 1
    function: Any = method

    def section0(self: Any, /) -> Any:
        sections = self._sections
        if sections.passed and not sections.depth:
            raise ImporterTimedOut(sections.message)
        sections.depth += 1
        try:
            return function(self)
        finally:
            sections.depth -= 1
            if sections.pending and not sections.depth:
                _raise_pending(sections)

    def section1(self: Any, first: Any, /) -> Any:
        sections = self._sections
        if sections.passed and not sections.depth:
            raise ImporterTimedOut(sections.message)
        sections.depth += 1
        try:
            return function(self, first)
        finally:
            sections.depth -= 1
            if sections.pending and not sections.depth:
                _raise_pending(sections)

    def section2(self: Any, first: Any, second: Any, /) -> Any:
        sections = self._sections
        if sections.passed and not sections.depth:
            raise ImporterTimedOut(sections.message)
        sections.depth += 1
        try:
            return function(self, first, second)
        finally:
            sections.depth -= 1
            if sections.pending and not sections.depth:
                _raise_pending(sections)

    by_arity: dict[int, Callable[..., Any]] = {0: section0, 1: section1, 2: section2}
    if arity not in by_arity:
        raise TypeError(f"lab_section: {method.__qualname__} takes {arity} arguments, not 0-2")
    section = functools.update_wrapper(by_arity[arity], method)
    return cast("Callable[Concatenate[_Gate, _P], _R]", section)


def _raise_pending(sections: LabSections) -> NoReturn:
    """The alarm fired inside the section that just ended: raise it now, once."""
    sections.pending = False
    raise ImporterTimedOut(sections.message)


class CycleDeadline:
    """`with CycleDeadline(limit, sections):` around the importer's part of a cycle.

    `passed` tells the cycle afterwards whether the limit passed, even if the importer caught
    the exception and returned normally. `limit_sec=None` means no limit."""

    def __init__(self, limit_sec: float | None, sections: LabSections) -> None:
        self.limit_sec = limit_sec
        self.sections = sections
        sections.message = timeout_message(limit_sec) if limit_sec is not None else ""
        self._running = False
        self._armed = False
        self._previous_handler: Any = None
        self._previous_timer = (0.0, 0.0)
        self._armed_at = 0.0

    @property
    def passed(self) -> bool:
        return self.sections.passed

    @property
    def message(self) -> str:
        return self.sections.message

    def __enter__(self) -> CycleDeadline:
        if self.limit_sec is None or not _alarm_available():
            return self
        # A timer already running (another limit of this process) is suspended for the cycle and
        # re-armed afterwards with what was left of it.
        self._previous_timer = signal.setitimer(signal.ITIMER_REAL, 0.0)
        self._armed_at = time.monotonic()
        self._previous_handler = signal.signal(signal.SIGALRM, self._on_alarm)
        self._armed = True
        self._running = True
        signal.setitimer(signal.ITIMER_REAL, self.limit_sec, REPEAT_SEC)
        return self

    def __exit__(self, *exc: object) -> None:
        # "Not running" first: from here on a late alarm is ignored by the handler (which also
        # ignores one that lands on this method's first instruction, before this store).
        self._running = False
        if not self._armed:
            return
        self._armed = False
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, self._previous_handler)
        remaining, interval = self._previous_timer
        if remaining > 0.0:
            left = remaining - (time.monotonic() - self._armed_at)
            signal.setitimer(signal.ITIMER_REAL, max(left, _OVERDUE_SEC), interval)

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if not self._running:
            return  # a late alarm: the importer's part of the cycle is over
        if frame is not None and frame.f_code in _OWN_CODE:
            return  # entering or leaving the deadline itself; the repeat retries if needed
        sections = self.sections
        sections.passed = True
        if sections.depth:
            sections.pending = True  # inside the laboratory's code: raised when it ends
            return
        raise ImporterTimedOut(sections.message)


def _alarm_available() -> bool:
    return (
        hasattr(signal, "SIGALRM")
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )


_OWN_CODE = frozenset({CycleDeadline.__enter__.__code__, CycleDeadline.__exit__.__code__})


__all__ = [
    "DEFAULT_CYCLE_TIMEOUT_SEC",
    "REPEAT_SEC",
    "CycleDeadline",
    "ImporterTimedOut",
    "LabSections",
    "lab_section",
    "timeout_message",
]
