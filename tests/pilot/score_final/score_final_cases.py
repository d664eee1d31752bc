"""Registers and candidates for the id join's tests, kept apart from them as data: each
candidate names the kind of row it exercises (a copy of an expected row met for the first time,
a repeat, a row of its own — a changed field, a new id, an empty or missing id, a record
spanning lines — before or after its id's expected copy, within one batch or across batches),
and each pair of files the id join is not made for (the published road scores those).
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import strategies as st

from tests.pilot.score_final.test_score_final_differential import (
    COLUMNS,
    csv_bytes,
    edit_register,
    register_lines,
)


def write_pair(directory: Path, name: str, expected: bytes, candidate: bytes) -> tuple[Path, Path]:
    expected_path = directory / f"{name}-expected.csv"
    candidate_path = directory / f"{name}-candidate.csv"
    expected_path.write_bytes(expected)
    candidate_path.write_bytes(candidate)
    return expected_path, candidate_path


def shuffled(rows: list[list[str]], rng: random.Random, share: float) -> list[list[str]]:
    """`share` of the positions, taken at random, get their rows permuted among them."""
    rows = [list(row) for row in rows]
    positions = [index for index in range(len(rows)) if rng.random() < share]
    moved = [rows[index] for index in positions]
    rng.shuffle(moved)
    for index, row in zip(positions, moved, strict=True):
        rows[index] = row
    return rows


def one_line_register(count: int, seed: int = 3) -> list[list[str]]:
    """Register rows on one line each; some quoted (a comma, a quote in the name)."""
    rows = register_lines(count, random.Random(seed))
    return [[field.replace("\n", " ") for field in row] for row in rows]


# Shuffled registers with defects: a seed, a size, the share of rows shuffled, edits, a read size.
SHUFFLED_WITH_DEFECTS = {
    "seed": st.integers(0, 2**32),
    "rows": st.integers(1, 900),
    "share": st.sampled_from([1.0, 0.5, 0.05]),
    "edits": st.integers(0, 12),
    "chunk_bytes": st.sampled_from([64, 333, 4096, 1 << 22]),
}


def shuffled_with_defects(
    seed: int, rows: int, share: float, edits: int
) -> tuple[list[list[str]], list[list[str]]]:
    """An expected register and a candidate: drops, additions, repeats, changed fields (some to
    another row's id, some to ""), moves, then `share` of its rows shuffled."""
    rng = random.Random(seed)
    expected_rows = one_line_register(rows, seed)
    return expected_rows, shuffled(edit_register(expected_rows, rng, edits), rng, share)


def register_rows(count: int = 300) -> list[list[str]]:
    return one_line_register(count)


def reversed_rows(rows: list[list[str]]) -> list[list[str]]:
    return [list(row) for row in reversed(rows)]


def changed_row(row: list[str], column: int = 4, value: str = "9999") -> list[str]:
    row = list(row)
    row[column] = value
    return row


CANDIDATES = {
    "the expected rows": lambda rows: [list(row) for row in rows],
    "in order, a field changed in place": lambda rows: [
        changed_row(row) if index == 7 else row for index, row in enumerate(rows)
    ],
    "a permutation": lambda rows: reversed_rows(rows),
    "rows missing": lambda rows: reversed_rows(rows)[::2],
    "a row of a new id": lambda rows: [*reversed_rows(rows), ["n-1", "t", "incoming", "n", "1"]],
    "a changed row": lambda rows: [
        changed_row(row) if index == 7 else row for index, row in enumerate(reversed_rows(rows))
    ],
    "a repeat in a later batch": lambda rows: [*reversed_rows(rows), rows[3]],
    "a repeat next to its first copy": lambda rows: [
        rows[5],
        rows[5],
        *reversed_rows(rows)[:-6],
        *rows[:5],
    ],
    "another row of an id after its copy": lambda rows: [
        *reversed_rows(rows),
        changed_row(rows[9]),
    ],
    "another row of an id before its copy": lambda rows: [
        changed_row(rows[9]),
        *reversed_rows(rows),
    ],
    "another row of an id between two copies": lambda rows: [
        rows[9],
        changed_row(rows[9]),
        *reversed_rows(rows),
    ],
    "only changed rows of an id, twice": lambda rows: [
        changed_row(rows[0], 2, "x"),
        *reversed_rows(rows)[:-1],
        changed_row(rows[0], 3, "y"),
    ],
    "an empty id and a short row": lambda rows: [
        *reversed_rows(rows),
        ["", "t", "in", "n", "1"],
        ["f00001"],
    ],
    "a long row": lambda rows: [*reversed_rows(rows)[1:], [*rows[0], "extra"]],
    "a record spanning lines": lambda rows: [
        *reversed_rows(rows),
        ["f00002", "t", "in", "a\nb", "1"],
    ],
}


def with_header(header: list[str], rows: list[list[str]]) -> bytes:
    text = ",".join(header) + "\n" + "".join(",".join(row) + "\n" for row in rows)
    return text.encode("utf-8")


DECLINED = {
    "another candidate header": lambda rows: (
        csv_bytes(rows),
        with_header(
            [*COLUMNS[1:], COLUMNS[0]],
            [
                [*row[1:], row[0]]
                for row in rows[::-1]
                if '"' not in ",".join(row) and "," not in "".join(row)
            ],
        ),
    ),
    "a repeated expected id": lambda rows: (csv_bytes([*rows, rows[0]]), csv_bytes(rows[::-1])),
    "an empty expected id": lambda rows: (
        csv_bytes([*rows, ["", "t", "in", "n", "1"]]),
        csv_bytes(rows[::-1]),
    ),
    "a short expected row": lambda rows: (csv_bytes([*rows, ["f99999"]]), csv_bytes(rows[::-1])),
    "a short expected row with a quoted comma": lambda rows: (
        csv_bytes([*rows, ["f99999", "t,in", "n", "1"]]),
        csv_bytes(rows[::-1]),
    ),
    "an expected record spanning lines": lambda rows: (
        csv_bytes([*rows, ["f99999", "t", "in", "a\nb", "1"]]),
        csv_bytes(rows[::-1]),
    ),
    "a repeated column name": lambda rows: (
        with_header(["file_id", "a", "a", "b", "c"], [["f1", "1", "2", "3", "4"]]),
        with_header(["file_id", "a", "a", "b", "c"], [["f1", "1", "2", "3", "4"]]),
    ),
    "no file_id column": lambda rows: (
        with_header(["id", "a"], [["f1", "1"]]),
        with_header(["id", "a"], [["f1", "1"]]),
    ),
}
