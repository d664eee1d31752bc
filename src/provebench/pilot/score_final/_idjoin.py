"""The id join: rows paired by id, their fields compared in bulk.

Every pair of plain registers is scored here — in order or not, every row equal or every row
with a field changed (a wrong time zone, a duration off by one) — each file read in one pass.
Plain means: one header of distinct names holding
`file_id`, each expected record one line of exactly that width, with an id of its own. (The
published road, `_published`, scores what this road declines.)

* The expected records are kept in a dict keyed by the hash of their id (an `int`: less memory
  than the id strings). Every key new as it goes in proves every id distinct (a repeated id, or
  two ids of one hash, declines: the published road, which compares the ids themselves, gives the
  same counts).
* Each batch of candidate records is looked up by the hashes of its ids, at C speed. A record
  equal to its expected record is that row (same id, every field equal). The others are
  compared field by field as the other joins compare them (`FieldComparison`), their ids
  checked equal (two ids of one hash are never taken for one).
* Each expected id met has its record replaced by `_MET` in the dict (the record stays in a
  list in file order, for the repeats): a later candidate row of that id is a repeat; an id the
  expected rows lack is kept by its hash, and a second row of it is a repeat. A repeat is held
  (`HELD_LIMIT` at most) until the candidate is read; then the first row of each repeated id is
  read again (its expected row was kept), and the id's fields are counted from its last row
  instead of its first (the published "last row wins"), its rows' ids checked equal. A
  candidate row with an empty or missing id is counted as such (it pairs with nothing, and no
  order check can pass). Another candidate header declines.
* The order check compares the two files' sequences of id hashes: a different hash at a place
  is a different id; the same hashes at every place are the same ids, since every candidate row
  was paired with the expected row of its hash, their ids checked equal.

On files of at least `TWO_PARTS_MIN_BYTES`, with two cores, the ids are shared out between two
processes by the parity of their hash: each reads both files whole, keeps and pairs only the rows
of its ids, and the sums of both are the counts (an id's rows, in both files, are all on one
side). This process also checks the order.

Where the compiled functions were built (`_score_final_compiled`), a piece of text that the
stream would cut at its line ends alone (LF or CRLF) has its ids hashed and its lines shared out
in one pass (`own_lines`): only the part's own lines are made into strings, about half of them,
and those holding a quote are parsed as the stream parses them. Other pieces are split into
records first (`hash_first_fields`, then the Python road). A batch's hashes are looked up 128
at a time, their cache misses side by side, and each found is marked met just after, while its
entry is still in the cache (`take_met`). Each answers exactly what the Python road answers, or
declines to it.

When it answers, the counts are the published road's (`KeyedJoin`), so `score_final_state` scores
all three roads alike; the tests hold them equal on every case. Bad input is refused by the same
record stream (`CsvRecordStream`), the expected file first, with the same message.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from itertools import compress, repeat
from operator import and_, is_, is_not, ne, not_
from typing import Any, Final, cast

from provebench._errors import ProvebenchError
from provebench.pilot.score_final._compiled import COMPILED
from provebench.pilot.score_final._counts import KeyedJoin, finish
from provebench.pilot.score_final._csv import (
    Batch,
    CsvRecordStream,
    CsvSource,
    QuotedRecord,
    Record,
    line_ends,
    quoted_lines_fields,
    source_size,
)
from provebench.pilot.score_final._fork import Channel, LostChild, can_fork, forked_child
from provebench.pilot.score_final._layout import FieldComparison, RowLayout

_plain_widths = COMPILED.plain_widths
_hash_first_fields = COMPILED.hash_first_fields
_own_lines = COMPILED.own_lines
_take_met = COMPILED.take_met

# Put in place of an expected record once a candidate row had its id. An expected record is
# never empty (its id is not), so an empty text is never a record.
_MET: Final = ""
# The hash of an id (the tests put one of many collisions here: an answer must not change).
_id_hash: Callable[[str], int] = hash
# Below this size (either file) one process is quicker than two.
TWO_PARTS_MIN_BYTES = 32 << 20
# Read size: a quarter of the record stream's default (a batch's records are held next to the
# expected rows, in each of two processes; measured: no slower).
_PIECE_BYTES = 1 << 20

_ALL: Final = -1  # the part of one process: every id
# Later rows of repeated candidate ids held (with their texts) before this road gives way to
# the published road: at most this many in a process (about 30 MiB for the pilot's register).
HELD_LIMIT = 1 << 17
# Kept expected records whose hashes are made again at once when repeats are settled.
_SETTLE_SLICE = 1 << 14
# First candidate rows of ids that differ from their expected row, or that the expected rows
# lack, kept (≈3.5 MiB for the pilot's register) so that settling repeats reads nothing again;
# past this many, none are kept, and the candidate is read again if an id repeats.
FIRST_ROWS_KEPT = 1 << 14


class _NotPlain(Exception):
    """The files are not for this road: the published road scores them."""


def id_join(
    expected_csv: CsvSource, candidate_csv: CsvSource, sizes: dict[str, int]
) -> KeyedJoin | None:
    """The counts by id, or None when the files are not for this road."""
    paths = (expected_csv, candidate_csv)
    sizes = sizes or {"chunk_bytes": _PIECE_BYTES}
    try:
        if can_fork() and min(map(_size, paths)) >= TWO_PARTS_MIN_BYTES:
            join = _in_two_parts(paths, sizes)
            if join is not None:
                return join
        return _pair(paths, sizes, _ALL, check_order=True).counts()
    except _NotPlain:
        return None


def check_plain_layout(layout: RowLayout) -> None:
    """A header of distinct names that holds `file_id`: or these files are not plain."""
    width = layout.width
    if not width or len(layout.column) != width or layout.id_column is None:
        raise _NotPlain  # no header, a repeated name, or no file_id column


def check_plain_records(records: list[Record], width: int) -> None:
    """Each record one line, exactly `width` fields wide: or these files are not plain."""
    if _plain_widths is not None:
        plain = _plain_widths(records, width, QuotedRecord)  # compiled; None: not its records
        if plain is not None:
            if not plain:
                raise _NotPlain  # a short or long row
            return
    separators = width - 1
    try:
        commas = list(map(str.count, records, repeat(",")))  # type: ignore[arg-type]
    except TypeError:
        raise _NotPlain from None  # a record spanning lines (a list)
    # A plain record has its fields' commas only; a quoted one (a few in a register) is
    # looked at on its own, its commas may be inside a field.
    quoted = list(compress(records, map(is_, map(type, records), repeat(QuotedRecord))))
    if any(len(record.fields) != width for record in quoted):  # type: ignore[union-attr]
        raise _NotPlain  # a short or long row
    if commas.count(separators) != len(records) and not all(
        map(
            isinstance,
            compress(records, map(ne, commas, repeat(separators))),
            repeat(QuotedRecord),
        )
    ):
        raise _NotPlain  # a short or long row


def _size(path: CsvSource) -> int:
    try:
        return source_size(path)
    except OSError:
        return 0  # the stream names the fault


def _pair(
    paths: tuple[CsvSource, CsvSource], sizes: dict[str, int], part: int, *, check_order: bool
) -> _IdPairing:
    """Pair the candidate's rows of the ids of `part` (0 or 1: a parity of their hash; `_ALL`)
    with the expected ones."""
    with CsvRecordStream(paths[0], **sizes) as expected:
        layout = RowLayout(expected.header)
        check_plain_layout(layout)
        keyed = _ExpectedById(layout, part, check_order)
        for batch in expected.batches():
            keyed.add(batch)
    with CsvRecordStream(paths[1], **sizes) as candidate:
        if candidate.header != expected.header:
            raise _NotPlain  # the fields of another header do not line up with ours
        pairing = _IdPairing(keyed)
        del keyed
        for batch in candidate.batches():
            pairing.take(batch)
    pairing.settle(paths, sizes)
    return pairing


OwnRows = tuple[int, bytes | None, list[Record], list[int], int]


def _own_rows(layout: RowLayout, part: int, batch: Batch, keep_all: bool) -> OwnRows:
    """The batch's number of records, the hashes of their ids (every one, in order, as the bytes
    of an `array("q")`, when `keep_all`), the records of `part` (0 or 1: a parity of their id's
    hash; `_ALL`) with their hashes, and how many records have no id (an empty or missing
    one). Those are in none of the rest, and with any of them, `every` is None (no order check
    can pass: every expected id is non-empty)."""
    compiled = _id_hash is hash and layout.id_column == 0
    if compiled:
        rows = _own_lines_of(batch, part, keep_all)
        if rows is not None:
            return rows
    records = batch.records()
    count = len(records)
    if compiled and _hash_first_fields is not None:
        # Compiled: the ids cut, hashed and shared out in one pass (None for a record spanning
        # lines, a quoted or an empty id: the road below).
        hashed = _hash_first_fields(records, part, keep_all)
        if hashed is not None:
            return count, *hashed, 0
    ids = layout.file_ids(records)
    without_id = 0
    if not all(ids):
        with_id = list(map(bool, ids))
        without_id = count - sum(with_id)
        records = list(compress(records, with_id))
        ids = list(compress(ids, with_id))
        keep_all = False
    hashes = list(map(_id_hash, cast("list[str]", ids)))
    every = array("q", hashes).tobytes() if keep_all else None
    if part == _ALL:
        return count, every, records, hashes, without_id
    odd = map(and_, hashes, repeat(1))
    own = list(odd) if part else list(map(not_, odd))
    return count, every, list(compress(records, own)), list(compress(hashes, own)), without_id


def _own_lines_of(batch: Batch, part: int, keep_all: bool) -> OwnRows | None:
    """`_own_rows` of a batch still in text, compiled: the lines cut (at LF or CRLF ends, as the
    stream cuts them), their ids hashed and shared out in one pass, and only this part's lines
    made (about half the strings); the lines holding a quote parsed as the stream parses them.
    None, for the records' roads, where `own_lines` was not built or declines (an empty or a
    quoted id), or the text is not cut by its line ends alone (the batch is then untouched)."""
    text = batch.text
    if _own_lines is None or not text:
        return None
    crlf = line_ends(text)
    if crlf is None:
        return None
    rows = _own_lines(text, part, keep_all, crlf)
    if rows is None:
        return None
    count, every, lines, hashes, quoted = rows
    parsed = quoted_lines_fields([line for _, line in quoted])
    if parsed is None:
        return None  # a line holding a quote is no whole record: the stream reads the piece
    batch.skip()
    for (index, line), fields in zip(quoted, parsed, strict=True):
        if index >= 0:
            lines[index] = QuotedRecord.of(line, fields)
    return count, every, cast("list[Record]", lines), hashes, 0


class _ExpectedById:
    """The expected records of a part, by the hash of their id; a hash seen twice declines."""

    def __init__(self, layout: RowLayout, part: int, check_order: bool) -> None:
        self.layout = layout
        self.part = part
        self.records: dict[int, Record] = {}
        # The same records in file order: a met record is taken out of the dict, and this keeps
        # it for the repeats' settling (`_IdPairing.settle`).
        self.in_order: list[Record] = []
        self.rows = 0
        # Every expected id's hash, in file order, for the order check.
        self.order: array[int] | None = array("q") if check_order else None

    def add(self, batch: Batch) -> None:
        order = self.order
        count, every, records, hashes, without_id = _own_rows(
            self.layout, self.part, batch, order is not None
        )
        if without_id:
            raise _NotPlain  # an expected row without an id
        self.rows += count
        if order is not None and every is not None:
            order.frombytes(every)
        check_plain_records(records, self.layout.width)
        self.in_order += records
        keyed = self.records
        before = len(keyed)
        keyed.update(zip(hashes, records, strict=True))
        if len(keyed) - before != len(records):
            raise _NotPlain  # a repeated expected id (or two ids of one hash)


class _IdPairing:
    """The candidate's records of a part paired with the expected ones by id, batch by batch."""

    def __init__(self, expected: _ExpectedById) -> None:
        self.keyed = expected.records
        self.expected_in_order = expected.in_order
        self.expected_rows = expected.rows
        self.order = expected.order
        self.order_ok = True
        self.part = expected.part
        self.layout = expected.layout
        self.compare = FieldComparison(self.layout, self.layout)
        self.only_candidate: set[int] = set()  # the hashes of the ids the expected rows lack
        self.without_id = 0  # candidate rows with an empty or missing id
        # The later rows of ids with more than one candidate row, by hash, in file order.
        self.held: dict[int, list[Record]] = {}
        self.held_rows = 0
        self.expected_held: set[int] = set()  # those of them that are expected ids
        # Every first row that is not a copy of its expected row, while they are few (None
        # once they passed `FIRST_ROWS_KEPT`): with it, a copy is known by its absence.
        self.first_differing: dict[int, Record] | None = {}
        self.position = 0
        self.in_both = 0
        self.fields_matched = 0

    def take(self, batch: Batch) -> None:
        keep_all = self.order is not None
        count, every, records, hashes, without_id = _own_rows(
            self.layout, self.part, batch, keep_all
        )
        if without_id:
            # Counted by this process, which sees every row (as does the other one): the sum
            # of the parts leaves them out. No order check can pass.
            self.without_id += without_id
            self.order = None
            self.order_ok = False
        elif every is not None:
            self._check_order(every)
        self.position += count
        found = self._look_up(hashes)
        met = list(map(is_not, found, repeat(None)))
        if _MET in found:
            # Later rows of ids met earlier: held until the candidate is read (`settle`).
            again = list(map(is_, found, repeat(_MET)))
            self._hold(compress(hashes, again), compress(records, again), expected=True)
            met = list(map(and_, met, map(not_, again)))
        met_hashes = list(compress(hashes, met))
        if met_hashes:
            self._compare(
                met_hashes,
                list(compress(found, met)),  # type: ignore[arg-type]  # met: no None
                list(compress(records, met)),
            )
        if len(met_hashes) != len(records):
            new = list(map(is_, found, repeat(None)))
            self._take_new(list(compress(hashes, new)), list(compress(records, new)))

    def _take_new(self, hashes: list[int], records: list[Record]) -> None:
        """Count the rows of ids the expected rows lack; hold the later rows of each."""
        if not hashes:
            return
        only_candidate = self.only_candidate
        if only_candidate.isdisjoint(hashes):
            before = len(only_candidate)
            only_candidate.update(hashes)
            if len(only_candidate) - before == len(hashes):
                self._keep_first(hashes, records)
                return
            # A repeat within the batch. None of these hashes was there before: undone, and
            # taken row by row below.
            only_candidate.difference_update(hashes)
        again = []
        for file_hash in hashes:
            again.append(file_hash in only_candidate)
            only_candidate.add(file_hash)
        first = list(map(not_, again))
        self._keep_first(list(compress(hashes, first)), list(compress(records, first)))
        self._hold(compress(hashes, again), compress(records, again), expected=False)

    def _keep_first(self, hashes: list[int], records: list[Record]) -> None:
        """Keep first rows that are no copy of their expected row, while they are few."""
        kept = self.first_differing
        if kept is None:
            return
        kept.update(zip(hashes, records, strict=True))
        if len(kept) > FIRST_ROWS_KEPT:
            self.first_differing = None  # too many to hold: settling reads the candidate

    def _hold(self, hashes: Iterable[int], records: Iterable[Record], *, expected: bool) -> None:
        """Keep a later row of an id, in file order, for `settle`; past `HELD_LIMIT` rows,
        decline (the published road scores them)."""
        held = self.held
        for file_hash, record in zip(hashes, records, strict=True):
            held.setdefault(file_hash, []).append(record)
            self.held_rows += 1
            if expected:
                self.expected_held.add(file_hash)
        if self.held_rows > HELD_LIMIT:
            raise _NotPlain

    def settle(self, paths: tuple[CsvSource, CsvSource], sizes: dict[str, int]) -> None:
        """Correct the counts for the ids of more than one candidate row, once every row is read.

        The published scorer keeps the last row of an id (`ck`): its fields count, not those of
        the first row, counted as it was met. The first row of each such id was kept when it
        differed from its expected row (or had none), and is the expected row, which was kept,
        when it did not; only when there were too many differing rows to keep is it read again
        from the candidate file (this part's rows of those ids only). Every row of one hash
        must hold one id: two ids of one hash decline (the published road compares the ids
        themselves)."""
        if not self.held:
            return
        expected = self._kept_expected(self.expected_held)
        kept = self.first_differing
        if kept is None:
            first = self._first_rows(paths[1], sizes, set(self.held))
        else:
            first = {h: kept[h] if h in kept else expected[h] for h in self.held}
        for file_hash, later in self.held.items():
            if len(set(self.layout.file_ids([first[file_hash], *later]))) != 1:
                raise _NotPlain
        # The first row of an expected id was paired with its expected row, their ids seen
        # equal (`_compare`), and every later row holds the first one's id.
        paired = list(self.expected_held)
        expected_rows = [expected[file_hash] for file_hash in paired]
        _, first_matched, _ = self.compare.compare_pairs(
            expected_rows, [first[file_hash] for file_hash in paired]
        )
        _, last_matched, _ = self.compare.compare_pairs(
            expected_rows, [self.held[file_hash][-1] for file_hash in paired]
        )
        self.fields_matched += last_matched - first_matched

    def _kept_expected(self, wanted: set[int]) -> dict[int, Record]:
        """The kept expected record of each hash in `wanted`. Their hashes are made again, a
        slice of records at a time (no list of them is held for a case this rare, and no more
        than a slice's ids at once): ≈0.1 s for half a million records."""
        found: dict[int, Record] = {}
        kept = self.expected_in_order
        for start in range(0, len(kept), _SETTLE_SLICE):
            records = kept[start : start + _SETTLE_SLICE]
            hashes = list(map(_id_hash, cast("list[str]", self.layout.file_ids(records))))
            found.update(
                compress(zip(hashes, records, strict=True), map(wanted.__contains__, hashes))
            )
        return found

    def _first_rows(
        self, path: CsvSource, sizes: dict[str, int], wanted: set[int]
    ) -> dict[int, Record]:
        """The first row of each hash in `wanted` (of this part's ids) in the file."""
        rows: dict[int, Record] = {}
        with CsvRecordStream(path, **sizes) as stream:
            for batch in stream.batches():
                _, _, records, hashes, _ = _own_rows(self.layout, self.part, batch, False)
                for file_hash, record in compress(
                    zip(hashes, records, strict=True), map(wanted.__contains__, hashes)
                ):
                    rows.setdefault(file_hash, record)
                if len(rows) == len(wanted):
                    return rows
        raise _NotPlain  # a file changed since it was read: the published road reads it again

    def _look_up(self, hashes: list[int]) -> list[Record | None]:
        """The expected record of each hash (None: no expected id has it), each met one marked
        `_MET` in `keyed`: a hash met before, in this batch or an earlier one, finds `_MET`."""
        if _take_met is not None:
            # Compiled: looked up a chunk at a time, each entry marked while in the cache.
            found = _take_met(self.keyed, hashes, _MET)
            if found is not None:
                return found
        keyed = self.keyed
        found = list(map(keyed.get, hashes))
        met_hashes = list(compress(hashes, map(is_not, found, repeat(None))))
        if len(set(met_hashes)) == len(met_hashes):
            keyed.update(zip(met_hashes, repeat(_MET)))
            return found
        # A repeat within the batch: its first row finds the record, the later ones `_MET`.
        found = []
        for file_hash in hashes:
            record = keyed.get(file_hash)
            if record is not None:
                keyed[file_hash] = _MET
            found.append(record)
        return found

    def _check_order(self, hashes: bytes) -> None:
        """`hashes`: the bytes of an `array("q")` of the batch's id hashes, in order."""
        # The published check compares the whole id lists; past the expected rows, the row
        # counts answer it (`counts`).
        order = self.order
        if order is None:
            return
        start = self.position
        expected = order[start : start + len(hashes) // order.itemsize]
        if expected.tobytes() != hashes[: len(expected) * order.itemsize]:
            self.order = None  # no longer needed: its memory goes
            self.order_ok = False

    def _compare(self, hashes: list[int], expected: list[Record], candidate: list[Record]) -> None:
        """Count the fields of the paired rows that match (pilot §7 field accuracy); keep the
        rows that differ, while few (`_keep_first`)."""
        self.in_both += len(expected)
        differ = list(map(ne, expected, candidate))
        changed = differ.count(True)
        # Equal text on one line: every field equal.
        self.fields_matched += (len(expected) - changed) * self.compare.named_keys
        if not changed:
            return
        # Compared in place where the compiled comparison was built; otherwise each of the two
        # texts becomes its fields, which is most of the cost.
        _, matched, same_ids = self.compare.compare_pairs(
            list(compress(expected, differ)), list(compress(candidate, differ))
        )
        if same_ids != changed:
            raise _NotPlain  # two ids of one hash: the published road compares the ids
        self.fields_matched += matched
        if self.first_differing is not None:
            self._keep_first(list(compress(hashes, differ)), list(compress(candidate, differ)))

    def part_counts(self) -> dict[str, int]:
        """What this part adds to the counts of the other."""
        return {
            "in_both": self.in_both,
            "only_candidate": len(self.only_candidate),
            "fields_matched": self.fields_matched,
        }

    def counts(self, other_part: dict[str, int] | None = None) -> KeyedJoin:
        parts = [self.part_counts(), *([other_part] if other_part else [])]
        join = KeyedJoin()
        join.expected_rows = join.expected_distinct = self.expected_rows
        join.candidate_rows = self.position
        join.candidate_falsy_ids = self.without_id
        join.in_both = sum(part["in_both"] for part in parts)
        join.candidate_distinct = join.in_both + sum(part["only_candidate"] for part in parts)
        join.fields_total = self.expected_rows * self.compare.named_keys
        join.fields_matched = sum(part["fields_matched"] for part in parts)
        join.order_ok = self.order_ok and self.position == self.expected_rows
        return finish(join)


def _in_two_parts(paths: tuple[CsvSource, CsvSource], sizes: dict[str, int]) -> KeyedJoin | None:
    """The counts from two processes, each with the ids of one parity of their hash; None when
    one process must compute them (a child that failed)."""

    def odd_ids(channel: Channel) -> None:  # pragma: no cover - the forked child
        _serve_odd_ids(channel, paths, sizes)

    try:
        with forked_child(odd_ids) as channel:
            pairing = _pair(paths, sizes, 0, check_order=True)
            report = channel.receive()
            if report[0] == "declined":
                raise _NotPlain
            if report[0] != "ok":
                return None
            channel.complete = True
            return pairing.counts(report[1])
    except LostChild:
        return None


def _serve_odd_ids(
    channel: Channel, paths: tuple[CsvSource, CsvSource], sizes: dict[str, int]
) -> None:  # pragma: no cover - runs in the forked child
    report: tuple[Any, ...]
    try:
        report = ("ok", _pair(paths, sizes, 1, check_order=False).part_counts())
    except _NotPlain:
        report = ("declined",)
    except (ProvebenchError, OSError, UnicodeDecodeError):
        report = ("failed",)
    channel.send(report)


__all__ = ["TWO_PARTS_MIN_BYTES", "id_join"]
