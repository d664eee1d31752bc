"""The keyed join's fast road, rows paired by whole text, against the published scorer.

`text_join` scores a candidate whose rows are mostly the expected ones in another order; it
must give the published result whenever it answers, answer for every register it is made for
(one header of distinct names, one-line expected rows with ids of their own), and give way to
the digest join (None) otherwise. Each case names the kind of candidate row it exercises: a
copy of an expected row met for the first time, a repeat, a row of its own (a changed field, a
new id, an empty or missing id, a record spanning lines), before or after its id's expected
copy, within one batch or across batches.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.pilot import _score_final_keyed, _score_final_textjoin
from provebench.pilot._score_final import _score
from provebench.pilot._score_final_textjoin import Declined, text_join
from tests.helpers.published_scorer import PublishedScorerWorker
from tests.pilot.test_score_final_differential import (
    _SETTINGS,
    COLUMNS,
    csv_bytes,
    edit_register,
    register_lines,
)
from tests.pilot.test_score_final_keyed import shuffled, write_pair

_names = iter(range(10**9))
# Why `text_join` declined, in the order of the calls of `text_joined` that it declined.
declined: list[Declined] = []


def text_joined(
    published: PublishedScorerWorker,
    directory: Path,
    expected: bytes,
    candidate: bytes,
    chunk_bytes: int = 1 << 22,
) -> bool:
    """Whether `text_join` answered; when it did, its score is the published one."""
    expected_path, candidate_path = write_pair(
        directory, f"text{next(_names)}", expected, candidate
    )
    join = text_join(expected_path, candidate_path, {"chunk_bytes": chunk_bytes})
    if isinstance(join, Declined):
        declined.append(join)
        return False
    reference = published.run(expected_path, candidate_path)
    assert reference.exit_code == 0, reference.stderr
    ours = _score(join, join.fields_matched, join.fields_total)
    assert ours.to_json() == reference.stdout.decode("utf-8")
    # The digest join, which scores whatever this road declines, agrees as well.
    digest = _score_final_keyed.digest_join(
        expected_path, candidate_path, {"chunk_bytes": chunk_bytes}
    )
    assert vars(digest) == vars(join)  # every count, not only the metrics they give
    return True


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


@settings(_SETTINGS, max_examples=40)
@given(**SHUFFLED_WITH_DEFECTS)
def test_shuffled_registers_with_defects_score_as_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    seed: int,
    rows: int,
    share: float,
    edits: int,
    chunk_bytes: int,
) -> None:
    expected_rows, candidate_rows = shuffled_with_defects(seed, rows, share, edits)
    answered = text_joined(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows), chunk_bytes
    )
    leftovers = len(candidate_rows) - len(
        set(map(tuple, candidate_rows)) & set(map(tuple, expected_rows))
    )
    # A register of its own kind is always answered, unless most of its rows differ.
    assert answered or leftovers > _score_final_textjoin.LEFTOVER_FLOOR


def _rows(count: int = 300) -> list[list[str]]:
    return one_line_register(count)


def _reversed(rows: list[list[str]]) -> list[list[str]]:
    return [list(row) for row in reversed(rows)]


def _changed(row: list[str], column: int = 4, value: str = "9999") -> list[str]:
    row = list(row)
    row[column] = value
    return row


CANDIDATES = {
    "the expected rows": lambda rows: [list(row) for row in rows],
    "in order, a field changed in place": lambda rows: [
        _changed(row) if index == 7 else row for index, row in enumerate(rows)
    ],
    "a permutation": lambda rows: _reversed(rows),
    "rows missing": lambda rows: _reversed(rows)[::2],
    "a row of a new id": lambda rows: [*_reversed(rows), ["n-1", "t", "incoming", "n", "1"]],
    "a changed row": lambda rows: [
        _changed(row) if index == 7 else row for index, row in enumerate(_reversed(rows))
    ],
    "a repeat in a later batch": lambda rows: [*_reversed(rows), rows[3]],
    "a repeat next to its first copy": lambda rows: [
        rows[5],
        rows[5],
        *_reversed(rows)[:-6],
        *rows[:5],
    ],
    "another row of an id after its copy": lambda rows: [*_reversed(rows), _changed(rows[9])],
    "another row of an id before its copy": lambda rows: [_changed(rows[9]), *_reversed(rows)],
    "another row of an id between two copies": lambda rows: [
        rows[9],
        _changed(rows[9]),
        *_reversed(rows),
    ],
    "only changed rows of an id, twice": lambda rows: [
        _changed(rows[0], 2, "x"),
        *_reversed(rows)[:-1],
        _changed(rows[0], 3, "y"),
    ],
    "an empty id and a short row": lambda rows: [
        *_reversed(rows),
        ["", "t", "in", "n", "1"],
        ["f00001"],
    ],
    "a long row": lambda rows: [*_reversed(rows)[1:], [*rows[0], "extra"]],
    "a record spanning lines": lambda rows: [*_reversed(rows), ["f00002", "t", "in", "a\nb", "1"]],
}


@pytest.mark.parametrize("chunk_bytes", [48, 1 << 22])
@pytest.mark.parametrize("kind", list(CANDIDATES))
def test_each_kind_of_candidate_row_is_answered_as_published(
    published: PublishedScorerWorker, case_dir: Path, kind: str, chunk_bytes: int
) -> None:
    rows = _rows()
    candidate = CANDIDATES[kind](rows)
    assert text_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate), chunk_bytes)


def _with_header(header: list[str], rows: list[list[str]]) -> bytes:
    text = ",".join(header) + "\n" + "".join(",".join(row) + "\n" for row in rows)
    return text.encode("utf-8")


DECLINED = {
    "another candidate header": lambda rows: (
        csv_bytes(rows),
        _with_header(
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
        _with_header(["file_id", "a", "a", "b", "c"], [["f1", "1", "2", "3", "4"]]),
        _with_header(["file_id", "a", "a", "b", "c"], [["f1", "1", "2", "3", "4"]]),
    ),
    "no file_id column": lambda rows: (
        _with_header(["id", "a"], [["f1", "1"]]),
        _with_header(["id", "a"], [["f1", "1"]]),
    ),
}


@pytest.mark.parametrize("kind", list(DECLINED))
def test_files_it_is_not_made_for_go_to_the_digest_join(
    published: PublishedScorerWorker, case_dir: Path, kind: str
) -> None:
    expected, candidate = DECLINED[kind](_rows())
    assert not text_joined(published, case_dir, expected, candidate)
    assert declined[-1] is Declined.NOT_PLAIN  # the id join is not for these files either


def test_a_candidate_of_mostly_other_rows_gives_way_after_its_first_rows(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_score_final_textjoin, "LEFTOVER_FLOOR", 16)
    rows = _rows(400)
    candidate = [_changed(row) for row in _reversed(rows)]
    assert not text_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate), 333)
    assert declined[-1] is Declined.ROWS_DIFFER  # the id join pairs them
    # One changed row in ten stays under the share: answered.
    candidate = [
        _changed(row) if index % 10 == 0 else row for index, row in enumerate(_reversed(rows))
    ]
    assert text_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate), 333)


def test_a_quoted_field_with_a_comma_is_a_row_like_any_other(
    published: PublishedScorerWorker, case_dir: Path
) -> None:
    rows = _rows(50)
    rows[4][3] = "Smirnova, Olga"
    rows[6][3] = 'Ivan "Vanya" Sidorov'
    candidate = _reversed(rows)
    candidate.append(_changed(rows[4], 3, "Smirnova,Olga"))  # the same fields joined, no space
    assert text_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate))


class _SeenBatches:
    """Counts the expected batches the text join reads before it answers or gives way."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.batches = 0
        real = _score_final_textjoin._Foretaste.see

        def see(foretaste: object, text_chars: int, records: list[object]) -> None:
            self.batches += 1
            real(foretaste, text_chars, records)  # type: ignore[arg-type]

        monkeypatch.setattr(_score_final_textjoin._Foretaste, "see", see)


