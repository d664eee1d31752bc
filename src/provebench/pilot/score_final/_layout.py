"""How `csv.DictReader` turns a record into a row dict, and the published field comparison.

Used by the id join (`_idjoin`): one reading of a header (a repeated name keeps its LAST column,
a short record gives None, a long one the extra-fields key None) and one `cr.get(k) == v`
(pilot §7 field accuracy), pair by pair and many pairs at once.
"""

from __future__ import annotations

from itertools import chain, compress, count, repeat
from operator import contains, eq, itemgetter
from typing import cast

from provebench.pilot.score_final._compiled import COMPILED
from provebench.pilot.score_final._csv import QuotedRecord, Record, record_fields

_count_equal_fields = COMPILED.count_equal_fields
_first_fields = COMPILED.first_fields
_first_item = itemgetter(0)
# `compare_pairs`: from this many pairs on, a slice is compared as two flat lists of fields;
# slices of at most this many pairs.
_MANY_PAIRS = 16
_PAIRS_AT_ONCE = 1024


class RowLayout:
    """How `csv.DictReader` maps a record to a row dict, for one header."""

    def __init__(self, header: list[str] | None) -> None:
        names = header or []
        self.header = header
        self.width = len(names)
        # dict(zip(names, record)) keeps a repeated name at its LAST column, and a record too
        # short for that column gives None (restval), overriding any earlier column.
        self.column: dict[str, int] = {name: index for index, name in enumerate(names)}
        self.id_column: int | None = self.column.get("file_id")

    def file_id(self, fields: list[str]) -> str | None:
        column = self.id_column
        if column is None or column >= len(fields):
            return None
        return fields[column]

    def file_ids(self, records: list[Record]) -> list[str | None]:
        """`file_id` of each record, at C speed when the id is the first column."""
        if self.id_column == 0:
            if _first_fields is not None:
                # Compiled: the text before the first comma, with no quote in it (then
                # csv.reader reads the first field the same way); None for a record spanning
                # lines or a quote, which the roads below decide.
                first = _first_fields(records)
                if first is not None:
                    return cast("list[str | None]", first)
            try:
                # The id is the text before the first comma, as long as that text holds no
                # quote (then csv.reader reads the first field the same way). A multi-line
                # record (a list) is no str and takes the general path. `map` over C
                # callables keeps the per-row work out of the interpreter loop.
                ids: list[str] = list(
                    map(_first_item, map(str.partition, records, repeat(",")))  # type: ignore[arg-type]
                )
            except TypeError:
                pass
            else:
                if '"' not in "".join(ids):
                    return cast("list[str | None]", ids)
        file_id = self.file_id
        return [file_id(record_fields(record)) for record in records]


