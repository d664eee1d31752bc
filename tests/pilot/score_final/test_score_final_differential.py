"""Our final-state scorer against the published `score_final_state.py`, on generated CSV pairs.

For every pair on which the published script runs, the JSON must be the same bytes; where it
crashes (bytes that are not UTF-8, a field over the csv size limit), ours must refuse with a
`ProvebenchError` and never print a score. The published code runs in a worker subprocess (see
`tests/helpers/published_scorer.py`); ours runs in process with small read sizes so that records,
quoted fields and look-ahead windows cross piece boundaries.
"""

from __future__ import annotations

import csv
import io
import random
from itertools import count
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.pilot import score_final_state
from tests.helpers.compiled import without_compiled
from tests.helpers.published_scorer import (
    Outcome,
    PublishedScorerWorker,
)

# Crashes of the published script that ours must turn into a one-line refusal.
_PUBLISHED_CRASHES = ("UnicodeDecodeError", "field larger than field limit")

HEADER_NAMES = ["file_id", "a", "b", "phone", "имя", "file_id ", "File_ID", "", "a,b", 'q"n']
IDS = ["f1", "f2", "f3", "f4", "f5", "f6", "", " f1", "ф7", "f1\n"]
FIELD_CHARS = list("ab01 ,;\"'\n\r\té€😀\x00\x0b\x0c\x1c\x85\u2028")
CHUNK_SIZES = [None, 4, 5, 7, 16, 64]


_case_numbers = count()


def compare_with_published(
    worker: PublishedScorerWorker,
    directory: Path,
    expected: bytes,
    candidate: bytes,
    chunk_bytes: int | None = None,
) -> Outcome:
    """Write a pair, score it both ways, and check that the outcomes agree."""
    number = next(_case_numbers)
    expected_path = directory / f"{number}-expected.csv"
    candidate_path = directory / f"{number}-candidate.csv"
    expected_path.write_bytes(expected)
    candidate_path.write_bytes(candidate)
    reference = worker.run(expected_path, candidate_path)
    try:
        ours = score_final_state(expected_path, candidate_path, chunk_bytes=chunk_bytes)
    except ProvebenchError as error:
        assert reference.exit_code != 0, f"we refused a pair the published script scores: {error}"
        assert any(crash in reference.stderr for crash in _PUBLISHED_CRASHES), reference.stderr
        message = error.one_line()
        assert "\n" not in message
        assert str(expected_path) in message or str(candidate_path) in message
        return reference
    assert reference.exit_code == 0, f"published crashed, we scored: {reference.stderr}"
    assert ours.to_json().encode("utf-8") == reference.stdout
    return reference


# -- generated tables -----------------------------------------------------------------------

fields = st.text(alphabet=st.sampled_from(FIELD_CHARS), max_size=5)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    header = draw(st.lists(st.sampled_from(HEADER_NAMES), max_size=5))
    if draw(st.integers(0, 9)) < 8 and "file_id" not in header:
        header.insert(draw(st.integers(0, len(header))), "file_id")
    rows: list[list[str]] = []
    for _ in range(draw(st.integers(0, 7))):
        width = max(1, len(header) + draw(st.sampled_from([0, 0, 0, 0, -1, -2, 1, 2])))
        row = [draw(fields) for _ in range(width)]
        if "file_id" in header:
            column = len(header) - 1 - header[::-1].index("file_id")
            if column < width:
                row[column] = draw(st.sampled_from(IDS))
        rows.append(row)
    return header, rows


