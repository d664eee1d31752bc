"""The latest rows each side registered, so that a repeated file_id's first rows can be recovered.

The lockstep join pairs rows as they come; for an id that repeats, the published "last row wins"
needs what the join counted for the id's FIRST rows taken out again (pilot §7 field accuracy,
see `_score_final_repeats`). At an id's first repeat, each side has registered at most one row
of it before, so any row of that id among a side's registered rows IS that side's first row.
Those rows are usually close by (an importer that appends a row twice does so in one cycle), so
the join keeps the latest rows of each side here and looks the first rows up when an id first
repeats; only the ids whose first rows are no longer here are counted again by re-reading the
files.

The look-ups have a total work budget: a file in which every id repeats far away stops looking
up after a fixed amount of work (every such id is then recounted), so the cost stays bounded.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from provebench.pilot._score_final_csv import Record

_KEPT_ROWS = 1 << 15  # rows kept at least (about one read piece of a register),
# and at most twice as many: the oldest are dropped in one go when that is reached
_LOOSE_ROWS = 1 << 12  # rows taken one at a time are kept in lists of at most this many
LOOKUP_BUDGET = 1 << 22  # rows indexed plus runs visited, over all look-ups of one join


# Side bits (the join's): a run registered on both sides at once has both.
_EXPECTED_SIDE = 1
_CANDIDATE_SIDE = 2
_BOTH_SIDES = _EXPECTED_SIDE | _CANDIDATE_SIDE


class _Run:
    __slots__ = ("index", "records", "sides")

    def __init__(self, records: list[Record], sides: int) -> None:
        self.records = records
        self.sides = sides
        self.index: dict[str | None, int] | None = None


class RecentRows:
    """The latest rows registered (rows with a non-empty id only), newest last: runs registered
    on both sides at once, kept once, and rows registered on one side (side bits 1 and 2)."""

    __slots__ = ("_file_ids", "_loose", "_rows", "_runs")

    def __init__(self, file_ids: dict[int, Callable[[list[Record]], list[str | None]]]) -> None:
        self._file_ids = file_ids  # by side bit; runs on both sides take side 1's
        self._runs: deque[_Run] = deque()
        self._rows = 0
        self._loose: dict[int, list[Record]] = {}

    def add_run(self, records: list[Record]) -> None:
        """Rows registered together on both sides; the list must not change afterwards."""
        self._loose.clear()
        self._push(_Run(records, _BOTH_SIDES))

    def add_pair(self, expected: list[Record], candidate: list[Record]) -> None:
        """Rows registered together on both sides, but not all equal: kept once per side."""
        self._loose.clear()
        self._push(_Run(expected, _EXPECTED_SIDE))
        self._push(_Run(candidate, _CANDIDATE_SIDE))

    def add_row(self, record: Record, side: int) -> None:
        loose = self._loose.get(side)
        if loose is None or len(loose) >= _LOOSE_ROWS:
            loose = self._loose[side] = []
            self._push(_Run(loose, side))
        loose.append(record)
        self._rows += 1
        if self._rows > 2 * _KEPT_ROWS:
            self._evict()

    def _push(self, run: _Run) -> None:
        self._runs.append(run)
        self._rows += len(run.records)
        if self._rows > 2 * _KEPT_ROWS:
            self._evict()

    def _evict(self) -> None:
        runs = self._runs
        while self._rows > _KEPT_ROWS and len(runs) > 1:
            self._rows -= len(runs.popleft().records)

    def find(self, file_id: str, side: int) -> tuple[Record | None, int]:
        """The newest kept row of this side with this id (None if there is none), and the work
        it took."""
        work = 0
        for run in reversed(self._runs):
            if not run.sides & side:
                continue
            work += 1
            index = run.index
            if index is None:
                if self._loose.get(run.sides) is run.records:
                    del self._loose[run.sides]  # indexed now: later rows start a new list
                ids = self._file_ids[run.sides & side](run.records)
                index = run.index = dict(zip(ids, range(len(ids)), strict=True))
                work += len(ids)
            position = index.get(file_id)
            if position is not None:
                return run.records[position], work
        return None, work


__all__ = ["LOOKUP_BUDGET", "RecentRows"]
