"""The final-state counts by keyed join, for a candidate whose rows are not in expected order.

The lockstep pass (`_score_final_join`) is fast while both files keep the same order: equal runs
are settled in bulk and a missing or extra row is found by looking a few records ahead. On an
unordered candidate (a shuffled register) every look-ahead fails and every row waits unpaired;
past `SWITCH_UNPAIRED` unpaired rows on one side, `score_final_state` drops that pass and
scores here instead, from the start of both files (pilot §7 metrics, published semantics).

Plain registers are joined by id with their fields compared in bulk (`_score_final_idjoin`).
What that road declines is joined here by id and row digest (`digest_join`): both files are
read with the same record stream as the lockstep pass (`CsvRecordStream`: the published
`csv.DictReader` reading, faults named the same way), the expected file whole first, as the
published script does. What is kept:

* a dict from each non-empty expected `file_id` to the SHA-256 digest of its LAST row's
  canonical text (assignment is "last row wins"); once the candidate has a row with that id,
  the value gets one more byte, which marks the id as seen on the candidate side (so no set
  of candidate ids is needed for the ids both files have);
* the list of the expected ids of every row, for the order check (the published check
  compares the whole lists);
* the set of candidate ids the expected file does not have; the mark appended to an expected
  digest also says whether the last candidate row so far has the same digest, so the ids whose
  last candidate row is not proven equal (`mismatched`) are read off the dict at the end.

A digest is only a proof of equality. The canonical text of a row exists only when the row is
exactly as wide as its header: its fields in the order of the expected header's distinct names,
joined by commas when that text holds exactly one comma fewer than there are names (then it
gives back the fields; a plain record under the expected header is its own canonical text), and
their JSON array otherwise (a field holding a comma: the array gives the fields back, and it
holds more commas than a joined text may, so the two forms never meet). Equal texts mean that
every `cr.get(k) == v` holds. Any other row (short, long, a candidate header without one of the
expected names) has no digest; its id is compared field by field, with `FieldComparison`, in
further reads of both files that hold the expected last rows of at most `MISMATCH_ROUND_IDS`
mismatched ids at a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise, repeat
from operator import itemgetter
from pathlib import Path
from typing import cast

from provebench.pilot._score_final_counts import KeyedJoin
from provebench.pilot._score_final_csv import (
    CsvRecordStream,
    Record,
    record_fields,
    window_lines,
)
from provebench.pilot._score_final_idjoin import id_join
from provebench.pilot._score_final_layout import FieldComparison, RowLayout, wanted_rows

# Unpaired rows held on one side by the lockstep pass beyond which it gives way to the keyed
# join. An ordered candidate with defects holds a handful (each missing, extra or moved row is
# paired again within the look-ahead window); a shuffled one holds nearly every row it has read.
SWITCH_UNPAIRED = 4096
# ... and are more than this share of the rows read on that side: a register with thousands of
# missing rows keeps them unpaired to the end, in order otherwise, and stays in lockstep.
SWITCH_SHARE = 0.125
# A first look at the top of both files (`looks_unordered`): this many bytes of each, and the
# share of neighbouring candidate rows that must follow each other closely in the expected file
# for the candidate to be taken as ordered.
PROBE_BYTES = 1 << 20
PROBE_MIN_PAIRS = 256
PROBE_ORDERED_SHARE = 0.5
_PROBE_REACH = 64

# Appended to an expected digest once the candidate has a row with that id: its last row so far
# has the same digest, or not.
_SEEN = b"!"
_DIFFERS = b"?"
_NO_DIGEST = b""
# Mismatched ids whose expected rows one round of the field comparison holds: about 200 MiB
# with its look-ups for the pilot's register (measured: 357 MiB peak for a shuffled million-row
# candidate whose every row differs, in two rounds).
MISMATCH_ROUND_IDS = 1 << 19


Canonical = Callable[[list[Record]], list[str | None]]


def _canonical_texts(
    width: int, projection: Callable[[list[str]], tuple[str, ...]] | None, names: int
) -> Canonical:
    """The canonical text of each record of a batch under one header (see the module doc);
    `projection` None: this header IS the expected one, with distinct names."""
    separators = names - 1

    def one(record: Record) -> str | None:
        fields = record_fields(record)
        if len(fields) != width:  # short: None values; long: the extra-fields key
            return None
        values = fields if projection is None else projection(fields)
        text = ",".join(values)
        if text.count(",") == separators:
            return text
        # A field holds a comma: the joined text would not give the fields back, its JSON
        # array does. It holds more commas than `separators`, so it never equals a joined text.
        return json.dumps(list(values))

    def batch(records: list[Record]) -> list[str | None]:
        if projection is None:
            try:
                commas = list(map(str.count, records, repeat(",")))  # type: ignore[arg-type]
            except TypeError:  # a record spanning lines (a list) among them
                pass
            else:
                # A plain record (no quote, one line) has the fields text.split(","), so with
                # the header's number of commas it is its own canonical text.
                return [
                    record if record.__class__ is str and found == separators else one(record)
                    for record, found in zip(records, commas, strict=True)
                ]
        return [one(record) for record in records]

    return batch


def _never(records: list[Record]) -> list[str | None]:
    return [None] * len(records)


def _canonical(layout: RowLayout, expected: RowLayout) -> Canonical:
    names = list(expected.column)
    if not names or any(name not in layout.column for name in names):
        return _never
    if layout.header == expected.header and len(names) == expected.width:
        return _canonical_texts(layout.width, None, len(names))
    columns = [layout.column[name] for name in names]
    projection: Callable[[list[str]], tuple[str, ...]]
    if len(columns) == 1:  # itemgetter of one column gives the value, not a tuple
        column = columns[0]

        def projection(fields: list[str]) -> tuple[str, ...]:
            return (fields[column],)

    else:
        projection = itemgetter(*columns)
    return _canonical_texts(layout.width, projection, len(names))


def _digests(texts: list[str | None]) -> list[bytes]:
    # Imported here, as the digest join needs it: hashlib costs ≈4 ms of the command's start,
    # and most pairs never reach this join.
    from hashlib import sha256

    return [_NO_DIGEST if text is None else sha256(text.encode()).digest() for text in texts]


def looks_unordered(expected_csv: str | Path, candidate_csv: str | Path) -> bool:
    """Whether the candidate is, from its first rows, in another order than the expected file.

    Only a guess, to spare an unordered candidate the lockstep pass it would give up (the
    switch above): both joins give the same counts. The first `PROBE_BYTES` of each file are
    split naively into lines and first fields; the candidate looks ordered when most of its
    neighbouring rows follow each other, a few rows apart at most, in the expected file — true
    of an ordered register with missing, extra and changed rows, false of a shuffled one.
    """
    try:
        expected_ids = _first_fields(expected_csv)
        candidate_ids = _first_fields(candidate_csv)
    except OSError:
        return False  # the joins name the fault
    place: dict[str, int] = {}
    for index, file_id in enumerate(expected_ids):
        place.setdefault(file_id, index)
    places = [place.get(file_id, -_PROBE_REACH) for file_id in candidate_ids]
    pairs = len(places) - 1
    if pairs < PROBE_MIN_PAIRS:
        return False
    following = sum(
        0 < after - before <= _PROBE_REACH for before, after in pairwise(places) if before >= 0
    )
    return following < PROBE_ORDERED_SHARE * pairs


def _first_fields(path: str | Path) -> list[str]:
    return [line.partition(",")[0] for line in window_lines(path, 0, PROBE_BYTES)]


def keyed_join(
    expected_csv: str | Path, candidate_csv: str | Path, sizes: dict[str, int]
) -> KeyedJoin:
    """The counts; bad input raises the same `ProvebenchError` as the lockstep pass.

    Rows are paired by id, and those that differ compared field by field, in bulk (`id_join`:
    on large files in two processes, the ids shared out between them); by id and digest where
    it declines (files that are not plain: a repeated or empty expected id, an expected record
    that is not one line as wide as its header, another candidate header; two ids of one hash;
    more repeated candidate rows than it holds)."""
    join = id_join(expected_csv, candidate_csv, sizes)
    if join is None:
        join = digest_join(expected_csv, candidate_csv, sizes)
    return join


def digest_join(
    expected_csv: str | Path, candidate_csv: str | Path, sizes: dict[str, int]
) -> KeyedJoin:
    """The counts by id, each row's canonical text digested (see the module doc)."""
    join = KeyedJoin()
    with CsvRecordStream(expected_csv, **sizes) as expected:
        expected_layout = RowLayout(expected.header)
        digests, expected_ids, with_extra_fields = _take_expected(join, expected, expected_layout)
    with CsvRecordStream(candidate_csv, **sizes) as candidate:
        candidate_layout = RowLayout(candidate.header)
        compare = FieldComparison(expected_layout, candidate_layout)
        mismatched = _take_candidate(
            join, candidate, candidate_layout, expected_layout, digests, expected_ids
        )
    del digests, expected_ids
    join.fields_total = join.expected_distinct * compare.named_keys + with_extra_fields
    # A last candidate row whose digest equals the expected last row's: every named key matches
    # (such rows are as wide as their header, so neither has the extra-fields key).
    join.fields_matched = (join.in_both - len(mismatched)) * compare.named_keys
    if mismatched:
        join.fields_matched += _compare_mismatched(
            (expected_csv, candidate_csv), mismatched, compare, sizes, join.candidate_repeats > 0
        )
    return join


