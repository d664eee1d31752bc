"""The test process's own objects kept out of the garbage collector's scans.

A worker of the suite holds everything it collected (about 420,000 tracked objects for the whole
suite) for the whole run. The laboratory calls `gc.collect()` after every cycle and freezes what
survives (src/provebench/pilot/lab/_runner.py: `provebench` itself freezes what its imports
built, src/provebench/_collector.py), but `execute_run` unfreezes everything at its end, and so
every later run in the worker scanned the suite's objects again: about 0.3 s of CPU per
collection, paid by every in-process laboratory run, red-team worker (forked from the test
process) and scorer of the suite, and never by a `provebench` command. Frozen before each test
(an O(1) move of the collector's lists), they are left alone again; what a test checks is the
same, only the collector's work differs.

Freezing keeps a reference cycle that became garbage before the freeze alive, so every
`_RECLAIM_EVERY` tests the worker unfreezes, collects once and freezes again: memory stays
bounded at the price of one full collection per that many tests."""

from __future__ import annotations

import gc

import pytest

_RECLAIM_EVERY = 200


class FrozenHeap:
    """The pytest plugin (tests/conftest.py registers it in every process of the run)."""

    def __init__(self) -> None:
        self._tests_since_reclaim = 0

    def _reclaim(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._tests_since_reclaim = 0

    def pytest_collection_finish(self) -> None:
        self._reclaim()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self) -> None:
        self._tests_since_reclaim += 1
        if self._tests_since_reclaim >= _RECLAIM_EVERY:
            self._reclaim()
        else:
            gc.freeze()
