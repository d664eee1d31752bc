"""`FieldComparison.compare_pairs` against `csv.DictReader` and the published comparison.

`compare_pairs` sums, over many pairs of records at once, what the published scorer counts per
pair (pilot §7 field accuracy: `cr.get(k) == v` for every key of the expected row but
`file_id`), and whether the pair's file_ids are equal. It takes the compiled comparison
(`_plainfields`) or a flat, C-level road when every row is as wide as one shared header and goes
pair by pair otherwise; every road, with the compiled comparison and without it, and the
slicing, are held here against dicts that `csv.DictReader` builds from the same files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provebench.pilot.score_final import _layout
from provebench.pilot.score_final._csv import CsvRecordStream, QuotedRecord, Record
from provebench.pilot.score_final._layout import FieldComparison, RowLayout
from tests.helpers.compiled import COMPILED_BINDINGS

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

# Cells that take every way through the reader: plain, quoted (a comma, a quote, a line break),
# empty; and headers with and without file_id, with a repeated name, of other widths.
CELLS = st.sampled_from(["a", "b", "", "a,b", 'say "x"', "two\nlines", "é"])
HEADERS = st.sampled_from(
    [
        ["file_id", "x", "y"],
        ["x", "file_id", "y", "z"],
        ["file_id", "x", "x"],
        ["x", "y"],
        ["file_id"],
    ]
)


@pytest.fixture(
    params=[
        "as shipped",
        "tiny slices",
        "as shipped, pure Python",
        "tiny slices, pure Python",
    ]
)
def slice_sizes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Shipped sizes, and sizes small enough that the flat road and the slicing are taken by
    a handful of pairs; each with the compiled comparison, and without it (an install that had
    no C compiler)."""
    if "tiny slices" in request.param:
        monkeypatch.setattr(_layout, "_MANY_PAIRS", 2)
        monkeypatch.setattr(_layout, "_PAIRS_AT_ONCE", 3)
    if "pure Python" in request.param:
        for module, name in COMPILED_BINDINGS:
            monkeypatch.setattr(module, name, None)
    return str(request.param)