def test_a_candidate_of_changed_rows_gives_way_before_the_expected_file_is_read(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _SeenBatches(monkeypatch)
    rows = _rows(4000)
    changed = [_changed(row) for row in shuffled(rows, random.Random(8), 1.0)]
    assert not text_joined(published, case_dir, csv_bytes(rows), csv_bytes(changed), 4096)
    assert declined[-1] is Declined.ROWS_DIFFER
    batches_in_file = len(csv_bytes(rows)) // 4096
    assert 0 < seen.batches <= batches_in_file // 5
    # The same rows unchanged, shuffled or in reverse order (the candidate's first rows are the
    # expected file's last): the sample is spread over the file, so it is found as it is read.
    for candidate in (shuffled(rows, random.Random(9), 1.0), _reversed(rows)):
        seen.batches = 0
        assert text_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate), 4096)
        assert seen.batches >= batches_in_file


def test_another_candidate_header_is_seen_before_the_expected_file_is_read(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _SeenBatches(monkeypatch)
    rows = [row for row in _rows(50) if "," not in "".join(row) and '"' not in "".join(row)]
    expected = csv_bytes(rows)
    candidate = _with_header([*COLUMNS[1:], COLUMNS[0]], [[*row[1:], row[0]] for row in rows])
    assert not text_joined(published, case_dir, expected, candidate)
    assert seen.batches == 0


def test_a_bad_candidate_is_named_after_the_expected_file(case_dir: Path) -> None:
    rows = _rows(40)
    bad_candidate = b"file_id,\xff\n" + csv_bytes(rows)[20:]
    expected, candidate = write_pair(case_dir, "bad-candidate", csv_bytes(rows), bad_candidate)
    with pytest.raises(ProvebenchError) as raised:
        text_join(expected, candidate, {})
    assert str(candidate) in raised.value.one_line()
    bad_expected = csv_bytes(rows) + b"f99999,\xfe\n"
    expected, candidate = write_pair(case_dir, "both-bad", bad_expected, bad_candidate)
    with pytest.raises(ProvebenchError) as raised:
        text_join(expected, candidate, {})
    assert str(expected) in raised.value.one_line()


def test_an_expected_record_spanning_lines_is_declined_while_the_sample_is_looked_up(
    published: PublishedScorerWorker, case_dir: Path
) -> None:
    rows = _rows(1500)  # enough lines for the sample to be looked up
    expected = csv_bytes([["f99999", "t", "in", "a\nb", "1"], *rows])
    assert not text_joined(published, case_dir, expected, csv_bytes(_reversed(rows)))