def _take_expected(
    join: KeyedJoin, stream: CsvRecordStream, layout: RowLayout
) -> tuple[dict[str, bytes], list[str | None], int]:
    digests: dict[str, bytes] = {}
    all_ids: list[str | None] = []
    with_extra_fields: set[str] = set()
    canonical = _canonical(layout, layout)
    width = layout.width
    keyed_rows = 0
    for batch in stream.batches():
        records = batch.records()
        ids = layout.file_ids(records)
        all_ids += ids
        batch_digests = _digests(canonical(records))
        if all(ids) and _NO_DIGEST not in batch_digests:
            # Every row keyed and digested (so none has extra fields): at C speed.
            keyed_rows += len(ids)
            keyed = cast("list[str]", ids)  # all(ids): no None
            digests.update(zip(keyed, batch_digests, strict=True))
            if with_extra_fields:
                with_extra_fields.difference_update(keyed)
            continue
        for file_id, record, digest in zip(ids, records, batch_digests, strict=True):
            if not file_id:
                if file_id is None:
                    join.expected_none_ids += 1
                else:
                    join.expected_empty_ids += 1
                continue
            keyed_rows += 1
            digests[file_id] = digest  # the last row wins, as in the published `ek`
            if not digest and len(record_fields(record)) > width:
                with_extra_fields.add(file_id)
            elif with_extra_fields:
                with_extra_fields.discard(file_id)
    join.expected_rows = len(all_ids)
    join.expected_distinct = len(digests)
    join.expected_repeats = keyed_rows - len(digests)
    return digests, all_ids, len(with_extra_fields)


