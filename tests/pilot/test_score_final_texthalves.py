"""The text join in two processes gives one process's counts, or declines as one process would.

`text_join_in_halves` cuts large files in two parts, pairs each part in its own process and
hands each process the other's unpaired rows. Here the size threshold is lowered to zero, so
that small generated pairs take that path, and every answer is compared, count by count, with
the digest join and, score by score, with the published script. The cases where rows meet
across the cut are pinned one by one: a copy of an expected row in the other part, a repeat
in both parts, an id with a changed row in one part and its copy in the other, an expected id
in both parts; and so are the ways two processes give up for one (a cut inside a quoted field,
bad bytes in the child's part, a child that fails, an order the parts cannot decide).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings

from provebench._errors import ProvebenchError
from provebench.pilot import _score_final_halves, _score_final_texthalves, score_final_state
from provebench.pilot._score_final import _score
from provebench.pilot._score_final_counts import KeyedJoin
from provebench.pilot._score_final_csv import record_fields
from provebench.pilot._score_final_keyed import digest_join
from provebench.pilot._score_final_layout import RowLayout
from provebench.pilot._score_final_texthalves import text_join_in_halves
from provebench.pilot._score_final_textjoin import Declined, text_join
from tests.helpers.published_scorer import PublishedScorerWorker
from tests.pilot.test_score_final_differential import _SETTINGS, csv_bytes
from tests.pilot.test_score_final_keyed import write_pair
from tests.pilot.test_score_final_textjoin import (
    CANDIDATES,
    SHUFFLED_WITH_DEFECTS,
    _changed,
    _reversed,
    _rows,
    shuffled_with_defects,
)
from tests.pilot.test_score_final_textjoin import (
    DECLINED as DECLINED_FILES,
)

_names = iter(range(10**9))


@pytest.fixture(autouse=True)
def halves_for_any_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_score_final_texthalves, "TEXT_HALVES_MIN_BYTES", 0)
    # One core is enough to test the exchange (the scorer itself waits for two).
    monkeypatch.setattr(_score_final_texthalves, "can_fork", lambda: hasattr(os, "fork"))


def in_halves(
    published: PublishedScorerWorker,
    directory: Path,
    expected: bytes,
    candidate: bytes,
    chunk_bytes: int = 1 << 20,
) -> str:
    """What the two processes made of a pair: "answered" (then every count is the digest
    join's and the score the published one), "declined" (then one process declines too) or
    "one process" (they could not tell)."""
    expected_path, candidate_path = write_pair(
        directory, f"halves{next(_names)}", expected, candidate
    )
    sizes = {"chunk_bytes": chunk_bytes}
    outcome = text_join_in_halves(expected_path, candidate_path, sizes)
    if outcome is None:
        return "one process"
    if isinstance(outcome, Declined):
        assert isinstance(text_join(expected_path, candidate_path, sizes), Declined)
        return "declined"
    assert isinstance(outcome, KeyedJoin)
    assert vars(outcome) == vars(digest_join(expected_path, candidate_path, sizes))
    reference = published.run(expected_path, candidate_path)
    assert reference.exit_code == 0, reference.stderr
    ours = _score(outcome, outcome.fields_matched, outcome.fields_total)
    assert ours.to_json() == reference.stdout.decode("utf-8")
    return "answered"


@settings(_SETTINGS, max_examples=40)
@given(**SHUFFLED_WITH_DEFECTS)
def test_shuffled_registers_with_defects_score_as_in_one_process(
    published: PublishedScorerWorker,
    case_dir: Path,
    seed: int,
    rows: int,
    share: float,
    edits: int,
    chunk_bytes: int,
) -> None:
    expected_rows, candidate_rows = shuffled_with_defects(seed, rows, share, edits)
    outcome = in_halves(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows), chunk_bytes
    )
    assert outcome in ("answered", "declined", "one process")
    if min(rows, len(candidate_rows)) >= 50 and share == 1.0:
        # Files to cut and no order to settle (the first rows moved): answered, unless most
        # rows differ, which one process declines too.
        assert outcome == "answered" or (edits > 0 and outcome == "declined")


@pytest.mark.parametrize("chunk_bytes", [48, 1 << 20])
@pytest.mark.parametrize("kind", list(CANDIDATES))
def test_each_kind_of_candidate_row_is_answered_as_in_one_process(
    published: PublishedScorerWorker, case_dir: Path, kind: str, chunk_bytes: int
) -> None:
    rows = _rows()
    candidate = CANDIDATES[kind](rows)
    outcome = in_halves(published, case_dir, csv_bytes(rows), csv_bytes(candidate), chunk_bytes)
    assert outcome == "answered"


def _unmet_on_both_sides(rows: list[list[str]], unmet: int, last: list[str]) -> list[list[str]]:
    """The rows reversed but for row `unmet`, whose id has two rows of its own: one with two
    fields changed, late in the first part, and `last`, early in the second part."""
    others = [row for row in _reversed(rows) if row != rows[unmet]]
    first = _changed(_changed(rows[unmet], 2, "x"), 4, "x")
    return [*others[:150], first, *others[150:215], last, *others[215:]]


# Rows that meet across the cut: the first part of each file is about its first half.
ACROSS = {
    "a copy in each part": lambda rows: [rows[-1], *_reversed(rows)],
    "a changed row in the first part, the copy in the second": lambda rows: [
        _changed(rows[-1]),
        *_reversed(rows),
    ],
    "the copy in the first part, a changed row in the second": lambda rows: [
        *_reversed(rows),
        _changed(rows[0]),
    ],
    "a changed row before and after a copy, across the cut": lambda rows: [
        _changed(rows[2], 2, "x"),
        *_reversed(rows),
        _changed(rows[2], 3, "y"),
    ],
    "a copy and then a changed row in the first part, the paired copy in the second": lambda rows: [
        rows[-1],
        _changed(rows[-1]),
        *_reversed(rows)[1:],
        rows[-1],
    ],
    # The first part's rows come first: the last row of an id is the second part's.
    "changed rows of an unmet id, late in the first part and early in the second": lambda rows: (
        _unmet_on_both_sides(rows, 0, _changed(rows[0], 3, "y"))
    ),
    "a changed row and then a row spanning lines of an unmet id": lambda rows: _unmet_on_both_sides(
        rows, -1, _changed(rows[-1], 3, "a\nb")
    ),
    "a changed quoted row of an unmet id, in the other part": lambda rows: [
        *[row for index, row in enumerate(_reversed(rows)) if index != len(rows) - 8],
        _changed(rows[7]),
    ],
    "only changed rows of an id, one in each part": lambda rows: [
        _changed(rows[0], 2, "x"),
        *_reversed(rows)[:-1],
        _changed(rows[0], 3, "y"),
    ],
    "new ids in both parts": lambda rows: [
        ["n-1", "t", "in", "n", "1"],
        *_reversed(rows),
        ["n-2", "t", "in", "n", "1"],
    ],
    "empty ids in both parts": lambda rows: [
        ["", "t", "in", "n", "1"],
        *_reversed(rows),
        ["", "u", "in", "n", "1"],
    ],
    "records spanning lines in both parts": lambda rows: [
        ["f00002", "t", "in", "a\nb", "1"],
        *_reversed(rows),
        ["f00003", "t", "in", "c\nd", "1"],
    ],
}


@pytest.mark.parametrize("piece_bytes", [64, 1 << 20])
@pytest.mark.parametrize("kind", list(ACROSS))
def test_rows_that_meet_across_the_cut_are_counted_as_in_one_process(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    piece_bytes: int,
) -> None:
    # Small pieces: the unpaired rows handed over are read back in many pieces, some lines
    # longer than a piece.
    monkeypatch.setattr(_score_final_texthalves, "_PIECE_BYTES", piece_bytes)
    rows = _rows(400)
    assert rows[7] == _reversed(rows)[len(rows) - 8]
    rows[7][3] = "Smirnova, Olga"  # some quoted rows too
    rows[390][3] = 'Ivan "Vanya" Sidorov'
    candidate = ACROSS[kind](rows)
    expected_bytes, candidate_bytes = csv_bytes(rows), csv_bytes(candidate)
    assert in_halves(published, case_dir, expected_bytes, candidate_bytes, 512) == "answered"


@pytest.mark.parametrize("kind", list(DECLINED_FILES))
def test_files_one_process_declines_are_declined(
    published: PublishedScorerWorker, case_dir: Path, kind: str
) -> None:
    expected, candidate = DECLINED_FILES[kind](_rows())
    assert in_halves(published, case_dir, expected, candidate) in ("declined", "one process")


def test_an_expected_id_in_both_parts_is_declined(
    published: PublishedScorerWorker, case_dir: Path
) -> None:
    rows = _rows(400)
    repeated = [*rows[:-1], _changed(rows[0])]  # the first row's id again, at the end
    candidate = _reversed(repeated)
    outcome = in_halves(published, case_dir, csv_bytes(repeated), csv_bytes(candidate), 512)
    assert outcome == "declined"
    # ... and the scorer's answer (by the digest join) is the published one.
    expected_path, candidate_path = write_pair(
        case_dir, "repeated-id", csv_bytes(repeated), csv_bytes(candidate)
    )
    reference = published.run(expected_path, candidate_path)
    assert score_final_state(expected_path, candidate_path).to_json() == reference.stdout.decode()


def test_a_cut_inside_a_quoted_field_leaves_it_to_one_process(case_dir: Path) -> None:
    rows = [row for row in _rows(500) if "," not in "".join(row) and '"' not in "".join(row)]
    middle = rows[len(rows) // 2 - 60 : len(rows) // 2 + 60]
    # The rows about the expected file's middle are in the candidate only as the text of one
    # quoted field, at its middle: the candidate is cut where that text is, inside the field.
    inside = "\n".join(",".join(row) for row in middle)
    others = [row for row in _reversed(rows) if row not in middle]
    candidate = [*others[: len(others) // 2], ["f77777", "t", "in", inside, "1"]]
    candidate += others[len(others) // 2 :]
    expected_path, candidate_path = write_pair(
        case_dir, "quoted-cut", csv_bytes(rows), csv_bytes(candidate)
    )
    cuts = _score_final_halves.cut_points(expected_path, candidate_path, 0)
    assert cuts is not None
    field_start = csv_bytes(candidate).index(inside.encode())
    assert field_start < cuts[1] < field_start + len(inside)
    assert text_join_in_halves(expected_path, candidate_path, {"chunk_bytes": 512}) is None


def test_bad_bytes_in_the_second_part_leave_it_to_one_process_which_names_them(
    case_dir: Path,
) -> None:
    rows = _rows(400)
    candidate = csv_bytes(_reversed(rows)) + b"f99999,\xff\n"
    expected_path, candidate_path = write_pair(case_dir, "bad-second", csv_bytes(rows), candidate)
    assert text_join_in_halves(expected_path, candidate_path, {}) is None
    with pytest.raises(ProvebenchError) as raised:
        score_final_state(expected_path, candidate_path)
    assert str(candidate_path) in raised.value.one_line()


def test_a_child_that_fails_leaves_it_to_one_process(
    case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    real = _score_final_texthalves._PartPairing.take_spilled

    def fails_in_the_child(self: object, spill: object) -> object:
        if os.getpid() != parent:
            raise RuntimeError("the child fails")
        return real(self, spill)  # type: ignore[arg-type]

    monkeypatch.setattr(_score_final_texthalves._PartPairing, "take_spilled", fails_in_the_child)
    rows = _rows(400)
    expected_path, candidate_path = write_pair(
        case_dir, "child-fails", csv_bytes(rows), csv_bytes(_reversed(rows))
    )
    assert text_join_in_halves(expected_path, candidate_path, {}) is None


def test_first_parts_that_agree_but_differ_in_length_leave_the_order_to_one_process(
    published: PublishedScorerWorker, case_dir: Path
) -> None:
    rows = _rows(400)
    # In order, every id in its place, but the first 250 rows longer in the candidate (and the
    # expected file's middle row among them): the candidate is cut rows earlier. The first
    # parts agree as far as the shorter goes; the whole order is not known to either part.
    candidate = [
        _changed(row, 3, "a manager with a much longer name") if index < 250 else row
        for index, row in enumerate(rows)
    ]
    assert in_halves(published, case_dir, csv_bytes(rows), csv_bytes(candidate)) == "one process"
    # The same with the first rows shorter: the first parts agree as far as the expected goes.
    candidate = [_changed(row, 3, "") if index < 250 else row for index, row in enumerate(rows)]
    assert in_halves(published, case_dir, csv_bytes(rows), csv_bytes(candidate)) == "one process"
    # A candidate in order throughout is answered, its order correct.
    expected_path, candidate_path = write_pair(
        case_dir, "ordered", csv_bytes(rows), csv_bytes(rows)
    )
    join = text_join_in_halves(expected_path, candidate_path, {"chunk_bytes": 512})
    assert isinstance(join, KeyedJoin)
    assert join.order_ok


@pytest.mark.parametrize("piece_bytes", [8, 50, 1 << 20])
def test_unpaired_rows_handed_over_are_named_by_their_index_in_the_hand_over(
    monkeypatch: pytest.MonkeyPatch, piece_bytes: int
) -> None:
    monkeypatch.setattr(_score_final_texthalves, "_PIECE_BYTES", piece_bytes)
    lines = [f"f{index:03},t,in,n,1" for index in range(40)]
    handed_over = [*lines, 'g1,t,in,"n, m",1', lines[1]]
    with tempfile.TemporaryFile() as own_spill, tempfile.TemporaryFile() as spill:
        layout = RowLayout(["file_id", "a", "b", "c", "d"])
        pairing = _score_final_texthalves._PartPairing(lines[::2], layout, own_spill)
        spill.write("".join(line + "\n" for line in handed_over).encode())
        spill.flush()
        unpaired = pairing.take_spilled(spill)
    # Every odd line is no row of this part, nor are the last two.
    assert [index for index, _ in unpaired] == [*range(1, 40, 2), 40, 41]
    assert [record for _, record in unpaired][-2:] == ['g1,t,in,"n, m",1', lines[1]]
    assert record_fields(unpaired[-2][1]) == ["g1", "t", "in", "n, m", "1"]
    assert not pairing.pending
