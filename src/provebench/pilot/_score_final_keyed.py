"""The final-state counts by keyed join, for a candidate whose rows are not in expected order.

The lockstep pass (`_score_final_join`) is fast while both files keep the same order: equal runs
are settled in bulk and a missing or extra row is found by looking a few records ahead. On an
unordered candidate (a shuffled register) every look-ahead fails and every row waits unpaired;
past `SWITCH_UNPAIRED` unpaired rows on one side, `score_final_state` drops that pass and
scores here instead, from the start of both files (pilot §7 metrics, published semantics).

Both files are read with `csv.reader` over `open(path, encoding="utf-8-sig", newline="")`, as
the published script reads them (its `csv.DictReader` is `csv.reader` plus the mapping of
`RowLayout`). What is kept:

* a dict from each non-empty expected `file_id` to a 16-byte BLAKE2b digest of its LAST row
  (assignment is "last row wins"), and the list of every expected row's id, for the order check;
* the set of candidate ids seen (duplicates, the size of `ck`, the intersection);
* the ids whose last candidate row is not known to equal the expected last row
  (`mismatched`), with the digest of that candidate row.

A digest is only a proof of equality: it is taken over the row's fields projected onto the
expected header and joined by NUL, and only for a row as wide as its header whose fields hold
no NUL — then equal digests mean every `cr.get(k) == v` holds. Any other row (short, long, with
a NUL, a candidate header missing an expected column) has no digest and is compared field by
field, with `FieldComparison`, in a second read of the two files limited to the mismatched ids.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from hashlib import blake2b
from operator import itemgetter
from pathlib import Path

from provebench.pilot._score_final_join import FieldComparison, RowLayout

# Unpaired rows held on one side by the lockstep pass beyond which it gives way to the keyed
# join. An ordered candidate with defects holds a handful (each missing, extra or moved row is
# paired again within the look-ahead window); a shuffled one holds nearly every row it has read.
SWITCH_UNPAIRED = 4096

_SEPARATOR = "\x00"
_ABSENT = b""  # no digest is empty: marks an id the expected file does not have


class KeyedJoin:
    """The counts `score_final_state` turns into the published metrics."""

    def __init__(self) -> None:
        self.expected_rows = 0
        self.candidate_rows = 0
        self.expected_none_ids = 0
        self.expected_empty_ids = 0
        self.candidate_falsy_ids = 0
        self.expected_distinct = 0
        self.candidate_distinct = 0
        self.in_both = 0
        self.expected_repeats: dict[str, int] = {}  # id -> number of rows, for repeated ids
        self.candidate_repeats: dict[str, int] = {}
        self.fields_matched = 0
        self.fields_total = 0
        self.order_ok = True


class _ReadFault(Exception):
    """Bad bytes or a field over the limit: the lockstep pass names it exactly."""


Projection = Callable[[list[str]], tuple[str, ...]]
Digest = Callable[[list[str]], bytes | None]


class _Rows:
    """A file as `csv.DictReader` reads it: `header` (None for an empty file, [] for a blank
    first line), then every record that is not blank."""

    def __init__(self, path: str | Path) -> None:
        self._handle = Path(path).open(encoding="utf-8-sig", newline="")  # noqa: SIM115
        self._reader = csv.reader(self._handle)
        try:
            self.header: list[str] | None = next(self._reader, None)
        except (UnicodeDecodeError, csv.Error) as error:
            self.close()
            raise _ReadFault from error

    def __iter__(self) -> Iterator[list[str]]:
        try:
            for row in self._reader:
                if row:
                    yield row
        except (UnicodeDecodeError, csv.Error) as error:
            raise _ReadFault from error

    def close(self) -> None:
        self._handle.close()


def _digester(width: int, projection: Projection | None, values: int) -> Digest:
    """A row's digest under one header, or None where a digest would not prove equality."""
    if projection is None:
        return lambda row: None
    separators = values - 1

    def digest(row: list[str]) -> bytes | None:
        if len(row) != width:  # short: None values; long: the extra-fields key
            return None
        text = _SEPARATOR.join(projection(row))
        if text.count(_SEPARATOR) != separators:  # a field holds a NUL: not injective
            return None
        return blake2b(text.encode(), digest_size=16).digest()

    return digest


def _projections(expected: RowLayout, candidate: RowLayout) -> tuple[Projection | None, ...]:
    """Each side's fields in the order of the expected header's distinct names (for the
    candidate: None when it lacks one of them, as `cr.get(k)` is then None)."""
    names = list(expected.column)
    if not names:
        return (None, None)
    expected_columns = [expected.column[name] for name in names]
    expected_projection = _getter(expected_columns)
    if any(name not in candidate.column for name in names):
        return (expected_projection, None)
    return (expected_projection, _getter([candidate.column[name] for name in names]))


def _getter(columns: list[int]) -> Projection:
    if len(columns) == 1:  # itemgetter of one column gives the value, not a tuple
        column = columns[0]
        return lambda row: (row[column],)
    return itemgetter(*columns)


