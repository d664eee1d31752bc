"""Field counts under "last row wins" for repeated file_ids (pilot §7 field accuracy).

The published script compares `ek[id]` with `ck[id]`: the LAST row with each id on each side.
The lockstep join pairs rows as they come, which is the same thing for every id that does not
repeat, so only the repeated ids are counted again: one plain read of each file (no pairing, ids
taken at C speed) keeps the rows of those ids, and the join's counts for them are replaced.

What the join counted for an id is known exactly: rows outside bulk runs are noted, per id, in
`LockstepJoin.unbulked_fields`; a bulk run only takes ids never seen before on either side, so an
id settled in bulk was settled with its first row, equal on both sides, every field matching —
`keys(first expected row)` counted and matched.
"""

from __future__ import annotations

from itertools import compress
from pathlib import Path
from typing import cast

from provebench.pilot._score_final_csv import CsvRecordStream, record_fields
from provebench.pilot._score_final_join import LockstepJoin, RowLayout


def recount_repeated_ids(
    join: LockstepJoin,
    expected_csv: str | Path,
    candidate_csv: str | Path,
    stream_options: dict[str, int],
) -> tuple[int, int]:
    """(fields matched, fields counted) with `ek`/`ck` holding the last row of each id."""
    repeated = set(join.expected_repeats) | set(join.candidate_repeats)
    first_expected, last_expected = _rows_with_ids(expected_csv, repeated, stream_options)
    _, last_candidate = _rows_with_ids(candidate_csv, repeated, stream_options)
    compare = join.compare
    matched, total = join.fields_matched, join.fields_total
    for file_id in repeated:
        noted_total, noted_matched = join.unbulked_fields.get(file_id, (0, 0))
        total -= noted_total
        matched -= noted_matched
        if file_id in join.seen_in_both:
            keys = compare.keys(first_expected[file_id])
            total -= keys
            matched -= keys
        expected_fields = last_expected.get(file_id)
        if expected_fields is None:
            continue  # repeated in the candidate only: no expected key counts for it
        total += compare.keys(expected_fields)
        candidate_fields = last_candidate.get(file_id)
        if candidate_fields is not None:
            matched += compare.matches(expected_fields, candidate_fields)
    return matched, total


def _rows_with_ids(
    path: str | Path, wanted: set[str], stream_options: dict[str, int]
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The first and the last row (fields) of each wanted id, in one read of the file."""
    first: dict[str, list[str]] = {}
    last: dict[str, list[str]] = {}
    with CsvRecordStream(path, **stream_options) as stream:
        layout = RowLayout(stream.header)
        for batch in stream.batches():
            records = batch.records()
            # Only str ids can be wanted, so the None ids (no id column) never pass the filter.
            ids = cast("list[str]", layout.file_ids(records))
            if wanted.isdisjoint(ids):
                continue
            for record, file_id in compress(
                zip(records, ids, strict=True), map(wanted.__contains__, ids)
            ):
                fields = record_fields(record)
                first.setdefault(file_id, fields)
                last[file_id] = fields
    return first, last


__all__ = ["recount_repeated_ids"]
