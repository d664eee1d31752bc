"""A forked child that scores one part of a pair of files while this process scores the other.

The id join (`_idjoin`), on large files with a second core, forks once, after reading what the
child needs (the headers), and then the two talk through a pair of pipes: the
child's messages come back as pickles, this process can answer. The child never returns: its
work function runs, its pipes are flushed, and it leaves with `os._exit` (no `atexit`, no
buffered output of the parent written twice). When this side has no use for the child's work
— its own part was refused, or the child's answer shows that one pass must score — the child is
killed rather than awaited; in every case it is reaped, and what it used is kept in
`last_child_usage` for the benchmark, which reports memory as the sum of both processes' peaks.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any

# What the last child used, from `os.wait4` (read by bench/bench_score_final.py).
last_child_usage: dict[str, float] | None = None


class LostChild(Exception):
    """The child ended without the message this side was waiting for."""


class Channel:
    """One side's ends of the two pipes: pickles out, pickles in."""

    def __init__(self, incoming: IO[bytes], outgoing: IO[bytes]) -> None:
        self._incoming = incoming
        self._outgoing = outgoing
        # Set by the parent once the child's work is used: the child is then awaited, not killed.
        self.complete = False

    def send(self, message: Any) -> None:
        pickle.dump(message, self._outgoing, pickle.HIGHEST_PROTOCOL)
        self._outgoing.flush()

    def receive(self) -> Any:
        try:
            return pickle.load(self._incoming)
        except (EOFError, pickle.UnpicklingError) as error:
            raise LostChild from error

    def close(self) -> None:
        for stream in (self._outgoing, self._incoming):
            with suppress(OSError):  # the other side is gone: nothing left to tell it
                stream.close()


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return hasattr(os, "fork") and usable_cores() >= 2


@contextmanager
def forked_child(work: Callable[[Channel], None]) -> Iterator[Channel]:
    """Run `work` in a forked child; yield this side's channel to it. Set `channel.complete`
    when the child's messages were all used, or it is killed on the way out."""
    global last_child_usage
    from_child, to_parent = os.pipe()
    from_parent, to_child = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(from_child)
        os.close(to_child)
        _run_child(work, from_parent, to_parent)
    os.close(to_parent)
    os.close(from_parent)
    channel = Channel(os.fdopen(from_child, "rb"), os.fdopen(to_child, "wb"))
    try:
        yield channel
    finally:
        if not channel.complete:  # its work is of no use: do not wait for it
            os.kill(pid, signal.SIGKILL)
        channel.close()
        _, _, usage = os.wait4(pid, 0)
        last_child_usage = {
            "cpu_seconds": usage.ru_utime + usage.ru_stime,
            "peak_rss_mib": usage.ru_maxrss / 1024,
        }


def _run_child(
    work: Callable[[Channel], None], incoming: int, outgoing: int
) -> None:  # pragma: no cover - runs in the forked child
    status = 1
    try:
        channel = Channel(os.fdopen(incoming, "rb"), os.fdopen(outgoing, "wb"))
        try:
            work(channel)
            status = 0
        finally:
            channel.close()
    finally:
        os._exit(status)


__all__ = ["Channel", "LostChild", "can_fork", "forked_child", "last_child_usage", "usable_cores"]