@st.composite
def derived_candidates(
    draw: st.DrawFn, table: tuple[list[str], list[list[str]]]
) -> tuple[list[str], list[list[str]]]:
    """A candidate made from the expected table by the defects an importer could have."""
    header, rows = list(table[0]), [list(row) for row in table[1]]
    for _ in range(draw(st.integers(0, 3))):
        operation = draw(
            st.sampled_from(["drop", "duplicate", "swap", "change", "add", "trim", "extend"])
        )
        if operation == "add" or not rows:
            rows.insert(draw(st.integers(0, len(rows))), [draw(fields) for _ in header] or ["x"])
            continue
        index = draw(st.integers(0, len(rows) - 1))
        if operation == "drop":
            del rows[index]
        elif operation == "duplicate":
            rows.insert(draw(st.integers(0, len(rows))), list(rows[index]))
        elif operation == "swap":
            other = draw(st.integers(0, len(rows) - 1))
            rows[index], rows[other] = rows[other], rows[index]
        elif operation == "change":
            column = draw(st.integers(0, len(rows[index]) - 1))
            rows[index][column] = draw(st.one_of(fields, st.sampled_from(IDS)))
        elif operation == "trim" and len(rows[index]) > 1:
            rows[index].pop()
        elif operation == "extend":
            rows[index].append(draw(fields))
    header_change = draw(st.sampled_from(["keep", "keep", "keep", "rename", "reorder", "drop"]))
    if header and header_change == "rename":
        header[draw(st.integers(0, len(header) - 1))] = draw(st.sampled_from(HEADER_NAMES))
    elif len(header) > 1 and header_change == "reorder":
        order = draw(st.permutations(range(len(header))))
        header = [header[i] for i in order]
        rows = [[row[i] for i in order if i < len(row)] + row[len(order) :] for row in rows]
    elif header and header_change == "drop":
        column = draw(st.integers(0, len(header) - 1))
        del header[column]
        rows = [row[:column] + row[column + 1 :] or ["y"] for row in rows]
    return header, rows


@st.composite
def encoded(draw: st.DrawFn, table: tuple[list[str], list[list[str]]]) -> bytes:
    """CSV bytes for a table: csv.writer or naive joining, any line ending, BOM, blank lines."""
    header, rows = table
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    lines: list[str] = []
    if draw(st.booleans()):
        quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]))
        for row in [header, *rows]:
            buffer = io.StringIO(newline="")
            csv.writer(buffer, lineterminator=ending, quoting=quoting).writerow(row)
            lines.append(buffer.getvalue())
    else:
        # Naive joining leaves quotes, delimiters and line breaks in fields unescaped: the
        # published reader's quirks (`"a"b`, unterminated quotes, split rows) then decide.
        lines = [",".join(row) + ending for row in [header, *rows]]
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["\n", "\r\n", " \n"])))
    text = "".join(lines)
    if text and draw(st.booleans()):
        text = text.rstrip("\r\n")
    data = text.encode("utf-8")
    if draw(st.integers(0, 3)) == 0:
        data = b"\xef\xbb\xbf" + data
    return data


@st.composite
def table_pairs(draw: st.DrawFn) -> tuple[bytes, bytes]:
    expected_table = draw(tables())
    if draw(st.integers(0, 4)) == 0:
        candidate_table = draw(tables())
    else:
        candidate_table = draw(derived_candidates(expected_table))
    expected = draw(encoded(expected_table))
    candidate = expected if draw(st.integers(0, 5)) == 0 else draw(encoded(candidate_table))
    return expected, candidate


_SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@_SETTINGS
@given(pair=table_pairs(), chunk_bytes=st.sampled_from(CHUNK_SIZES))
def test_generated_tables_match_published(
    published: PublishedScorerWorker, case_dir: Path, pair: tuple[bytes, bytes], chunk_bytes: int
) -> None:
    compare_with_published(published, case_dir, *pair, chunk_bytes=chunk_bytes)


@settings(_SETTINGS, max_examples=100)
@given(pair=table_pairs(), chunk_bytes=st.sampled_from(CHUNK_SIZES))
def test_generated_tables_match_published_on_the_pure_python_roads(
    published: PublishedScorerWorker,
    case_dir: Path,
    pair: tuple[bytes, bytes],
    chunk_bytes: int,
) -> None:
    """As an install without a C compiler scores (the compiled functions set aside)."""
    with without_compiled():
        compare_with_published(published, case_dir, *pair, chunk_bytes=chunk_bytes)


raw_text = st.text(alphabet=st.sampled_from(list('fi_ld,"\n\r a\ufeff')), max_size=40)


@settings(_SETTINGS, max_examples=150)
@given(
    expected=raw_text.map(lambda text: ("file_id,a\n" + text).encode("utf-8")),
    candidate=raw_text.map(lambda text: ("file_id,a\n" + text).encode("utf-8")),
    chunk_bytes=st.sampled_from(CHUNK_SIZES),
)
def test_unstructured_text_matches_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    expected: bytes,
    candidate: bytes,
    chunk_bytes: int,
) -> None:
    compare_with_published(published, case_dir, expected, candidate, chunk_bytes=chunk_bytes)


