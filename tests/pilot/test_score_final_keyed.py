"""The keyed join for unordered candidates, against the published `score_final_state.py`.

Past `SWITCH_UNPAIRED` unpaired rows the lockstep pass gives way to a keyed join
(`_score_final_keyed`). Here the keyed join scores every generated pair on its own (all the
reading quirks: BOM, blank first line, ragged rows, repeated columns, empty ids, NUL in fields),
and `score_final_state` is run on shuffled and partly shuffled registers with repeats and
defects, the switch observed; every outcome is compared byte for byte with the published script.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.pilot import _score_final as score_final_module
from provebench.pilot import _score_final_idjoin, _score_final_keyed, score_final_state
from provebench.pilot._score_final import _score
from tests.helpers.published_scorer import PublishedScorerWorker
from tests.pilot.test_score_final_differential import (
    _PUBLISHED_CRASHES,
    _SETTINGS,
    compare_with_published,
    csv_bytes,
    edit_register,
    register_lines,
    table_pairs,
)


@pytest.fixture
def switches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every call of the keyed join made by `score_final_state` (its rows: expected rows)."""
    calls: list[int] = []
    real = _score_final_keyed.keyed_join

    def spy(
        expected: str | Path, candidate: str | Path, sizes: dict[str, int]
    ) -> _score_final_keyed.KeyedJoin:
        calls.append(-1)  # replaced by the expected row count when the join returns
        join = real(expected, candidate, sizes)
        calls[-1] = join.expected_rows
        return join

    monkeypatch.setattr(_score_final_keyed, "keyed_join", spy)
    return calls


