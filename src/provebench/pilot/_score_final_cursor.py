"""A read position in a stream of record batches, for the lockstep join (`_score_final_join`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress, count
from operator import and_, eq, ne

from provebench.pilot._score_final_csv import Batch, Record

RESYNC_WINDOW = 64  # how far ahead a missing or extra run of rows is looked for
_FIRST_SLICE = 128
_ALIGNED_SLICE_MAX = 1024
_FIRST_IDS = 4


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


def aligned_prefix(
    left: Cursor, right: Cursor, file_ids: Callable[[list[Record]], list[str | None]]
) -> tuple[int, list[int], list[str | None]]:
    """How many records from the cursors on are equal, or differ with the same non-empty id on
    both sides (one header); the positions among them that differ, and their ids (so that a
    run in which every row differs needs its ids cut no more).

    Like `identical_prefix`, slices of growing size are looked at whole: the differing positions
    of a slice are found by one C-level pass, and their ids are cut a few at a time
    (`file_ids`), more at a time while they keep agreeing. So a stretch in which every row
    differs (a field wrong in every row, in order) costs a few calls per slice, not a search
    per row, and a run that ends at its first differing row (files out of step after a missing
    row) costs little more than that row.
    """
    a, ai = left.records, left.index
    b, bi = right.records, right.index
    available = min(len(a) - ai, len(b) - bi)
    changed: list[int] = []
    changed_ids: list[str | None] = []
    run = identical_prefix(left, right)
    step = _FIRST_SLICE
    ids_at_once = _FIRST_IDS
    while run < available:
        size = min(step, available - run)
        left_slice = a[ai + run : ai + run + size]
        right_slice = b[bi + run : bi + run + size]
        if left_slice != right_slice:
            differ = list(compress(count(run), map(ne, left_slice, right_slice)))
            first = 0
            while first < len(differ):
                positions = differ[first : first + ids_at_once]
                first += len(positions)
                expected_ids = file_ids([a[ai + position] for position in positions])
                candidate_ids = file_ids([b[bi + position] for position in positions])
                agree = list(
                    map(and_, map(bool, expected_ids), map(eq, expected_ids, candidate_ids))
                )
                if not all(agree):
                    stop = agree.index(False)
                    return (
                        positions[stop],
                        changed + positions[:stop],
                        changed_ids + expected_ids[:stop],
                    )
                changed += positions
                changed_ids += expected_ids
                ids_at_once = min(ids_at_once << 1, _ALIGNED_SLICE_MAX)
        run += size
        # Growing, but not past a size whose waste is small when the run ends early in it (a
        # missing or extra row, every few hundred rows in a register with defects).
        step = min(step << 2, _ALIGNED_SLICE_MAX)
    return run, changed, changed_ids


__all__ = ["RESYNC_WINDOW", "Cursor", "aligned_prefix", "identical_prefix"]
