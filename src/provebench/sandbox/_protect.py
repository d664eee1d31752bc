"""The laboratory protects itself before it starts a candidate.

A sandboxed candidate cannot see the laboratory's processes at all (its own PID namespace), but
the laboratory also marks itself not dumpable (`PR_SET_DUMPABLE` 0): no process of the same user
may attach a debugger to it or read its memory through `/proc/PID/mem`, which covers a candidate
that the operator chose to run unsandboxed (`pilot serve`) as well.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

PR_SET_DUMPABLE = 4
PR_GET_DUMPABLE = 3


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name, use_errno=True) if name else ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def protect_laboratory() -> bool:
    """Make this process not dumpable and not traceable by its own user; True when it is."""
    libc = _libc()
    if libc is None:
        return False
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    return is_protected()


def is_protected() -> bool:
    libc = _libc()
    return libc is not None and libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0


__all__ = ["is_protected", "protect_laboratory"]