@pytest.fixture
def digest_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keyed join without its id road: every pair goes to the digest join."""
    monkeypatch.setattr(_score_final_keyed, "id_join", lambda *arguments: None)


def write_pair(directory: Path, name: str, expected: bytes, candidate: bytes) -> tuple[Path, Path]:
    expected_path = directory / f"{name}-expected.csv"
    candidate_path = directory / f"{name}-candidate.csv"
    expected_path.write_bytes(expected)
    candidate_path.write_bytes(candidate)
    return expected_path, candidate_path


_pair_numbers = iter(range(10**9))


@_SETTINGS
@given(pair=table_pairs(), chunk_bytes=st.sampled_from([4, 7, 64, 1 << 22]))
def test_keyed_join_alone_matches_published_on_generated_tables(
    published: PublishedScorerWorker, case_dir: Path, pair: tuple[bytes, bytes], chunk_bytes: int
) -> None:
    expected, candidate = write_pair(case_dir, f"alone{next(_pair_numbers)}", *pair)
    reference = published.run(expected, candidate)
    # Both roads: text first (digest when it declines), and the digest join on every pair.
    for join_of in (_score_final_keyed.keyed_join, _score_final_keyed.digest_join):
        try:
            join = join_of(expected, candidate, {"chunk_bytes": chunk_bytes})
        except ProvebenchError as error:  # bad bytes or a field over the limit, in one line
            assert reference.exit_code != 0, f"we refused a pair the published one scores: {error}"
            assert any(crash in reference.stderr for crash in _PUBLISHED_CRASHES), reference.stderr
            assert str(expected) in error.one_line() or str(candidate) in error.one_line()
            continue
        assert reference.exit_code == 0, reference.stderr
        ours = _score(join, join.fields_matched, join.fields_total)
        assert ours.to_json().encode("utf-8") == reference.stdout


def shuffled(rows: list[list[str]], rng: random.Random, share: float) -> list[list[str]]:
    """`share` of the positions, taken at random, get their rows permuted among them."""
    rows = [list(row) for row in rows]
    positions = [index for index in range(len(rows)) if rng.random() < share]
    moved = [rows[index] for index in positions]
    rng.shuffle(moved)
    for index, row in zip(positions, moved, strict=True):
        rows[index] = row
    return rows


@settings(_SETTINGS, max_examples=30)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(0, 1200),
    share=st.sampled_from([1.0, 1.0, 0.5, 0.1, 0.02]),
    edits=st.integers(0, 15),
    switch_at=st.sampled_from([0, 3, 50]),
    plain=st.booleans(),
    chunk_bytes=st.sampled_from([None, 333, 4096]),
    id_road=st.booleans(),
)
def test_shuffled_registers_match_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    switches: list[int],
    seed: int,
    rows: int,
    share: float,
    edits: int,
    switch_at: int,
    plain: bool,
    chunk_bytes: int | None,
    id_road: bool,
) -> None:
    monkeypatch.setattr(_score_final_keyed, "SWITCH_UNPAIRED", switch_at)
    if not id_road:
        monkeypatch.setattr(_score_final_keyed, "id_join", lambda *arguments: None)
    rng = random.Random(seed)
    expected_rows = register_lines(rows, rng)
    if plain:  # no record spanning lines: the batches take the plain-record path
        expected_rows = [[field.replace("\n", " ") for field in row] for row in expected_rows]
    # Defects first (drops, additions, repeated rows, changed fields), then the disorder.
    candidate_rows = shuffled(edit_register(expected_rows, rng, edits), rng, share)
    if rng.random() < 0.3:  # a repeated id on the expected side too
        expected_rows = expected_rows + expected_rows[: rng.randrange(1, 4)]
    compare_with_published(
        published,
        case_dir,
        csv_bytes(expected_rows),
        csv_bytes(candidate_rows),
        chunk_bytes=chunk_bytes,
    )


def plain_register(count: int) -> list[list[str]]:
    rng = random.Random(count)
    return [[field.replace("\n", " ") for field in row] for row in register_lines(count, rng)]


def test_a_shuffled_register_switches_at_the_default_threshold(
    published: PublishedScorerWorker, case_dir: Path, switches: list[int]
) -> None:
    # A shuffle of N rows holds about N/4 unpaired at its worst point: well past the threshold.
    expected_rows = plain_register(6 * _score_final_keyed.SWITCH_UNPAIRED)
    candidate_rows = shuffled(expected_rows, random.Random(5), 1.0)
    candidate_rows[100][4] = "0"  # one wrong duration, in the last column
    compare_with_published(published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows))
    assert switches == [len(expected_rows)]


def test_commas_inside_fields_never_prove_rows_equal(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    switches: list[int],
    digest_only: None,
) -> None:
    # ["x", "in,coming", "Anna"] and ["x", "in", "coming,Anna"] join to the same text.
    monkeypatch.setattr(_score_final_keyed, "SWITCH_UNPAIRED", 0)
    expected_rows = plain_register(40)
    candidate_rows = [list(row) for row in reversed(expected_rows)]
    for row in expected_rows[:5]:
        row[2], row[3] = "in,coming", "Anna"
    for row in candidate_rows[-5:]:
        row[2], row[3] = "in", "coming,Anna"
    reference = compare_with_published(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows), chunk_bytes=64
    )
    assert switches == [40]
    assert b'"field_accuracy": 1.0' not in reference.stdout


def test_a_shuffled_register_switches_to_the_keyed_join(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    switches: list[int],
) -> None:
    monkeypatch.setattr(_score_final_keyed, "SWITCH_UNPAIRED", 64)
    rng = random.Random(7)
    expected_rows = register_lines(3000, rng)
    candidate_rows = shuffled(expected_rows, rng, 1.0)
    candidate_rows[10][3] = "changed"  # one wrong field
    candidate_rows.append(list(candidate_rows[5]))  # one id twice, its last row equal
    candidate_rows.insert(20, list(candidate_rows[30]))
    candidate_rows[20][4] = "9999"  # and one twice with a different first row
    candidate_rows.append(list(candidate_rows[40]))
    candidate_rows[-1][2] = "sideways"  # and one twice with a different last row
    reference = compare_with_published(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows)
    )
    assert switches == [3000]
    assert b'"uniqueness": 0.0' in reference.stdout
    assert b'"field_accuracy": 1.0' not in reference.stdout


def test_an_ordered_register_with_defects_stays_in_lockstep(
    published: PublishedScorerWorker, case_dir: Path, switches: list[int]
) -> None:
    rng = random.Random(11)
    expected_rows = register_lines(20_000, rng)
    candidate_rows = edit_register(expected_rows, rng, 60)
    compare_with_published(published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows))
    assert switches == []


def test_bad_bytes_after_the_switch_are_named_like_the_lockstep_pass(
    case_dir: Path, monkeypatch: pytest.MonkeyPatch, switches: list[int]
) -> None:
    monkeypatch.setattr(_score_final_keyed, "SWITCH_UNPAIRED", 8)
    rng = random.Random(3)
    expected_rows = register_lines(500, rng)
    candidate = csv_bytes(shuffled(expected_rows, rng, 1.0)) + b"f99999,\xff\n"
    expected, candidate_path = write_pair(case_dir, "bad", csv_bytes(expected_rows), candidate)
    with pytest.raises(ProvebenchError) as raised:
        score_final_state(expected, candidate_path, chunk_bytes=1024)
    assert switches == [-1]
    message = raised.value.one_line()
    assert str(candidate_path) in message
    assert "not valid UTF-8" in message


def test_many_missing_rows_in_order_stay_in_lockstep(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    switches: list[int],
) -> None:
    # Missing rows stay unpaired to the end: past the count, but a small share of the rows.
    monkeypatch.setattr(_score_final_keyed, "SWITCH_UNPAIRED", 16)
    expected_rows = plain_register(4000)
    candidate_rows = [row for index, row in enumerate(expected_rows) if index % 20 != 7]
    compare_with_published(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows), chunk_bytes=4096
    )
    assert switches == []


@settings(_SETTINGS, max_examples=20)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(1, 300),
    changed_share=st.sampled_from([1.0, 0.5]),
    repeats=st.integers(0, 6),
    round_ids=st.sampled_from([1, 2, 7]),
)
def test_many_changed_rows_are_compared_in_rounds(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    digest_only: None,
    seed: int,
    rows: int,
    changed_share: float,
    repeats: int,
    round_ids: int,
) -> None:
    # A shuffled candidate whose rows mostly differ: the differing ids are compared field by
    # field a few at a time; repeated candidate rows must still count as "last row wins".
    monkeypatch.setattr(_score_final_keyed, "SWITCH_UNPAIRED", 0)
    monkeypatch.setattr(_score_final_keyed, "MISMATCH_ROUND_IDS", round_ids)
    rng = random.Random(seed)
    expected_rows = plain_register(rows)
    candidate_rows = [list(row) for row in expected_rows]
    for row in candidate_rows:
        if rng.random() < changed_share:
            row[rng.randrange(1, len(row))] = rng.choice(["changed", "", "x,y"])
    for _ in range(repeats):  # a repeated row, changed or not, anywhere
        row = list(rng.choice(candidate_rows))
        if rng.random() < 0.5:
            row[1] = "again"
        candidate_rows.insert(rng.randrange(len(candidate_rows) + 1), row)
    rng.shuffle(candidate_rows)
    compare_with_published(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows), chunk_bytes=97
    )


def test_the_first_rows_tell_a_shuffled_candidate_from_an_ordered_one(case_dir: Path) -> None:
    expected_rows = plain_register(3000)
    rng = random.Random(2)
    candidates = {
        "shuffled": (shuffled(expected_rows, rng, 1.0), True),
        "half the rows shuffled": (shuffled(expected_rows, rng, 0.5), True),
        "in order": (expected_rows, False),
        "every 20th row missing": (
            [row for index, row in enumerate(expected_rows) if index % 20 != 7],
            False,
        ),
        "in order with defects": (edit_register(expected_rows, rng, 40), False),
        "a few rows moved": (shuffled(expected_rows, rng, 0.02), False),
        "too few rows to tell": (shuffled(expected_rows[:200], rng, 1.0), False),
    }
    for name, (candidate_rows, unordered) in candidates.items():
        expected, candidate = write_pair(
            case_dir, name.replace(" ", "-"), csv_bytes(expected_rows), csv_bytes(candidate_rows)
        )
        assert _score_final_keyed.looks_unordered(expected, candidate) is unordered, name
        assert not _score_final_keyed.looks_unordered(case_dir / "missing.csv", candidate)


def _with_changed_rows(rows: list[list[str]], rng: random.Random, share: float) -> list[list[str]]:
    """The rows, each with its duration changed at the rate `share`."""
    return [
        [*row[:4], row[4] + "1", *row[5:]] if rng.random() < share else list(row) for row in rows
    ]


class _Roads:
    """The keyed join's roads, in the order they were taken (each still answers)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.taken: list[str] = []
        for name in ("id_join", "digest_join"):
            monkeypatch.setattr(_score_final_keyed, name, self._spy(name))

    def _spy(self, name: str) -> object:
        real = getattr(_score_final_keyed, name)

        def spy(*arguments: object) -> object:
            self.taken.append(name)
            return real(*arguments)

        return spy


