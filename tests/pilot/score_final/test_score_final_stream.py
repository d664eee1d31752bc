"""The streaming record reader against `csv.reader(open(path, encoding="utf-8-sig", newline=""))`.

This is what the published scorer's `csv.DictReader` sees: the first record as field names and
every later non-blank record. Read sizes are made tiny so that pieces end everywhere.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.pilot.score_final._csv import (
    PUBLISHED_FIELD_SIZE_LIMIT,
    CsvRecordStream,
    QuotedRecord,
    record_fields,
)

ALPHABET = list('ab,"\n\r \x00\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029é😀\ufeff')


def reference_records(path: Path) -> tuple[list[str] | None, list[list[str]]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows:
        return None, []
    return rows[0], [row for row in rows[1:] if row]


def our_records(path: Path, chunk_bytes: int) -> tuple[list[str] | None, list[list[str]]]:
    with CsvRecordStream(path, chunk_bytes=chunk_bytes) as stream:
        records = [
            record_fields(record) for batch in stream.batches() for record in batch.records()
        ]
        return stream.header, records


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(alphabet=st.sampled_from(ALPHABET), max_size=60),
    bom=st.booleans(),
    chunk_bytes=st.sampled_from([4, 5, 6, 9, 17, 1 << 22]),
)
def test_records_are_what_csv_reader_gives(
    tmp_path_factory: pytest.TempPathFactory, text: str, bom: bool, chunk_bytes: int
) -> None:
    path = tmp_path_factory.mktemp("stream") / "data.csv"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    assert our_records(path, chunk_bytes) == reference_records(path)


@settings(max_examples=100, deadline=None)
@given(
    lines=st.lists(
        st.lists(st.text(alphabet=st.sampled_from(list('xy,"\n\r')), max_size=4), max_size=4),
        max_size=12,
    ),
    ending=st.sampled_from(["\n", "\r\n", "\r"]),
    chunk_bytes=st.sampled_from([4, 7, 1 << 22]),
)
def test_written_csv_round_trips(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[list[str]],
    ending: str,
    chunk_bytes: int,
) -> None:
    path = tmp_path_factory.mktemp("stream") / "data.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator=ending).writerows(lines)
    assert our_records(path, chunk_bytes) == reference_records(path)


def test_simple_records_stay_strings_and_quoted_ones_are_parsed(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text('file_id,a\r\nf1,x\r\nf2,"y,z"\r\n', encoding="utf-8", newline="")
    with CsvRecordStream(path) as stream:
        records = [record for batch in stream.batches() for record in batch.records()]
    assert records == ["f1,x", 'f2,"y,z"']
    assert type(records[0]) is str
    assert isinstance(records[1], QuotedRecord)
    assert records[1].fields == ["f2", "y,z"]


def test_a_quoted_field_over_two_lines_is_parsed_by_csv_reader(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text('file_id,a\nf1,"x\ny"\nf2,z\n', encoding="utf-8", newline="")
    with CsvRecordStream(path) as stream:
        records = [record for batch in stream.batches() for record in batch.records()]
    assert records == [["f1", "x\ny"], "f2,z"]


@pytest.mark.parametrize("chunk_bytes", [4, 1 << 22])
def test_a_field_over_the_limit_is_refused_with_its_line(tmp_path: Path, chunk_bytes: int) -> None:
    path = tmp_path / "data.csv"
    path.write_text("file_id\nf1\nf2" + "x" * PUBLISHED_FIELD_SIZE_LIMIT + "\n", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="field larger than field limit") as refusal:
        our_records(path, chunk_bytes)
    assert refusal.value.path == str(path)
    assert refusal.value.line == 3


def test_invalid_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes(b"file_id\nf1\nf\xe92\n")
    with pytest.raises(ProvebenchError, match="not valid UTF-8") as refusal:
        our_records(path, 4)
    assert (refusal.value.path, refusal.value.line) == (str(path), 3)