def _take_candidate(
    join: KeyedJoin,
    stream: CsvRecordStream,
    layout: RowLayout,
    expected_layout: RowLayout,
    digests: dict[str, bytes],
    expected_ids: list[str | None],
) -> list[str]:
    """Stream the candidate; the ids whose last candidate row is not proven equal."""
    canonical = _canonical(layout, expected_layout)
    only_candidate: set[str] = set()
    position = in_both = distinct = repeats = falsy = 0
    order_ok = True
    for batch in stream.batches():
        records = batch.records()
        ids = layout.file_ids(records)
        if order_ok and expected_ids[position : position + len(ids)] != ids:
            order_ok = False  # the published check compares the whole id lists
        position += len(ids)
        for file_id, digest in zip(ids, _digests(canonical(records)), strict=True):
            if not file_id:
                falsy += 1
                continue
            wanted = digests.get(file_id)
            if wanted is None:
                if file_id in only_candidate:
                    repeats += 1
                else:
                    only_candidate.add(file_id)
                    distinct += 1
                continue
            if len(wanted) & 1:  # marked: an earlier candidate row had this id
                repeats += 1
                wanted = wanted[:-1]
            else:
                distinct += 1
                in_both += 1
            # The mark says how the last candidate row so far compares ("last row wins"); the
            # expected digest stays, for a later row of the same id.
            digests[file_id] = wanted + (_SEEN if digest and digest == wanted else _DIFFERS)
    join.candidate_rows = position
    join.order_ok = order_ok and position == len(expected_ids)
    join.candidate_distinct = distinct
    join.candidate_repeats = repeats
    join.candidate_falsy_ids = falsy
    join.in_both = in_both
    # The marked ids themselves (the expected file's strings, no copy of any).
    return [
        file_id for file_id, value in digests.items() if len(value) & 1 and value.endswith(_DIFFERS)
    ]


def _compare_mismatched(
    paths: tuple[str | Path, str | Path],
    mismatched: list[str],
    compare: FieldComparison,
    sizes: dict[str, int],
    candidate_repeats: bool,
) -> int:
    """Field by field, the last rows of the ids whose digests did not prove them equal.

    The expected rows of at most `MISMATCH_ROUND_IDS` ids are held at once: a candidate whose
    rows nearly all differ (every row changed, and in another order) is compared in rounds,
    each reading both files, instead of holding a row per side for every id of the register.
    """
    mismatched.sort()  # rounds in a fixed order (the sum does not depend on it)
    matched = 0
    for start in range(0, len(mismatched), MISMATCH_ROUND_IDS):
        # id -> the same string: rows are then keyed by these strings, not by new copies.
        wanted = {file_id: file_id for file_id in mismatched[start : start + MISMATCH_ROUND_IDS]}
        matched += _compare_round(paths, wanted, compare, sizes, candidate_repeats)
    return matched


def _compare_round(
    paths: tuple[str | Path, str | Path],
    wanted: dict[str, str],
    compare: FieldComparison,
    sizes: dict[str, int],
    candidate_repeats: bool,
) -> int:
    expected_csv, candidate_csv = paths
    last_expected: dict[str, Record] = {}
    for ids, records in wanted_rows(expected_csv, wanted, sizes):
        last_expected.update(zip(map(wanted.__getitem__, ids), records, strict=True))
    matched = 0
    by_id: dict[str, int] = {}
    for ids, records in wanted_rows(candidate_csv, wanted, sizes):
        expected_fields = map(record_fields, map(last_expected.__getitem__, ids))
        counts = map(compare.matches, expected_fields, map(record_fields, records))
        if candidate_repeats:
            # A later row of the same id replaces the count of an earlier one ("last row
            # wins", as the published `ck`).
            by_id.update(zip(map(wanted.__getitem__, ids), counts, strict=True))
        else:
            matched += sum(counts)
    return matched + sum(by_id.values())


__all__ = [
    "SWITCH_SHARE",
    "SWITCH_UNPAIRED",
    "KeyedJoin",
    "digest_join",
    "keyed_join",
    "looks_unordered",
]
