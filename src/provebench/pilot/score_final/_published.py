"""The published scorer's own reading, for the files the id join declines (pilot §7, §10).

A register with a short or long row, a repeated or missing `file_id` column, a record spanning
lines, or two headers that differ is not what a laboratory writes, and the published script
reads such files with quirks that a join can only imitate case by case (`csv.DictReader` fills
a short row with None and files a long row's surplus under the key None; a repeated column name
keeps its last value). So these files are read as the published script reads them: a dict per
row, built exactly as `DictReader` builds it, and the published expressions over them. The
records come from the same stream as the id join's (`CsvRecordStream`), so bad input is named
the same way, the expected file first. Memory is the published script's: these are the cases
where correctness by construction is worth more than speed.
"""

from __future__ import annotations

from collections.abc import Iterator

from provebench.pilot.score_final._counts import KeyedJoin, finish
from provebench.pilot.score_final._csv import CsvRecordStream, CsvSource, record_fields

Row = dict[str | None, str | list[str] | None]


def published_join(
    expected_csv: CsvSource, candidate_csv: CsvSource, sizes: dict[str, int]
) -> KeyedJoin:
    """The counts of the published script's expressions, over rows read as it reads them."""
    expected = list(_dict_rows(expected_csv, sizes))  # whole, before the candidate is opened
    candidate = list(_dict_rows(candidate_csv, sizes))
    join = KeyedJoin()
    join.expected_rows, join.candidate_rows = len(expected), len(candidate)
    expected_ids = [row.get("file_id") for row in expected]
    candidate_ids = [row.get("file_id") for row in candidate]
    join.expected_none_ids = expected_ids.count(None)
    join.expected_empty_ids = expected_ids.count("")
    join.candidate_falsy_ids = sum(1 for file_id in candidate_ids if not file_id)
    expected_by_id = {row["file_id"]: row for row in expected if row.get("file_id")}
    candidate_by_id = {row["file_id"]: row for row in candidate if row.get("file_id")}
    join.expected_distinct, join.candidate_distinct = len(expected_by_id), len(candidate_by_id)
    join.expected_repeats = join.expected_rows - join.expected_none_ids - join.expected_empty_ids
    join.expected_repeats -= join.expected_distinct
    join.in_both = len(expected_by_id.keys() & candidate_by_id.keys())
    for file_id, row in expected_by_id.items():
        candidate_row = candidate_by_id.get(file_id)
        for key, value in row.items():
            if key == "file_id":
                continue
            join.fields_total += 1
            join.fields_matched += candidate_row is not None and candidate_row.get(key) == value
    join.order_ok = candidate_ids == expected_ids
    return finish(join)


def _dict_rows(path: CsvSource, sizes: dict[str, int]) -> Iterator[Row]:
    """`csv.DictReader`'s rows (restkey and restval None), from the record stream."""
    with CsvRecordStream(path, **sizes) as stream:
        if stream.header is None:  # an empty file: DictReader has no field names and no rows
            return
        names: list[str | None] = list(stream.header)
        for batch in stream.batches():
            for record in batch.records():
                fields = record_fields(record)
                row: Row = dict(zip(names, fields, strict=False))
                if len(names) < len(fields):
                    row[None] = fields[len(names) :]
                else:
                    for name in names[len(fields) :]:
                        row[name] = None
                yield row