def keyed_join(expected_csv: str | Path, candidate_csv: str | Path) -> KeyedJoin | None:
    """The counts, or None on bad input (the caller's lockstep pass then names the fault)."""
    try:
        return _keyed_join(expected_csv, candidate_csv)
    except (_ReadFault, OSError):
        return None


def _keyed_join(expected_csv: str | Path, candidate_csv: str | Path) -> KeyedJoin:
    join = KeyedJoin()
    expected = _Rows(expected_csv)
    try:
        candidate = _Rows(candidate_csv)
    except BaseException:
        expected.close()
        raise
    try:
        expected_layout = RowLayout(expected.header)
        candidate_layout = RowLayout(candidate.header)
        compare = FieldComparison(expected_layout, candidate_layout)
        expected_projection, candidate_projection = _projections(expected_layout, candidate_layout)
        values = len(expected_layout.column)
        expected_digest = _digester(expected_layout.width, expected_projection, values)
        candidate_digest = _digester(candidate_layout.width, candidate_projection, values)
        digests, expected_ids = _take_expected(
            join, expected, expected_layout, expected_digest, compare
        )
        mismatched = _take_candidate(
            join, candidate, candidate_layout, candidate_digest, digests, expected_ids
        )
    finally:
        expected.close()
        candidate.close()
    del expected_ids
    # A last candidate row whose digest equals the expected last row's: every named key matches
    # (such rows are as wide as their header, so neither has the extra-fields key).
    join.fields_matched = (join.in_both - len(mismatched)) * compare.named_keys
    if mismatched:
        join.fields_matched += _compare_mismatched(expected_csv, candidate_csv, mismatched, compare)
    return join


def _take_expected(
    join: KeyedJoin, rows: _Rows, layout: RowLayout, digest: Digest, compare: FieldComparison
) -> tuple[dict[str, bytes | None], list[str | None]]:
    digests: dict[str, bytes | None] = {}
    ids: list[str | None] = []
    with_extra_fields: set[str] = set()
    width = layout.width
    file_id_of = layout.file_id
    for row in rows:
        file_id = file_id_of(row)
        ids.append(file_id)
        if not file_id:
            if file_id is None:
                join.expected_none_ids += 1
            else:
                join.expected_empty_ids += 1
            continue
        if file_id in digests:
            join.expected_repeats[file_id] = join.expected_repeats.get(file_id, 1) + 1
        digests[file_id] = digest(row)  # the last row wins, as in the published `ek`
        if len(row) > width:
            with_extra_fields.add(file_id)
        elif with_extra_fields:
            with_extra_fields.discard(file_id)
    join.expected_rows = len(ids)
    join.expected_distinct = len(digests)
    join.fields_total = len(digests) * compare.named_keys + len(with_extra_fields)
    return digests, ids


def _take_candidate(
    join: KeyedJoin,
    rows: _Rows,
    layout: RowLayout,
    digest: Digest,
    digests: dict[str, bytes | None],
    expected_ids: list[str | None],
) -> dict[str, bytes | None]:
    """Stream the candidate; the ids whose last candidate row is not proven equal."""
    seen: set[str] = set()
    mismatched: dict[str, bytes | None] = {}
    file_id_of = layout.file_id
    expected_count = len(expected_ids)
    position = in_both = 0
    order_ok = True
    for row in rows:
        file_id = file_id_of(row)
        if order_ok and (position >= expected_count or expected_ids[position] != file_id):
            order_ok = False  # the published check compares the whole id lists
        position += 1
        if not file_id:
            join.candidate_falsy_ids += 1
            continue
        wanted = digests.get(file_id, _ABSENT)
        if file_id in seen:
            join.candidate_repeats[file_id] = join.candidate_repeats.get(file_id, 1) + 1
        else:
            seen.add(file_id)
            if wanted is not _ABSENT:
                in_both += 1
        if wanted is _ABSENT:
            continue
        found = digest(row)
        if wanted is not None and found == wanted:
            if mismatched:
                mismatched.pop(file_id, None)  # an earlier, different row lost to this one
        else:
            mismatched[file_id] = found
    join.candidate_rows = position
    join.order_ok = order_ok and position == expected_count
    join.candidate_distinct = len(seen)
    join.in_both = in_both
    return mismatched


def _compare_mismatched(
    expected_csv: str | Path,
    candidate_csv: str | Path,
    mismatched: dict[str, bytes | None],
    compare: FieldComparison,
) -> int:
    """Field by field, the last rows of the ids whose digests did not prove them equal."""
    last_expected: dict[str, list[str]] = {}
    last_candidate: dict[str, list[str]] = {}
    for path, last in ((expected_csv, last_expected), (candidate_csv, last_candidate)):
        rows = _Rows(path)
        try:
            file_id_of = RowLayout(rows.header).file_id
            for row in rows:
                file_id = file_id_of(row)
                if file_id in mismatched:
                    last[file_id] = row
        finally:
            rows.close()
    return sum(
        compare.matches(last_expected[file_id], last_candidate[file_id]) for file_id in mismatched
    )


__all__ = ["SWITCH_UNPAIRED", "KeyedJoin", "keyed_join"]
