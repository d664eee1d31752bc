"""Stopping a long-running server (`si provider`, `si serve`, `pilot serve`) with Ctrl-C or
SIGTERM, whatever its parent left SIGINT set to.

A process started in the background of a non-interactive shell (`provebench si provider &`), by
`nohup`, or by a test runner's worker inherits SIGINT *ignored*; Python then installs no
KeyboardInterrupt handler of its own, so Ctrl-C (or `kill -INT`) would do nothing and the
server would serve on. Each server therefore installs its own handler for both signals while it
serves, and restores what was there when it stops.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Final

STOP_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM)
SignalHandler = Callable[[int, FrameType | None], Any]


@contextmanager
def stopped_by_signals(handler: SignalHandler) -> Iterator[None]:
    """Run `handler` on SIGINT and on SIGTERM while inside (an inherited SIG_IGN included), and
    restore the previous dispositions on the way out. Call it from the main thread."""
    previous = {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


def raise_interrupt(signum: int, frame: FrameType | None) -> None:
    """A handler: stop as Ctrl-C does (`KeyboardInterrupt`)."""
    raise KeyboardInterrupt


class ExitOnSignal:
    """A handler for a server that serves a client over stdin and stdout (`si serve`, `pilot
    serve --mcp`): the signal raises `SystemExit` (128 + N: 130 for SIGINT, 143 for SIGTERM,
    the shell's status for a process the signal ended), so the server's `finally` blocks write
    what it owes (evidence, a closed cycle); then `exit_if_stopped` ends the process with that
    status. It cannot simply return: a worker thread of the event loop is still blocked
    reading stdin, which the client keeps open, and the interpreter would wait for it forever
    before exiting."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signum = signum
        raise SystemExit(128 + signum)

    def exit_if_stopped(self) -> None:
        """After the server's clean-up: if a signal stopped it, flush what was written and end
        the process now, with 128 + N, without waiting for the thread blocked on stdin."""
        if self.signum is None:
            return
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(128 + self.signum)


__all__ = ["STOP_SIGNALS", "ExitOnSignal", "raise_interrupt", "stopped_by_signals"]
