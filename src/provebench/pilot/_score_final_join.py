"""One streaming pass over an expected and a candidate register (pilot §7 final-state metrics).

The published scorer builds a dict per row, `ek`/`ck` (file_id -> last row with that id), and the
two lists of ids. Here both files are read in lockstep instead and only these are kept:

* one set of every non-empty file_id registered, and a dict from the ids registered one row at
  a time to two bits (seen in expected / seen in candidate; an id in the set only was settled
  in bulk, so is in both), from which duplicates, the size of `ek` and `ck` and of their
  intersection follow exactly;
* the rows not yet paired with a row of the same file_id on the other side (`pending_*`); while
  the files stay aligned these are empty, after a missing, extra or moved row they hold a few;
* running counts: rows, empty ids, matching fields, field total, and whether the id sequences
  have been equal so far (`order_ok`: the published order check compares the full id lists).

Runs of records that are byte-for-byte equal on both sides (same header) are settled in bulk at C
speed. Pairing each row with the other side's row of the same id is only the published
"last row wins" when no id repeats; when one does, the fields of the repeated ids are counted
again from their last rows (`_score_final_repeats`, with `repeat_matched` and
`first_rows_paired`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import compress, repeat
from operator import gt
from typing import cast

from provebench.pilot._score_final_compiled import COMPILED
from provebench.pilot._score_final_csv import Batch, QuotedRecord, Record, record_fields
from provebench.pilot._score_final_cursor import (
    RESYNC_WINDOW,
    Cursor,
    aligned_prefix,
)
from provebench.pilot._score_final_layout import FieldComparison, RowLayout
from provebench.pilot._score_final_recent import LOOKUP_BUDGET, RecentRows

_plain_widths = COMPILED.plain_widths

_IN_EXPECTED = 1
_IN_CANDIDATE = 2
_IN_BOTH = _IN_EXPECTED | _IN_CANDIDATE


class TooManyUnpaired(Exception):
    """More unpaired rows on one side than `LockstepJoin.unpaired_limit`."""


class RepeatRows:
    """A repeated id whose first rows were recovered: what its first rows' pairing matched, the
    keys of all its expected rows, and the last row of each side so far."""

    __slots__ = ("expected_keys", "first_pair_matched", "last_candidate", "last_expected")

    def __init__(self, first_expected: list[str] | None, first_candidate: list[str] | None) -> None:
        self.last_expected = first_expected
        self.last_candidate = first_candidate
        self.expected_keys = 0
        self.first_pair_matched = 0


class LockstepJoin:
    """The counts behind the five published final-state metrics, from two record streams."""

    def __init__(
        self,
        expected: RowLayout,
        candidate: RowLayout,
    ) -> None:
        self.expected = expected
        self.candidate = candidate
        self.compare = FieldComparison(expected, candidate)
        self.seen: dict[str, int] = {}
        # Every id registered, in bulk or one row at a time (`seen` holds the flags of the latter
        # only: an id here and not in `seen` was settled in bulk, so is in both files). A run is
        # registered with one C-level check and one union against this one set.
        self.registered: set[str] = set()
        # When kept (`keep_bulk_ids`): every id registered in bulk, in file order — what a join
        # in halves sends across (`_score_final_halves`), gathered while each run's ids are at
        # hand rather than by a walk over `registered` once the join ends (its strings in hash
        # order, a cache miss each: ≈0.2 s for half a million ids).
        self.bulk_ids: list[str] | None = None
        self.pending_expected: dict[str, Record] = {}
        self.pending_candidate: dict[str, Record] = {}
        # A join that is to be handed on (`_score_final_halves`) gives up past this many
        # unpaired rows on one side: they would all be sent and held twice.
        self.unpaired_limit: float = math.inf
        # ... and, when set, only while they are more than this share of the rows read on that
        # side (an ordered candidate with many missing rows holds those unpaired for good, but
        # only as a small share; a shuffled one holds most of what it has read).
        self.unpaired_share = 0.0
        self.expected_rows = 0
        self.candidate_rows = 0
        self.expected_none_ids = 0  # rows too short for, or without, a file_id column
        self.expected_empty_ids = 0
        self.candidate_falsy_ids = 0
        self.expected_distinct = 0
        self.candidate_distinct = 0
        self.in_both = 0
        self.expected_repeats: dict[str, int] = {}  # id -> number of rows, for repeated ids only
        self.candidate_repeats: dict[str, int] = {}
        self.fields_matched = 0
        self.fields_total = 0
        # What the pairing matched for each repeated id, so that it can be replaced by the
        # "last row wins" count (_score_final_repeats). Before an id's first repeat there is at
        # most one row of it per side, so at most one pairing — of its first rows, which the
        # recount can redo; `first_rows_paired` says whether it happened. From the first
        # repeat on, every pairing of the id is summed in `repeat_matched`.
        self.repeat_matched: dict[str, int] = {}
        self.first_rows_paired: set[str] = set()
        # For the repeated ids whose first rows were still among the recent rows at the first
        # repeat: what the first rows contributed, then the last row of each side so far.
        self.repeat_rows: dict[str, RepeatRows] = {}
        self.recent = RecentRows(
            {_IN_EXPECTED: expected.file_ids, _IN_CANDIDATE: candidate.file_ids}
        )
        self._lookup_budget = LOOKUP_BUDGET
        self.order_ok = True
        # Whether the id lists were seen to differ at a position both files have (not merely
        # in length): what a join over the first parts of two files tells about the whole.
        self.order_mismatch = False

    def keep_bulk_ids(self) -> list[str]:
        """From now on, keep every id registered in bulk; the list they go to."""
        self.bulk_ids = []
        return self.bulk_ids

    # -- one side at a time --------------------------------------------------------------

    def _register(self, file_id: str, bit: int, repeats: dict[str, int]) -> None:
        flags = self.seen.get(file_id)
        if flags is None:
            flags = _IN_BOTH if file_id in self.registered else 0
        if flags & bit:
            repeats[file_id] = repeats.get(file_id, 1) + 1
            if file_id not in self.repeat_matched:
                self.repeat_matched[file_id] = 0
                if flags == _IN_BOTH:  # both first rows taken, so paired with each other
                    self.first_rows_paired.add(file_id)
                if self._lookup_budget > 0:
                    self._recover_first_rows(file_id, flags)
            return
        self.seen[file_id] = flags | bit
        if not flags:
            self.registered.add(file_id)
        if bit == _IN_EXPECTED:
            self.expected_distinct += 1
        else:
            self.candidate_distinct += 1
        if flags:
            self.in_both += 1

    def _recover_first_rows(self, file_id: str, flags: int) -> None:
        """At an id's first repeat: its first row on each side that has one, from the recent
        rows (each side has registered at most one row of it so far, so a row found is it)."""
        first_expected = first_candidate = None
        if flags & _IN_EXPECTED:
            record, work = self.recent.find(file_id, _IN_EXPECTED)
            self._lookup_budget -= work
            if record is None:
                return
            first_expected = record_fields(record)
        if flags & _IN_CANDIDATE:
            record, work = self.recent.find(file_id, _IN_CANDIDATE)
            self._lookup_budget -= work
            if record is None:
                return
            first_candidate = record_fields(record)
        rows = RepeatRows(first_expected, first_candidate)
        if first_expected is not None:
            rows.expected_keys = self.compare.keys(first_expected)
            if first_candidate is not None:
                rows.first_pair_matched = self.compare.matches(first_expected, first_candidate)
        self.repeat_rows[file_id] = rows

    def take_expected(self, record: Record) -> None:
        fields = record_fields(record)
        file_id = self.expected.file_id(fields)
        self.expected_rows += 1
        if not file_id:
            if file_id is None:
                self.expected_none_ids += 1
            else:
                self.expected_empty_ids += 1
            return
        self._register(file_id, _IN_EXPECTED, self.expected_repeats)
        keys = self.compare.keys(fields)
        self.fields_total += keys
        if self.repeat_rows:
            tracked = self.repeat_rows.get(file_id)
            if tracked is not None:
                tracked.last_expected = fields
                tracked.expected_keys += keys
        self.recent.add_row(record, _IN_EXPECTED)
        partner = self.pending_candidate.pop(file_id, None)
        if partner is None:
            self.pending_expected[file_id] = record
            unpaired = len(self.pending_expected)
            if (
                unpaired > self.unpaired_limit
                and unpaired > self.unpaired_share * self.expected_rows
            ):
                raise TooManyUnpaired
        else:
            self._add_matched(file_id, self.compare.matches(fields, record_fields(partner)))

    def take_candidate(self, record: Record) -> None:
        fields = record_fields(record)
        file_id = self.candidate.file_id(fields)
        self.candidate_rows += 1
        if not file_id:
            self.candidate_falsy_ids += 1
            return
        self._register(file_id, _IN_CANDIDATE, self.candidate_repeats)
        if self.repeat_rows:
            tracked = self.repeat_rows.get(file_id)
            if tracked is not None:
                tracked.last_candidate = fields
        self.recent.add_row(record, _IN_CANDIDATE)
        partner = self.pending_expected.pop(file_id, None)
        if partner is None:
            self.pending_candidate[file_id] = record
            unpaired = len(self.pending_candidate)
            if (
                unpaired > self.unpaired_limit
                and unpaired > self.unpaired_share * self.candidate_rows
            ):
                raise TooManyUnpaired
        else:
            self._add_matched(file_id, self.compare.matches(record_fields(partner), fields))

    def _add_matched(self, file_id: str, matched: int) -> None:
        self.fields_matched += matched
        if file_id in self.repeat_matched:
            self.repeat_matched[file_id] += matched

    # -- runs of identical records -------------------------------------------------------

    def take_identical_run(self, records: list[Record]) -> None:
        """Records equal on both sides, at the same positions, under the same header."""
        ids = self._run_ids(records)
        if (
            all(ids) and self._register_run(cast("list[str]", ids))  # all(ids): no None among them
        ):
            keys = len(records) * self.compare.named_keys + self._rows_with_extra_fields(records)
            self.fields_total += keys
            self.fields_matched += keys
            self.recent.add_run(records)
            return
        # An empty or repeated id somewhere in the run: the general path settles every case.
        for record in records:
            self.take_expected(record)
            self.take_candidate(record)

    def take_aligned_run(
        self,
        expected: list[Record],
        candidate: list[Record],
        changed: list[int],
        changed_ids: list[str | None],
    ) -> None:
        """Records at the same positions on both sides, under the same header, with the same
        ids, and equal but at the positions `changed` (rows imported in their place with a
        field wrong), whose ids are `changed_ids`: settled as a whole, as `take_identical_run`
        settles equal records."""
        if not changed:
            self.take_identical_run(expected)
            return
        every_row = len(changed) == len(expected)  # a field wrong in every row of the run
        ids = changed_ids if every_row else self._run_ids(expected)
        if all(ids) and self._register_run(cast("list[str]", ids)):
            # Row by row, each pair would be registered and paired with each other (no id of
            # the run was seen before, none repeats): the sums are the same.
            if every_row:
                changed_keys, matched, _ = self.compare.compare_pairs(expected, candidate)
                # The run's keys are its changed rows' keys: no comma count needed.
                keys = changed_keys
            else:
                changed_keys, matched, _ = self.compare.compare_pairs(
                    [expected[position] for position in changed],
                    [candidate[position] for position in changed],
                )
                keys = len(expected) * self.compare.named_keys
                keys += self._rows_with_extra_fields(expected)
            self.fields_total += keys
            self.fields_matched += keys - changed_keys + matched
            self.recent.add_pair(expected, candidate)
            return
        for expected_record, candidate_record in zip(expected, candidate, strict=True):
            self.take_expected(expected_record)
            self.take_candidate(candidate_record)

    def _register_run(self, ids: list[str]) -> bool:
        """Count a run's ids as seen on both sides, if none of them was seen before."""
        registered = self.registered
        if not registered.isdisjoint(ids):
            return False
        # Added straight to the one set, without a set of the run's own: an id repeated within
        # the run shows as fewer new entries, and then every id of the run is taken out again
        # (none was registered before it, as checked above).
        before = len(registered)
        registered.update(ids)
        if len(registered) - before != len(ids):
            registered.difference_update(ids)
            return False
        if self.bulk_ids is not None:
            self.bulk_ids += ids
        count = len(ids)
        self.expected_rows += count
        self.candidate_rows += count
        self.expected_distinct += count
        self.candidate_distinct += count
        self.in_both += count
        return True

    def _run_ids(self, records: list[Record]) -> list[str | None]:
        return self.expected.file_ids(records)

    def _rows_with_extra_fields(self, records: list[Record]) -> int:
        """How many records have more fields than the header (DictReader's None key)."""
        width = self.expected.width
        if _plain_widths is not None and _plain_widths(records, width, QuotedRecord):
            return 0  # compiled: every record exactly as wide as the header, counted in place
        separators = width - 1
        try:
            # Commas in the text bound the field separators from above (quoted fields may
            # hold commas), so only records with more commas than the header need a look.
            commas = list(map(str.count, records, repeat(",")))  # type: ignore[arg-type]
        except TypeError:  # a multi-line record (a list) among them
            commas = [len(record_fields(record)) - 1 for record in records]
        if commas.count(separators) == len(commas):
            return 0  # every record exactly as wide as the header (a C-level count)
        # `operator.gt`, not the bound `separators.__lt__`: a slot wrapper costs more per call.
        over = list(compress(records, map(gt, commas, repeat(separators))))
        if not over:
            return 0
        return sum(len(record_fields(record)) - 1 > separators for record in over)

    # -- both streams --------------------------------------------------------------------

    def run(self, expected: Iterator[Batch], candidate: Iterator[Batch]) -> None:
        left = Cursor(expected)
        right = Cursor(candidate)
        same_header = self.compare.same_header
        while True:
            if (
                same_header
                and not left.available()
                and not right.available()
                and self._take_identical_batches(left, right)
            ):
                continue
            if not (left.fill(2) and right.fill(2)):
                break
            if same_header:
                # A row with a field wrong, in its place, leaves the files aligned: the run goes
                # on past it instead of ending there and settling it one row at a time (pilot
                # §7, a register with defects: most of them are of this kind). One header: the
                # expected layout cuts both sides' ids.
                run, changed, changed_ids = aligned_prefix(left, right, self.expected.file_ids)
                if run:
                    self.take_aligned_run(
                        left.records[left.index : left.index + run],
                        right.records[right.index : right.index + run],
                        changed,
                        changed_ids,
                    )
                    left.index += run
                    right.index += run
                    continue
            self._step(left, right)
        if left.available() or right.available():
            self.order_ok = False  # one id list is longer than the other
        for record in left.drain():
            self.take_expected(record)
        for record in right.drain():
            self.take_candidate(record)

    def _take_identical_batches(self, left: Cursor, right: Cursor) -> bool:
        """While both files are byte-identical piece by piece, parse only the expected one."""
        expected_batch = left.next_batch()
        candidate_batch = right.next_batch()
        if expected_batch is not None and candidate_batch is not None:
            text = expected_batch.text
            if text is not None and text == candidate_batch.text:
                records = expected_batch.records()
                if expected_batch.text is not None:  # the fast path took it: so it would here
                    candidate_batch.skip()
                    self.take_identical_run(records)
                    return True
        left.push(expected_batch)
        right.push(candidate_batch)
        return False

    def _step(self, left: Cursor, right: Cursor) -> None:
        """Settle the record at each cursor when they differ; find the way back to alignment."""
        expected_record = left.records[left.index]
        candidate_record = right.records[right.index]
        expected_id = self.expected.file_id(record_fields(expected_record))
        candidate_id = self.candidate.file_id(record_fields(candidate_record))
        if expected_id == candidate_id:
            # Same id (or both missing) at the same position: the order check holds here.
            left.index += 1
            right.index += 1
            self.take_expected(expected_record)
            self.take_candidate(candidate_record)
            return
        self.order_ok = False
        self.order_mismatch = True  # both cursors are at the same position until now
        # Rows missing from, or added to, one side: skip to where the other side resumes.
        left.fill(RESYNC_WINDOW)
        right.fill(RESYNC_WINDOW)
        ahead_left = left.find(candidate_record)
        ahead_right = right.find(expected_record)
        if ahead_left and (not ahead_right or ahead_left <= ahead_right):
            for _ in range(ahead_left):
                self.take_expected(left.records[left.index])
                left.index += 1
            return
        if ahead_right:
            for _ in range(ahead_right):
                self.take_candidate(right.records[right.index])
                right.index += 1
            return
        left.index += 1
        right.index += 1
        self.take_expected(expected_record)
        self.take_candidate(candidate_record)


__all__ = ["LockstepJoin", "RepeatRows", "TooManyUnpaired"]
