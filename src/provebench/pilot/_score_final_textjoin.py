"""The keyed join's second road: candidate rows matched to expected rows by their whole text.

The id join (`_score_final_idjoin`) goes first; this road scores the candidates it declines
(above all, one with a row whose id is empty or missing) when the files allow it.

An unordered candidate (`_score_final_keyed`) is usually the expected register in another
order, with at most a few rows of its own. When both files share one header of distinct names
that holds `file_id`, and every expected record is one line of exactly that width with a
non-empty id of its own, an expected row IS its record's text: a candidate record with the same
text is that row (same id, every field equal, since one line of text parses one way). So the
rows are paired by text, with set operations that run at C speed, and no field is compared:

* the expected records go into a set, `pending`; the records of each batch of candidate records
  found in it (one intersection) are taken out of it. When every record of the batch is found,
  each was an expected row met for the first time;
* otherwise the batch's *leftovers* — records that are no expected row, or an expected row met
  in an earlier batch (a repeat) — are the records not found. Only they, and the ids they carry,
  are then looked at row by row: the last candidate row of such an id decides its fields ("last
  row wins", as the published `ck`), read again from the candidate file only when that row's
  place relative to the expected row's first copy is not known. (A second copy of an expected
  row within the batch where it is met first is no leftover: it changes no count, repeats being
  counted from the rows and the distinct ids);
* every other id has exactly one candidate row, equal to its expected row: it counts in every
  metric as a match, in bulk.

The counts are the digest join's (`KeyedJoin`), so `score_final_state` scores both alike. When
the files do not qualify — another candidate header, a repeated or empty expected id, a short,
long or multi-line expected record — this road returns `Declined.NOT_PLAIN` and the digest join
scores instead, from the top of both files. When the leftovers grow past `LEFTOVER_LIMIT`, or
past `LEFTOVER_SHARE` of the candidate rows read (a candidate whose rows nearly all differ), it
returns `Declined.ROWS_DIFFER`, and the digest join scores. That case is mostly seen before the
expected file is read whole: lines sampled all over the candidate first (`_Foretaste`) are
looked up among the expected records as they are read. Faults are found with the same record
stream (`CsvRecordStream`), the expected file first, so bad input is refused with the same
message on either road.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from enum import Enum
from itertools import compress, repeat
from operator import is_, ne
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.pilot._score_final_compiled import COMPILED
from provebench.pilot._score_final_counts import KeyedJoin
from provebench.pilot._score_final_csv import (
    CsvRecordStream,
    QuotedRecord,
    Record,
    record_fields,
    window_lines,
)
from provebench.pilot._score_final_layout import FieldComparison, RowLayout, wanted_rows

_plain_widths = COMPILED.plain_widths

# Leftover candidate records held (with their places) before this road gives way to the digest
# join: at most this many (about 30 MiB for the pilot's register) ...
LEFTOVER_LIMIT = 1 << 17
# ... and, past a floor, at most this share of the candidate rows read: a candidate whose rows
# mostly differ is known after its first batch, not after holding thousands of its rows.
LEFTOVER_FLOOR = 4096
LEFTOVER_SHARE = 0.125
# Lines of the candidate, taken at this many places of this many bytes each (≈6,800 lines of
# the pilot's register), are looked up among the expected records as they are read (see
# `_Foretaste`): with at least this many lines, once this share of the expected file is read.
# A candidate of exact copies has found about that share of them by then; one whose rows nearly
# all differ has found none, and goes to the digest join without reading the rest.
FORETASTE_PLACES = 8
FORETASTE_PLACE_BYTES = 1 << 17
FORETASTE_MIN_LINES = 1024
FORETASTE_SHARE_READ = 0.1


class Declined(Enum):
    """Why the text join gives way, and so which road scores instead."""

    NOT_PLAIN = "the files are not for the text join: the digest join scores them"
    ROWS_DIFFER = "most candidate rows are no expected row: the digest join scores them"


class _NotPlain(Exception):
    """The files do not qualify for the text join: the digest join scores them."""


class _RowsDiffer(_NotPlain):
    """Most candidate rows are no expected row: paired by id, they are compared field by
    field (`_score_final_idjoin`)."""


def text_join(
    expected_csv: str | Path, candidate_csv: str | Path, sizes: dict[str, int]
) -> KeyedJoin | Declined:
    """The counts by whole-text pairing, or why the files do not qualify."""
    foretaste = _Foretaste(candidate_csv, expected_csv)
    try:
        with CsvRecordStream(expected_csv, **sizes) as expected:
            layout = RowLayout(expected.header)
            if foretaste.header_known and foretaste.header != expected.header:
                return Declined.NOT_PLAIN  # rows of another header never equal ours as text
            lines = _expected_lines(expected, layout, foretaste, _DistinctIds())
        with CsvRecordStream(candidate_csv, **sizes) as candidate:
            if candidate.header != expected.header:
                return Declined.NOT_PLAIN  # rows of another header never equal ours as text
            pairing = _Pairing(lines, layout)
            for batch in candidate.batches():
                pairing.take(batch.records())
    except _RowsDiffer:
        return Declined.ROWS_DIFFER
    except _NotPlain:
        return Declined.NOT_PLAIN
    return pairing.counts(candidate_csv, sizes)


class _Foretaste:
    """The candidate's header, and lines from all over it, read before the expected file: the
    header decides at once, and the sampled lines, looked up among the expected records as they
    are read, tell early when the candidate's rows mostly differ from them.

    The sample is taken at `FORETASTE_PLACES` places spread over the candidate file, so that it
    is spread over the expected file too whatever the candidate's order (a candidate in reverse
    order has its first rows at the end of the expected file). Lines are cut naively: a line
    that is no whole record just matches nothing. A fault in the candidate is not raised here
    but by its full read, after the expected file's (the published script reads the expected
    file first, and names it when both are bad).
    """

    def __init__(self, candidate_csv: str | Path, expected_csv: str | Path) -> None:
        self.header_known = False
        self.header: list[str] | None = None
        self.lines: set[str] = set()
        self.expected_chars = 1
        try:
            with CsvRecordStream(candidate_csv, chunk_bytes=1 << 16) as stream:
                self.header = stream.header
                self.header_known = True
            self.lines = _spread_lines(candidate_csv)
            self.expected_chars = max(Path(expected_csv).stat().st_size, 1)
        except (ProvebenchError, OSError):
            self.lines = set()  # nothing to go on: the full reads decide
        self.chars_read = 0
        self.found = 0

    def see(self, text_chars: int, records: list[Record]) -> None:
        """Count the sampled lines among a batch of expected records; give way when, a share of
        the expected file in, fewer than half of the copies to be expected have been found."""
        sample = len(self.lines)
        if sample < FORETASTE_MIN_LINES:
            return
        self.found += len(self.lines.intersection(records))
        self.chars_read += text_chars
        share_read = self.chars_read / self.expected_chars
        if share_read >= FORETASTE_SHARE_READ and self.found < 0.5 * sample * share_read:
            raise _RowsDiffer  # most sampled rows are no expected row: give way now


def _spread_lines(path: str | Path) -> set[str]:
    """Whole lines from `FORETASTE_PLACES` evenly spread places of a file (not its header),
    each `FORETASTE_PLACE_BYTES` long, cut naively (`window_lines`)."""
    lines: set[str] = set()
    size = Path(path).stat().st_size
    for place in range(FORETASTE_PLACES):
        lines.update(window_lines(path, size * place // FORETASTE_PLACES, FORETASTE_PLACE_BYTES))
    lines.discard("")
    return lines


class _DistinctIds:
    """The hash of every expected id: distinct hashes prove distinct ids, at half the memory of
    the ids themselves. Two ids with one hash (a repeat, or, rarely, a collision of the
    process's randomised `hash`) send the files to the digest join, whose result is the same."""

    def __init__(self) -> None:
        self.hashes: set[int] = set()

    def add(self, ids: list[str]) -> None:
        hashes = self.hashes
        before = len(hashes)
        hashes.update(map(hash, ids))
        if len(hashes) - before != len(ids):
            raise _NotPlain  # a repeated expected id


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


def _expected_lines(
    stream: CsvRecordStream,
    layout: RowLayout,
    foretaste: _Foretaste,
    distinct: _DistinctIds,
) -> list[Record]:
    """Every expected record, each one line as wide as the header with a non-empty id, which
    `distinct` proves to be its own."""
    check_plain_layout(layout)
    lines: list[Record] = []
    for batch in stream.batches():
        text_chars = len(batch.text or "")
        records = batch.records()
        check_plain_records(records, layout.width)
        foretaste.see(text_chars, records)
        ids = layout.file_ids(records)
        if not all(ids):
            raise _NotPlain  # an empty expected id
        distinct.add(ids)  # type: ignore[arg-type]
        lines += records
    return lines


class _Pairing:
    """The candidate's records taken out of the set of expected records, batch by batch."""

    def __init__(self, lines: list[Record], layout: RowLayout) -> None:
        self.lines = lines
        self.layout = layout
        self.pending: set[Record] = set(lines)  # every expected record is a str
        self.position = 0
        self.order_ok = True
        # Candidate records that paired no expected row the first time, with their places.
        self.leftovers: list[tuple[int, Record]] = []

    def take(self, records: list[Record]) -> None:
        count = len(records)
        start = self.position
        if self.order_ok:
            expected = self.lines[start : start + count]
            if expected != records:
                # Equal records have equal ids; unequal ones may still have (a field changed
                # in place): the published check compares the id lists. Only as far as the
                # expected rows go: past them the order is the row counts' question (and, in
                # a part of the files, the next part's).
                layout = self.layout
                common = records if len(expected) == count else records[: len(expected)]
                self.order_ok = layout.file_ids(expected) == layout.file_ids(common)
        self.position += count
        met = self.take_out(records)
        if met is not None:
            self.unpaired(records, start, met)

    def take_out(self, records: list[Record]) -> set[Record] | None:
        """Take the expected rows among the records out of `pending`. None when every record
        was an expected row met for the first time; else the records taken out, as a set: the
        others paired no expected row here (a copy of a record taken out, within the batch,
        did: it changes no count)."""
        pending = self.pending
        try:
            met = pending.intersection(records)
        except TypeError:  # a record spanning lines (a list) is never an expected one
            met = pending.intersection(
                [record for record in records if record.__class__ is not list]
            )
        # Only taken out, never put in: `pending` keeps its table (a symmetric difference puts
        # the others in, and so grows and rebuilds it).
        pending -= met
        return None if len(met) == len(records) else met

    def unpaired(self, records: list[Record], start: int, met: set[Record]) -> None:
        """What becomes of the records not `met` (that paired no expected row): leftovers."""
        self._hold_leftovers(records, start, met)

    def _hold_leftovers(self, records: list[Record], start: int, met: set[Record]) -> None:
        # A second copy within the batch of an expected row met first here is no leftover: it
        # changes no count (the repeat is counted from the rows and the distinct ids), and when
        # the id also has a row of its own, the last row is found by reading again.
        leftovers = self.leftovers
        leftovers += [
            (start + offset, record)
            for offset, record in enumerate(records)
            if record.__class__ is list or record not in met
        ]
        check_leftovers(len(leftovers), self.position)

    def counts(self, candidate_csv: str | Path, sizes: dict[str, int]) -> KeyedJoin:
        join, compare = bulk_counts(
            self.layout,
            expected_rows=len(self.lines),
            unmet=len(self.pending),
            candidate_rows=self.position,
            order_ok=self.order_ok,
        )
        if self.leftovers:
            count_leftovers(
                join,
                self.layout,
                compare,
                self.leftovers,
                self.expected_rows_of,
                candidate_csv,
                sizes,
                copies_follow=True,
            )
        return finish(join)

    def expected_rows_of(self, wanted: Collection[str]) -> dict[str, tuple[Record, bool]]:
        """The expected record of each wanted id that these expected rows have, and whether it
        is still pending (no candidate record was that row)."""
        ids = self.layout.file_ids(self.lines)
        hits = list(map(wanted.__contains__, ids))
        pending = self.pending
        return {
            file_id: (record, record in pending)
            for file_id, record in zip(compress(ids, hits), compress(self.lines, hits), strict=True)
            if file_id is not None  # always: an id is wanted only when it is a str
        }


def check_leftovers(leftovers: int, rows_read: int) -> None:
    """Give way to the digest join when leftovers pass the limit or their share of the rows."""
    if leftovers > LEFTOVER_LIMIT or (
        leftovers > LEFTOVER_FLOOR and leftovers > LEFTOVER_SHARE * rows_read
    ):
        raise _RowsDiffer  # rows mostly differ: compared field by field on another road


def bulk_counts(
    layout: RowLayout, *, expected_rows: int, unmet: int, candidate_rows: int, order_ok: bool
) -> tuple[KeyedJoin, FieldComparison]:
    """The counts as if every candidate row were an expected row met once: corrected below
    for the ids the leftovers carry."""
    compare = FieldComparison(layout, layout)
    named = compare.named_keys
    met = expected_rows - unmet  # expected rows with a copy in the candidate
    join = KeyedJoin()
    join.expected_rows = join.expected_distinct = expected_rows
    join.candidate_rows = candidate_rows
    join.order_ok = order_ok and candidate_rows == expected_rows
    join.fields_total = expected_rows * named
    join.candidate_distinct = join.in_both = met
    join.fields_matched = met * named
    return join, compare


def finish(join: KeyedJoin) -> KeyedJoin:
    truthy_rows = join.candidate_rows - join.candidate_falsy_ids
    join.candidate_repeats = truthy_rows - join.candidate_distinct
    return join


def count_leftovers(
    join: KeyedJoin,
    layout: RowLayout,
    compare: FieldComparison,
    leftovers: list[tuple[int, Record]],
    expected_rows_of: Callable[[Collection[str]], dict[str, tuple[Record, bool]]],
    candidate_csv: str | Path,
    sizes: dict[str, int],
    *,
    copies_follow: bool,
) -> None:
    """Correct the bulk counts for the ids the leftover records (in file order) carry.

    `copies_follow`: a leftover that is a copy of its id's expected row comes after the copy
    that was paired (true of one pass, which meets the rows in file order), so the id's last
    leftover is its last row. Without it, every such id's last row is read again."""
    records = [record for _, record in leftovers]
    ids = layout.file_ids(records)
    join.candidate_falsy_ids = len(ids) - sum(map(bool, ids))
    last: dict[str, Record] = {}  # each touched id's last leftover record
    copied: set[str] = set()  # ids with a later copy of their expected row among them
    for file_id, record in zip(ids, records, strict=True):
        if file_id:
            last[file_id] = record
    expected = expected_rows_of(last)
    if copies_follow:
        for file_id, record in zip(ids, records, strict=True):
            if file_id and (found := expected.get(file_id)) is not None and found[0] == record:
                copied.add(file_id)
    unresolved: set[str] = set()
    for file_id, last_record in last.items():
        found = expected.get(file_id)
        if found is None:  # an id the expected file does not have
            join.candidate_distinct += 1
            continue
        expected_record, still_pending = found
        if still_pending:  # only rows of its own: a new distinct id
            join.candidate_distinct += 1
            join.in_both += 1
        else:
            # Counted in bulk as one matching row; its last row is looked at here.
            join.fields_matched -= compare.named_keys
            if file_id not in copied:
                # The first copy of its expected row, and a row of its own: which came
                # last is only known by reading the candidate again.
                unresolved.add(file_id)
                continue
            # A leftover copy comes after the first copy (and after any copy within the
            # first copy's batch): the last leftover is the id's last row.
        join.fields_matched += compare.matches(
            record_fields(expected_record), record_fields(last_record)
        )
    if unresolved:
        for file_id, record in _last_rows(candidate_csv, unresolved, sizes).items():
            join.fields_matched += compare.matches(
                record_fields(expected[file_id][0]), record_fields(record)
            )


def _last_rows(
    candidate_csv: str | Path, wanted: set[str], sizes: dict[str, int]
) -> dict[str, Record]:
    """The last candidate record of each wanted id."""
    last: dict[str, Record] = {}
    for ids, records in wanted_rows(candidate_csv, wanted, sizes):
        last.update(zip(ids, records, strict=True))
    return last


__all__ = [
    "FORETASTE_MIN_LINES",
    "FORETASTE_PLACES",
    "FORETASTE_PLACE_BYTES",
    "FORETASTE_SHARE_READ",
    "LEFTOVER_FLOOR",
    "LEFTOVER_LIMIT",
    "LEFTOVER_SHARE",
    "Declined",
    "text_join",
]