def test_an_unordered_candidate_goes_to_the_id_join_first(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roads = _Roads(monkeypatch)
    expected_rows = plain_register(3000)
    copies = shuffled(expected_rows, random.Random(6), 1.0)
    changed = _with_changed_rows(copies, random.Random(7), 1.0)
    repeated = [*changed[:1500], changed[10], *changed[1500:]]
    without_id = [*copies[:1500], ["", *copies[0][1:]], *copies[1500:]]
    for candidate_rows in (copies, changed, repeated, without_id):
        roads.taken.clear()
        compare_with_published(
            published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows)
        )
        assert roads.taken == ["id_join"]
    # When it declines (more repeated rows than it holds; a repeated expected id), the digest
    # join scores.
    monkeypatch.setattr(_score_final_idjoin, "HELD_LIMIT", 0)
    for expected, candidate in (
        (expected_rows, [*copies[:1500], copies[0], *copies[1500:]]),
        ([*expected_rows, expected_rows[5]], copies),
    ):
        roads.taken.clear()
        compare_with_published(published, case_dir, csv_bytes(expected), csv_bytes(candidate))
        assert roads.taken == ["id_join", "digest_join"]


def test_a_candidate_that_looks_unordered_skips_the_lockstep_pass(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    switches: list[int],
) -> None:
    def no_lockstep(*arguments: object) -> None:
        raise AssertionError("the lockstep pass ran")

    monkeypatch.setattr(score_final_module, "join_in_halves", no_lockstep)
    monkeypatch.setattr(score_final_module, "_one_pass", no_lockstep)
    expected_rows = plain_register(2000)
    candidate_rows = shuffled(expected_rows, random.Random(4), 1.0)
    compare_with_published(published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows))
    assert switches == [2000]