@settings(_SETTINGS, max_examples=60)
@given(
    pair=table_pairs(),
    side=st.sampled_from(["expected", "candidate", "both"]),
    junk=st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb", b"\x80abc"]),
    where=st.floats(0, 1),
)
def test_bytes_that_are_not_utf8_are_refused_like_published_crashes(
    published: PublishedScorerWorker,
    case_dir: Path,
    pair: tuple[bytes, bytes],
    side: str,
    junk: bytes,
    where: float,
) -> None:
    def spoil(data: bytes) -> bytes:
        cut = int(len(data) * where)
        return data[:cut] + junk + data[cut:]

    expected, candidate = pair
    if side in ("expected", "both"):
        expected = spoil(expected)
    if side in ("candidate", "both"):
        candidate = spoil(candidate)
    reference = compare_with_published(published, case_dir, expected, candidate, chunk_bytes=8)
    assert reference.exit_code != 0 or junk == b"\xef\xbb"  # b"\xef\xbb" + "\xbf..." may be valid


# -- longer registers: misalignment, resynchronisation, repeated ids ------------------------

COLUMNS = ["file_id", "call_local_datetime", "direction", "manager_name", "duration_sec"]


def register_lines(count_rows: int, rng: random.Random) -> list[list[str]]:
    names = ["Anna Petrova", "Smirnova, Olga", 'Ivan "Vanya" Sidorov', "Line\nBreak"]
    return [
        [
            f"f{index:05d}",
            f"2026-03-02T{index % 24:02d}:{index % 60:02d}:00+03:00",
            rng.choice(["incoming", "outgoing"]),
            rng.choice(names) if rng.random() < 0.1 else names[0],
            str(rng.randrange(1, 600)),
        ]
        for index in range(count_rows)
    ]


def edit_register(rows: list[list[str]], rng: random.Random, edits: int) -> list[list[str]]:
    rows = [list(row) for row in rows]
    for _ in range(edits):
        if not rows:
            break
        index = rng.randrange(len(rows))
        operation = rng.choice(["drop", "drop_run", "add", "dup", "swap", "move", "change"])
        if operation == "drop":
            del rows[index]
        elif operation == "drop_run":
            del rows[index : index + rng.randrange(2, 80)]
        elif operation == "add":
            rows.insert(index, [f"x{rng.randrange(10**6)}", "t", "incoming", "n", "1"])
        elif operation == "dup":
            rows.insert(rng.randrange(len(rows) + 1), list(rows[index]))
        elif operation == "swap":
            other = rng.randrange(len(rows))
            rows[index], rows[other] = rows[other], rows[index]
        elif operation == "move":
            rows.insert(rng.randrange(len(rows) + 1), rows.pop(index))
        else:
            rows[index][rng.randrange(len(COLUMNS))] = rng.choice(["", "changed", rows[0][0]])
    return rows


def csv_bytes(rows: list[list[str]], ending: str = "\n") -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator=ending)
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


@settings(_SETTINGS, max_examples=40)
@given(
    pure_python=st.booleans(),
    seed=st.integers(0, 2**32),
    rows=st.integers(0, 1500),
    edits=st.integers(0, 12),
    chunk_bytes=st.sampled_from([None, 64, 333, 4096]),
    ending=st.sampled_from(["\n", "\r\n"]),
)
def test_edited_registers_match_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    pure_python: bool,
    seed: int,
    rows: int,
    edits: int,
    chunk_bytes: int | None,
    ending: str,
) -> None:
    rng = random.Random(seed)
    expected_rows = register_lines(rows, rng)
    candidate_rows = edit_register(expected_rows, rng, edits)
    with without_compiled(pure_python):  # True: as an install without a C compiler scores
        compare_with_published(
            published,
            case_dir,
            csv_bytes(expected_rows, ending),
            csv_bytes(candidate_rows, rng.choice(["\n", "\r\n"])),
            chunk_bytes=chunk_bytes,
        )