def _csv_text(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _records(path: Path) -> list[Record]:
    with CsvRecordStream(path, chunk_bytes=7) as stream:
        return [record for batch in stream.batches() for record in batch.records()]


def _dicts(path: Path) -> Iterator[dict[str | None, object]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        yield from csv.DictReader(handle)


def _published_counts(expected: Path, candidate: Path) -> tuple[int, int, int]:
    """Keys, matching fields (the published `cr.get(k) == v`) and equal `file_id` values."""
    keys = matched = same_ids = 0
    for er, cr in zip(_dicts(expected), _dicts(candidate), strict=True):
        for key, value in er.items():
            if key == "file_id":
                continue
            keys += 1
            matched += cr.get(key) == value
        same_ids += er.get("file_id") == cr.get("file_id")
    return keys, matched, same_ids


rows_of = st.lists(CELLS, min_size=0, max_size=5)


# The fixture only sets two sizes for the whole test: sharing it between inputs is intended.
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    header=HEADERS,
    candidate_header=HEADERS,
    same_header=st.booleans(),
    pairs=st.lists(st.tuples(rows_of, rows_of), min_size=1, max_size=24),
    widths=st.sampled_from(["any", "header", "expected at the header's"]),
)
def test_compare_pairs_counts_what_the_published_comparison_counts(
    tmp_path_factory: pytest.TempPathFactory,
    slice_sizes: str,
    header: list[str],
    candidate_header: list[str],
    same_header: bool,
    pairs: list[tuple[list[str], list[str]]],
    widths: str,
) -> None:
    del slice_sizes
    if same_header:
        candidate_header = header
    if widths != "any":
        # Rows exactly as wide as their header (the flat road's case); or only the expected
        # rows, so that a candidate row of another width is all that keeps it off that road.
        pairs = [
            (
                (e + [""] * len(header))[: len(header)],
                c
                if widths != "header"
                else (c + [""] * len(candidate_header))[: len(candidate_header)],
            )
            for e, c in pairs
        ]
    # csv.writer writes an empty row as a blank line, which the reader skips: keep rows non-empty.
    pairs = [(e or ["a"], c or ["a"]) for e, c in pairs]
    folder = tmp_path_factory.mktemp("pairs")
    expected_path, candidate_path = folder / "e.csv", folder / "c.csv"
    expected_path.write_text(_csv_text(header, [e for e, _ in pairs]), encoding="utf-8")
    candidate_path.write_text(_csv_text(candidate_header, [c for _, c in pairs]), encoding="utf-8")
    compare = FieldComparison(RowLayout(header), RowLayout(candidate_header))
    keys, matched, same_ids = compare.compare_pairs(
        _records(expected_path), _records(candidate_path)
    )
    published = _published_counts(expected_path, candidate_path)
    assert (keys, matched) == published[:2]
    if header == candidate_header:
        # The ids are read at the expected header's column on both sides: its callers compare
        # rows under one header.
        assert same_ids == published[2]


def test_the_flat_road_is_taken_and_counts_every_equal_field(slice_sizes: str) -> None:
    """Plain rows of the header's width, one field changed in each, one quoted row among them:
    every key but the changed one matches, the ids are all equal."""
    del slice_sizes
    layout = RowLayout(["file_id", "a", "b", "c"])
    expected: list[Record] = [f"id{n},x,y,z" for n in range(40)]
    candidate: list[Record] = [f"id{n},x,Y,z" for n in range(40)]
    quoted = QuotedRecord('id40,x,"y,1",z')
    quoted.fields = ["id40", "x", "y,1", "z"]
    expected.append(quoted)
    candidate.append("id40,x,y,z")
    keys, matched, same_ids = FieldComparison(layout, layout).compare_pairs(expected, candidate)
    assert (keys, matched, same_ids) == (41 * 3, 40 * 2 + 2, 41)


def test_ids_that_differ_are_counted_apart(slice_sizes: str) -> None:
    """The id join relies on the count of equal ids to find two ids of one hash."""
    del slice_sizes
    layout = RowLayout(["x", "file_id"])
    expected: list[Record] = [f"v,id{n}" for n in range(20)]
    candidate: list[Record] = [f"v,id{n if n % 7 else -n - 1}" for n in range(20)]
    keys, matched, same_ids = FieldComparison(layout, layout).compare_pairs(expected, candidate)
    assert (keys, matched, same_ids) == (20, 20, 17)


def test_rows_of_other_widths_and_multi_line_records_are_counted_pair_by_pair(
    slice_sizes: str,
) -> None:
    """A short row (None for its missing column), a long row (the extra-fields key None) and a
    record spanning lines (a list) among plain ones."""
    del slice_sizes
    layout = RowLayout(["file_id", "a", "b"])
    expected: list[Record] = [f"id{n},x,y" for n in range(20)] + ["id20,x", "id21,x,y,extra"]
    candidate: list[Record] = [f"id{n},x,y" for n in range(20)] + ["id20,x,y", "id21,x,y,extra"]
    expected.append(["id22", "two\nlines", "y"])
    candidate.append(["id22", "two\nlines", "other"])
    keys, matched, same_ids = FieldComparison(layout, layout).compare_pairs(expected, candidate)
    # 20 plain pairs: 2 keys, both match; the short expected row: keys a, b — b is None there
    # and "y" in the candidate; the long pair: a, b and the None key, all equal; the list: a
    # matches, b does not.
    assert keys == 20 * 2 + 2 + 3 + 2
    assert matched == 20 * 2 + 1 + 3 + 1
    assert same_ids == 23


def test_a_candidate_row_of_another_width_keeps_the_pairs_apart(slice_sizes: str) -> None:
    """Expected rows all as wide as the header, one candidate row short and one long: compared
    as flat lists, every later field would be compared with the wrong one."""
    del slice_sizes
    layout = RowLayout(["file_id", "a", "b"])
    expected: list[Record] = [f"id{n},x,y" for n in range(20)]
    candidate: list[Record] = [f"id{n},x,y" for n in range(20)]
    candidate[3] = "id3,x"
    candidate[9] = "id9,x,y,z"
    keys, matched, same_ids = FieldComparison(layout, layout).compare_pairs(expected, candidate)
    assert (keys, matched, same_ids) == (40, 39, 20)


# The fixture only sets sizes and roads for the whole test: sharing it between inputs is intended.
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(header=HEADERS, rows=st.lists(rows_of, min_size=1, max_size=24))
def test_file_ids_are_the_values_csv_dictreader_gives(
    tmp_path_factory: pytest.TempPathFactory,
    slice_sizes: str,
    header: list[str],
    rows: list[list[str]],
) -> None:
    """`RowLayout.file_ids`, compiled or not: what `row.get("file_id")` is in DictReader's row
    (quoted ids, ids holding commas, quotes or line breaks, short rows, no file_id column)."""
    del slice_sizes
    rows = [row or ["a"] for row in rows]
    path = tmp_path_factory.mktemp("ids") / "f.csv"
    path.write_text(_csv_text(header, rows), encoding="utf-8")
    ids = RowLayout(header).file_ids(_records(path))
    assert ids == [row.get("file_id") for row in _dicts(path)]
