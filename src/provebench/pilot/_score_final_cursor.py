"""A read position in a stream of record batches, for the lockstep join (`_score_final_join`)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, count
from operator import ne

from provebench.pilot._score_final_csv import Batch, Record

RESYNC_WINDOW = 64  # how far ahead a missing or extra run of rows is looked for
_FIRST_SLICE = 128


class Cursor:
    """A read position in a stream of record batches, with a little look-ahead."""

    def __init__(self, batches: Iterator[Batch]) -> None:
        self._batches = batches
        self.records: list[Record] = []
        self.index = 0
        self._exhausted = False

    def available(self) -> int:
        return len(self.records) - self.index

    def next_batch(self) -> Batch | None:
        """The next batch, unparsed; the caller must `push` it back or skip it."""
        if self._exhausted:
            return None
        batch = next(self._batches, None)
        if batch is None:
            self._exhausted = True
        return batch

    def push(self, batch: Batch | None) -> None:
        """Append a batch taken with `next_batch`."""
        if batch is not None:
            self._append(batch.records())

    def _append(self, records: list[Record]) -> None:
        if self.index >= len(self.records):
            self.records = records
        else:
            self.records = self.records[self.index :] + records
        self.index = 0

    def fill(self, wanted: int) -> int:
        """Make at least `wanted` records available if the stream has them; return how many are."""
        while len(self.records) - self.index < wanted:
            batch = self.next_batch()
            if batch is None:
                break
            self._append(batch.records())
        return len(self.records) - self.index

    def find(self, record: Record) -> int:
        """Offset (> 0) of `record` within the look-ahead window, or 0."""
        start = self.index + 1
        stop = min(len(self.records), self.index + RESYNC_WINDOW)
        try:
            return self.records.index(record, start, stop) - self.index
        except ValueError:
            return 0

    def drain(self) -> Iterator[Record]:
        while self.fill(1):
            records, self.records = self.records, []
            start, self.index = self.index, 0
            yield from records[start:]


def identical_prefix(left: Cursor, right: Cursor, skip: int = 0) -> int:
    """How many records from `skip` records past the cursors on are equal on both sides.

    Slices of growing size are compared whole (C speed); in the first slice that differs, the
    first differing position is found by one C-level pass (`map(ne, ...)`), so that a short run
    between two differing rows costs a few calls, not a search.
    """
    a, ai = left.records, left.index + skip
    b, bi = right.records, right.index + skip
    available = min(len(a) - ai, len(b) - bi)
    run = 0
    step = _FIRST_SLICE
    while run < available:
        size = min(step, available - run)
        left_slice = a[ai + run : ai + run + size]
        right_slice = b[bi + run : bi + run + size]
        if left_slice != right_slice:
            return run + next(compress(count(), map(ne, left_slice, right_slice)))
        run += size
        step <<= 2
    return run


__all__ = ["RESYNC_WINDOW", "Cursor", "identical_prefix"]
