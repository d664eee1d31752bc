"""Field counts under "last row wins" for repeated file_ids (pilot §7 field accuracy).

The published script compares `ek[id]` with `ck[id]`: the LAST row with each id on each side.
The lockstep join pairs rows as they come, which is the same thing for every id that does not
repeat, so only the repeated ids are counted again: one plain read of each file (no pairing, ids
taken at C speed) keeps the rows of those ids, and the join's counts for them are replaced.

What the join counted for a repeated id is known exactly: `keys` of every expected row of it
(bulk runs included); as matched, the pairing of its first rows if that happened before the
first repeat (`first_rows_paired`; a bulk run's rows are such a pair) plus every pairing after it
(`repeat_matched`).

Most repeated ids never need that read: when an id first repeats, the join looks its first rows
up among the latest rows it registered (`_score_final_recent`) and from then on keeps the last
row of each side (`LockstepJoin.repeat_rows`); only the other repeated ids are recounted from the
files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from provebench.pilot._score_final_csv import record_fields
from provebench.pilot._score_final_join import LockstepJoin
from provebench.pilot._score_final_layout import wanted_rows


def recount_repeated_ids(
    join: LockstepJoin,
    expected_csv: str | Path,
    candidate_csv: str | Path,
    stream_options: dict[str, int],
) -> tuple[int, int]:
    """(fields matched, fields counted) with `ek`/`ck` holding the last row of each id."""
    compare = join.compare
    matched, total = join.fields_matched, join.fields_total
    unrecovered: set[str] = set()
    for file_id in join.expected_repeats.keys() | join.candidate_repeats.keys():
        rows = join.repeat_rows.get(file_id)
        if rows is None:
            unrecovered.add(file_id)
            continue
        matched -= join.repeat_matched[file_id] + rows.first_pair_matched
        if rows.last_expected is None:
            continue  # never in the expected file: no key counts for it
        total += compare.keys(rows.last_expected) - rows.expected_keys
        if rows.last_candidate is not None:
            matched += compare.matches(rows.last_expected, rows.last_candidate)
    if not unrecovered:
        return matched, total
    return _recount_from_files(
        join, (matched, total), unrecovered, (expected_csv, candidate_csv), stream_options
    )


def _recount_from_files(
    join: LockstepJoin,
    counts: tuple[int, int],
    repeated: set[str],
    paths: tuple[str | Path, str | Path],
    stream_options: dict[str, int],
) -> tuple[int, int]:
    """The same correction for ids whose first rows were not recovered: one read of each file."""
    compare = join.compare
    expected_rows = _rows_with_ids(paths[0], repeated, stream_options, compare.keys)
    candidate_rows = _rows_with_ids(paths[1], repeated, stream_options, None)
    matched, total = counts
    for file_id in repeated:
        expected = expected_rows.get(file_id)
        candidate = candidate_rows.get(file_id)
        matched -= join.repeat_matched[file_id]
        if expected is None:
            continue  # repeated in the candidate only: no expected key counts for it
        total -= expected.keys
        if file_id in join.first_rows_paired and candidate is not None:
            matched -= compare.matches(expected.first, candidate.first)
        total += compare.keys(expected.last)
        if candidate is not None:
            matched += compare.matches(expected.last, candidate.last)
    return matched, total


class _IdRows:
    """The first and last row (fields) of one id in a file, and the keys of all its rows."""

    __slots__ = ("first", "keys", "last")

    def __init__(self, fields: list[str]) -> None:
        self.first = fields
        self.last = fields
        self.keys = 0


def _rows_with_ids(
    path: str | Path,
    wanted: set[str],
    stream_options: dict[str, int],
    keys: Callable[[list[str]], int] | None,
) -> dict[str, _IdRows]:
    """The rows of each wanted id, in one read of the file; `keys` summed when given."""
    rows: dict[str, _IdRows] = {}
    for ids, records in wanted_rows(path, wanted, stream_options):
        for file_id, record in zip(ids, records, strict=True):
            fields = record_fields(record)
            found = rows.get(file_id)
            if found is None:
                found = rows[file_id] = _IdRows(fields)
            found.last = fields
            if keys is not None:
                found.keys += keys(fields)
    return rows


__all__ = ["recount_repeated_ids"]
