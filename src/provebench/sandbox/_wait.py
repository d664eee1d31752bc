"""Waiting for descriptors to become readable, whatever their number.

`select.select` refuses a descriptor numbered 1024 or more (`FD_SETSIZE`), and a laboratory
running a candidate of many files holds that many more: each file of the run's held code is a
sealed memfd (`_held_code`), plus one more per file while a launch starts. So every wait on a
channel, a status pipe or an emulator connection goes through `poll(2)` (`selectors`), which has
no such limit and, unlike epoll, opens no descriptor of its own for each wait.
"""

from __future__ import annotations

import selectors
from collections.abc import Iterable


def readable(fds: Iterable[int], timeout: float | None) -> set[int]:
    """Those of `fds` with data to read (or whose other end closed) within `timeout` seconds
    (None: no limit; 0: only what is there now); empty when none is."""
    with selectors.PollSelector() as selector:
        for fd in dict.fromkeys(fds):
            selector.register(fd, selectors.EVENT_READ)
        return {key.fd for key, _ in selector.select(timeout)}


__all__ = ["readable"]