class FieldComparison:
    """`cr.get(k) == v` for every key of an expected row but `file_id` (pilot §7 field accuracy)."""

    def __init__(self, expected: RowLayout, candidate: RowLayout) -> None:
        self.expected_width = expected.width
        self.candidate_width = candidate.width
        self.same_header = expected.header == candidate.header
        self.columns: list[tuple[int, int | None]] = [
            (column, candidate.column.get(name))
            for name, column in expected.column.items()
            if name != "file_id"
        ]
        self.named_keys = len(self.columns)
        # Rows as wide as a shared header of distinct names: each name is its own column on
        # both sides, so the matching keys are the equal positions, the file_id column aside.
        self._plain_width = (
            expected.width if self.same_header and len(expected.column) == expected.width else -1
        )
        self._id_column = expected.id_column
        self._file_id = expected.file_id  # both sides' ids read at the expected header's column

    def keys(self, expected_fields: list[str]) -> int:
        """Keys counted for an expected row: its named keys, plus the `None` key of extra fields."""
        return self.named_keys + (len(expected_fields) > self.expected_width)

    def compare_pairs(
        self, expected: list[Record], candidate: list[Record]
    ) -> tuple[int, int, int]:
        """Over the pairs `zip(expected, candidate)`: the keys of the expected rows (summed
        `keys`), their matching fields (summed `matches`) and how many pairs have equal
        file_ids, both read at the expected header's file_id column (the callers compare rows
        under one header; a missing id equals a missing id).

        Many pairs at once, in slices of `_PAIRS_AT_ONCE`. Where the compiled comparison
        (`_plainfields.count_equal_fields`) was built, it answers for a slice whose rows all
        have the shared header's width, without making a string per field (≈0.1 µs a pair of
        the benchmark's rows). Otherwise, and for a slice it declines, each side's texts are
        split by one C-level `map` (only a slice's fields alive at a time), and when every row
        on both sides is as wide as the shared header, the fields are compared as two flat
        sequences in one C-level pass: under half the cost of comparing pair by pair (≈1.3 µs
        against ≈2.7 µs a pair, gc off; `operator.eq`, not `str.__eq__`, whose slot wrapper
        costs twice as much per call). A few pairs go pair by pair, where the set-up would cost
        more than it saves.
        """
        keys = matched = same_ids = 0
        for start in range(0, len(expected), _PAIRS_AT_ONCE):
            stop = start + _PAIRS_AT_ONCE
            expected_slice, candidate_slice = expected[start:stop], candidate[start:stop]
            counts = self._count_slice(expected_slice, candidate_slice)
            if counts is None:
                counts = self._compare_slice(expected_slice, candidate_slice)
            keys += counts[0]
            matched += counts[1]
            same_ids += counts[2]
        return keys, matched, same_ids

    def _count_slice(
        self, expected: list[Record], candidate: list[Record]
    ) -> tuple[int, int, int] | None:
        """The compiled comparison's counts of a slice, or None where it does not answer."""
        width = self._plain_width
        if _count_equal_fields is None or width <= 0:
            return None
        column = -1 if self._id_column is None else self._id_column
        counted = _count_equal_fields(expected, candidate, width, column, QuotedRecord)
        if counted is None:
            return None
        return self._plain_counts(len(expected), *counted)

    def _plain_counts(self, pairs: int, equal: int, equal_ids: int) -> tuple[int, int, int]:
        """`compare_pairs`' counts for pairs of rows all as wide as the shared header (no extra
        fields), from their equal positions and, of those, the equal ids (at the file_id
        column): every equal position but the ids matches."""
        if self._id_column is None:  # no file_id column: a missing id equals a missing id
            return pairs * self.named_keys, equal, pairs
        return pairs * self.named_keys, equal - equal_ids, equal_ids

    def _compare_slice(
        self, expected: list[Record], candidate: list[Record]
    ) -> tuple[int, int, int]:
        expected_fields = _fields_of(expected)
        candidate_fields = _fields_of(candidate)
        width = self._plain_width
        column = self._id_column
        if (
            len(expected) >= _MANY_PAIRS
            and width > 0
            and set(map(len, expected_fields)) == {width}
            and set(map(len, candidate_fields)) == {width}
        ):
            # Every row is plain (no extra fields): `matches` summed is every equal position,
            # less the equal ids.
            equal = sum(
                map(
                    eq,
                    chain.from_iterable(expected_fields),
                    chain.from_iterable(candidate_fields),
                )
            )
            equal_ids = 0
            if column is not None:
                pick = itemgetter(column)
                equal_ids = sum(map(eq, map(pick, expected_fields), map(pick, candidate_fields)))
            return self._plain_counts(len(expected), equal, equal_ids)
        keys = matched = same_ids = 0
        for fields, other in zip(expected_fields, candidate_fields, strict=True):
            keys += self.keys(fields)
            matched += self.matches(fields, other)
            same_ids += self._file_id(fields) == self._file_id(other)
        return keys, matched, same_ids

    def matches(self, expected_fields: list[str], candidate_fields: list[str]) -> int:
        if self.same_header and expected_fields == candidate_fields:
            return self.keys(expected_fields)
        expected_len = len(expected_fields)
        candidate_len = len(candidate_fields)
        if expected_len == candidate_len == self._plain_width:
            matched: int = sum(map(eq, expected_fields, candidate_fields))
            if self._id_column is not None:
                column = self._id_column
                matched -= expected_fields[column] == candidate_fields[column]
            return matched
        matched = 0
        for expected_column, candidate_column in self.columns:
            expected_value = (
                expected_fields[expected_column] if expected_column < expected_len else None
            )
            candidate_value = None
            if candidate_column is not None and candidate_column < candidate_len:
                candidate_value = candidate_fields[candidate_column]
            matched += expected_value == candidate_value
        if expected_len > self.expected_width:
            # DictReader's restkey None holds the extra fields as a list; the candidate row has
            # that key only when it too is longer than its header.
            extra = None
            if candidate_len > self.candidate_width:
                extra = candidate_fields[self.candidate_width :]
            matched += expected_fields[self.expected_width :] == extra
        return matched


def _fields_of(records: list[Record]) -> list[list[str]]:
    """`record_fields` of each record; the texts split at C speed, then the records with quotes
    (whose fields the stream parsed) put right."""
    try:
        fields: list[list[str]] = list(map(str.split, records, repeat(",")))  # type: ignore[arg-type]
    except TypeError:  # a multi-line record (a list) among them
        return list(map(record_fields, records))
    for index in compress(count(), map(contains, records, repeat('"'))):
        fields[index] = record_fields(records[index])
    return fields


__all__ = ["FieldComparison", "RowLayout"]
