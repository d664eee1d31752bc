"""The id join, rows paired by id and compared in bulk, against the published scorer.

`id_join` scores every pair of plain registers; whenever it answers, every count must be the
published road's and the score the published script's. It must answer for every register it
is made for (one header of distinct names, one-line expected rows with ids of their own;
whatever the candidate's rows: repeated ids, the last row of an id counting, and empty or
missing ones
included) and decline (None) otherwise — also when two ids share a hash, which the tests force
by putting a hash of many collisions in its place. Every case runs in one process and in two
(the ids shared out by the parity of their hash), whatever the files' size, and on each of its
roads: compiled (`own_lines`, `take_met`), compiled without `own_lines` (records
first, then `hash_first_fields`: the road of a piece that `own_lines` declines), and pure
Python, as an install without a C compiler scores.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError
from provebench.pilot.score_final import _fork, _idjoin, score_final_state
from provebench.pilot.score_final import _score as score_final_module
from provebench.pilot.score_final._fork import Channel
from provebench.pilot.score_final._idjoin import id_join
from provebench.pilot.score_final._published import published_join
from provebench.pilot.score_final._score import _score
from tests.helpers.compiled import without_compiled
from tests.helpers.published_scorer import Outcome, PublishedScorerWorker
from tests.pilot.score_final.score_final_cases import (
    CANDIDATES,
    DECLINED,
    SHUFFLED_WITH_DEFECTS,
    changed_row,
    register_rows,
    reversed_rows,
    shuffled,
    shuffled_with_defects,
    write_pair,
)
from tests.pilot.score_final.test_score_final_differential import _SETTINGS, csv_bytes

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

_names = iter(range(10**9))


@pytest.fixture(autouse=True, params=["one process", "two processes"])
def processes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "two processes":
        monkeypatch.setattr(_idjoin, "TWO_PARTS_MIN_BYTES", 0)
        # One core is enough to test the two parts (the scorer itself waits for two).
        monkeypatch.setattr(_idjoin, "can_fork", lambda: hasattr(os, "fork"))
    else:
        monkeypatch.setattr(_idjoin, "can_fork", lambda: False)
    return str(request.param)


@pytest.fixture(autouse=True, params=["compiled", "records first", "pure Python"])
def road(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "records first":
        monkeypatch.setattr(_idjoin, "_own_lines", None)
    with without_compiled(request.param == "pure Python"):
        yield str(request.param)


def id_joined(
    published: PublishedScorerWorker,
    directory: Path,
    expected: bytes,
    candidate: bytes,
    chunk_bytes: int = 1 << 22,
) -> bool:
    """Whether `id_join` answered; when it did, every count is the published road's and the
    score the published one."""
    expected_path, candidate_path = write_pair(directory, f"id{next(_names)}", expected, candidate)
    sizes = {"chunk_bytes": chunk_bytes}
    join = id_join(expected_path, candidate_path, sizes)
    if join is None:
        return False
    assert vars(join) == vars(published_join(expected_path, candidate_path, sizes))
    reference = _published_answer(published, expected_path, candidate_path)
    assert reference.exit_code == 0, reference.stderr
    assert _score(join).to_json() == (reference.stdout.decode("utf-8"))
    return True


# The published script's answer to a pair of files, by their bytes: every case runs on six roads
# (one process or two, three roads each), and the script, which reads the two files and nothing
# else, answers the six alike. It runs once per pair of contents and each road is held to it.
_published_answers: dict[tuple[str, str], Outcome] = {}


def _published_answer(published: PublishedScorerWorker, expected: Path, candidate: Path) -> Outcome:
    key = (sha256_bytes(expected.read_bytes()), sha256_bytes(candidate.read_bytes()))
    if key not in _published_answers:
        _published_answers[key] = published.run(expected, candidate)
    return _published_answers[key]


def _every_row_changed(rows: list[list[str]], seed: int = 5) -> list[list[str]]:
    """Each row with one or two fields changed (never its id), in another order."""
    rng = random.Random(seed)
    changed = []
    for row in rows:
        row = changed_row(row, rng.randrange(1, len(row)), f"v{rng.randrange(10**6)}")
        if rng.random() < 0.3:
            row = changed_row(row, rng.randrange(1, len(row)), "")
        changed.append(row)
    return shuffled(changed, rng, 1.0)


# Candidates it answers, each the rows it pairs and compares in a way of its own.
ANSWERED = {
    "every row changed, shuffled": _every_row_changed,
    "every row changed, in order": lambda rows: [changed_row(row, 2, "sideways") for row in rows],
    "half the rows changed, missing and new rows": lambda rows: [
        *[changed_row(row) if index % 2 else row for index, row in enumerate(reversed_rows(rows))][
            5:
        ],
        ["n-1", "t", "incoming", "n", "1"],
        ["n-2", "t", "outgoing", "m", "2"],
    ],
    "changed to a quoted field, and a quoted field changed": lambda rows: [
        changed_row(row, 3, "Smirnova, Olga" if index % 3 else 'Ivan "Vanya"')
        for index, row in enumerate(reversed_rows(rows))
    ],
    "short and long rows": lambda rows: [
        row[:3] if index % 5 == 0 else [*row, "extra"] if index % 5 == 1 else changed_row(row)
        for index, row in enumerate(reversed_rows(rows))
    ],
    "a record spanning lines": lambda rows: [
        changed_row(row, 3, "a\nb") if index == 4 else changed_row(row)
        for index, row in enumerate(reversed_rows(rows))
    ],
    "the id changed in place to a new one": lambda rows: [
        changed_row(row, 0, f"new-{index}") if index % 4 == 0 else changed_row(row)
        for index, row in enumerate(reversed_rows(rows))
    ],
}


@pytest.mark.parametrize("chunk_bytes", [48, 1 << 22])
@pytest.mark.parametrize("kind", list(ANSWERED))
def test_each_kind_of_changed_candidate_is_answered_as_published(
    published: PublishedScorerWorker, case_dir: Path, kind: str, chunk_bytes: int
) -> None:
    rows = register_rows()
    rows[10][3] = "Smirnova, Olga"  # quoted expected records among them
    rows[11][3] = 'Ivan "Vanya" Sidorov'
    candidate = ANSWERED[kind](rows)
    assert id_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate), chunk_bytes)


# One candidate per kind of row (`score_final_cases`): every one answered.
@pytest.mark.parametrize("kind", list(CANDIDATES))
def test_each_kind_of_candidate_row_is_answered(
    published: PublishedScorerWorker, case_dir: Path, kind: str
) -> None:
    rows = register_rows()
    assert id_joined(published, case_dir, csv_bytes(rows), csv_bytes(CANDIDATES[kind](rows)))


@pytest.mark.parametrize("kind", list(DECLINED))
def test_files_it_is_not_made_for_are_declined(
    published: PublishedScorerWorker, case_dir: Path, kind: str
) -> None:
    expected, candidate = DECLINED[kind](register_rows())
    assert not id_joined(published, case_dir, expected, candidate)


# Candidates with repeated ids: the last row of an id decides its fields (the published `ck`),
# whichever of its rows were equal to the expected one, changed or met first.
REPEATED = {
    "a late changed row": lambda rows: [*_every_row_changed(rows), changed_row(rows[3])],
    "a late copy of a changed row": lambda rows: [*_every_row_changed(rows), rows[3]],
    "an early changed row": lambda rows: [changed_row(rows[3]), *_every_row_changed(rows)],
    "three rows, the copy in the middle": lambda rows: [
        changed_row(rows[7], 2, "x"),
        *rows,
        changed_row(rows[7], 4, "y"),
    ],
    "a repeat within a batch": lambda rows: [*rows[:2], rows[1]],
    "a new id repeated": lambda rows: [["n-1", "a"], *rows, ["n-1", "b"]],
    "a new id repeated within a batch": lambda rows: [*rows[:5], ["n-1", "a"], ["n-1", "a"]],
    "every row twice, the second changed": lambda rows: [
        *reversed_rows(rows),
        *_every_row_changed(rows),
    ],
    "every row twice, the first changed": lambda rows: [*_every_row_changed(rows), *rows],
}


@pytest.mark.parametrize("kind", list(REPEATED))
@pytest.mark.parametrize("chunk_bytes", [48, 1 << 22])
@pytest.mark.parametrize("first_rows_kept", [1 << 14, 3, 0], ids=["kept", "3 kept", "none kept"])
def test_repeated_candidate_ids_are_answered_as_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    chunk_bytes: int,
    first_rows_kept: int,
) -> None:
    # The kept expected records looked through in many slices; the first rows that differ
    # kept, or too many of them (read again from the candidate).
    monkeypatch.setattr(_idjoin, "_SETTLE_SLICE", 7)
    monkeypatch.setattr(_idjoin, "FIRST_ROWS_KEPT", first_rows_kept)
    rows = register_rows(120)
    rows[10][3] = "Smirnova, Olga"  # quoted expected records among them
    candidate = csv_bytes(REPEATED[kind](rows))
    assert id_joined(published, case_dir, csv_bytes(rows), candidate, chunk_bytes)


# Candidates with rows whose id is empty: counted as the published script counts them (rows of
# the candidate, of no id, and no order check passes).
WITHOUT_ID = {
    "last": lambda rows: [*rows, ["", "t", "in", "n", "1"]],
    "first, shuffled": lambda rows: [["", "t"], *_every_row_changed(rows)],
    "in place of a row's id, in order": lambda rows: [
        changed_row(row, 0, "") if index == 30 else row for index, row in enumerate(rows)
    ],
    "past the expected rows' count": lambda rows: [*rows[:-1], [""], rows[-1]],
    "several, and repeats": lambda rows: [*rows[:50], [""], rows[3], [",x"], *rows[50:], [""]],
    "only rows without an id": lambda rows: [["", "a"], [""]],
}


@pytest.mark.parametrize("kind", list(WITHOUT_ID))
@pytest.mark.parametrize("chunk_bytes", [48, 1 << 22])
def test_rows_without_an_id_are_answered_as_published(
    published: PublishedScorerWorker, case_dir: Path, kind: str, chunk_bytes: int
) -> None:
    rows = register_rows(120)
    candidate = csv_bytes(WITHOUT_ID[kind](rows))
    assert id_joined(published, case_dir, csv_bytes(rows), candidate, chunk_bytes)


def test_rows_missing_an_id_column_are_answered_as_published(
    published: PublishedScorerWorker, case_dir: Path
) -> None:
    # The id is not the first column, so a short row has none (`None`, not an empty text).
    header = "direction,file_id,duration_sec\n"
    expected = header + "".join(f"in,f{index:03d},{index}\n" for index in range(90))
    candidate = header + "".join(
        f"in,f{index:03d},{index + index % 2}\n" for index in reversed(range(90))
    )
    candidate += "out\nin,,3\n"
    assert id_joined(published, case_dir, expected.encode(), candidate.encode())


@pytest.mark.parametrize("processes", ["one process"], indirect=True)  # the limit is a process's
def test_more_repeated_rows_than_it_holds_are_declined(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = register_rows(120)
    candidate = csv_bytes([*rows, *rows[:20]])
    monkeypatch.setattr(_idjoin, "HELD_LIMIT", 20)
    assert id_joined(published, case_dir, csv_bytes(rows), candidate)
    monkeypatch.setattr(_idjoin, "HELD_LIMIT", 19)
    assert not id_joined(published, case_dir, csv_bytes(rows), candidate)
    # Only the later rows are held: a batch of new ids with one of them twice holds one row.
    monkeypatch.setattr(_idjoin, "HELD_LIMIT", 1)
    new_rows = [[f"n-{index}", "t", "in", "n", "1"] for index in range(30)]
    candidate = csv_bytes([*rows, *new_rows, new_rows[4]])
    assert id_joined(published, case_dir, csv_bytes(rows), candidate)


# One process. With two, the change staged inside one process's `settle` can land while the other
# is still in its first read, which then reads the changed file: the two halves are counted from
# two versions of the file and nothing declines (this test failed about one run in three, before
# and since the sandbox work). A file changed while it is being scored is detected only where one
# process reads it: an open gap of the two-process join, not of this staging.
@pytest.mark.parametrize("processes", ["one process"], indirect=True)
def test_a_candidate_changed_before_its_repeats_are_settled_is_declined(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = register_rows(120)
    expected, candidate = write_pair(
        case_dir, "moved", csv_bytes(rows), csv_bytes([*_every_row_changed(rows), rows[3]])
    )
    real = _idjoin._IdPairing.settle
    # Too many first rows that differ to keep: the candidate is read again.
    monkeypatch.setattr(_idjoin, "FIRST_ROWS_KEPT", 0)

    def settle_after_a_change(pairing: object, *arguments: object) -> None:
        Path(candidate).write_bytes(csv_bytes(rows[4:]))  # the first row of the id is gone
        real(pairing, *arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(_idjoin._IdPairing, "settle", settle_after_a_change)
    assert id_join(expected, candidate, {}) is None


@settings(_SETTINGS, max_examples=40)
@given(**SHUFFLED_WITH_DEFECTS, changed=st.sampled_from([0.0, 0.5, 1.0]))
def test_shuffled_registers_with_changed_rows_score_as_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    seed: int,
    rows: int,
    share: float,
    edits: int,
    chunk_bytes: int,
    changed: float,
) -> None:
    expected_rows, candidate_rows = shuffled_with_defects(seed, rows, share, edits)
    rng = random.Random(seed)
    candidate_rows = [
        changed_row(row, rng.randrange(1, len(row)), "x")
        if len(row) > 1 and rng.random() < changed
        else row
        for row in candidate_rows
    ]
    answered = id_joined(
        published, case_dir, csv_bytes(expected_rows), csv_bytes(candidate_rows), chunk_bytes
    )
    expected_ids = [row[0] for row in expected_rows]
    # Answered whenever the files are the kind it is made for.
    made_for = len(set(expected_ids)) == len(expected_ids) and all(expected_ids)
    if made_for and all("\n" not in "".join(row) for row in expected_rows):
        assert answered


# Hashes of many collisions: every id shares its hash with others.
COLLIDING = {
    "one hash for all": lambda text: 0,
    "seven hashes": lambda text: sum(map(ord, text)) % 7,
}


@pytest.mark.parametrize("colliding", list(COLLIDING))
@pytest.mark.parametrize("kind", [*ANSWERED, *REPEATED, "a row of a new id", "rows missing"])
def test_ids_of_one_hash_never_change_an_answer(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    colliding: str,
    kind: str,
) -> None:
    rows = register_rows(60)
    make = ANSWERED.get(kind) or REPEATED.get(kind) or CANDIDATES[kind]
    expected, candidate = csv_bytes(rows), csv_bytes(make(rows))
    monkeypatch.setattr(_idjoin, "_id_hash", COLLIDING[colliding])
    # Declined or answered as published (`id_joined` checks every answer).
    assert not id_joined(published, case_dir, expected, candidate)
    # Distinct expected ids of one hash are never taken for a repeat of one id: with the
    # expected ids' own hashes, only candidate ids collide.
    real = hash
    expected_ids = {row[0] for row in rows}

    def candidate_ids_collide(text: str) -> int:
        return real(text) if text in expected_ids else real(sorted(expected_ids)[0])

    monkeypatch.setattr(_idjoin, "_id_hash", candidate_ids_collide)
    id_joined(published, case_dir, expected, candidate)


def test_the_scorer_takes_the_id_road_for_plain_registers(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = register_rows(2000)
    expected, candidate = write_pair(
        case_dir, "road", csv_bytes(rows), csv_bytes(_every_row_changed(rows))
    )
    taken: list[bool] = []
    real = score_final_module.id_join

    def spy(*arguments: object) -> object:
        answer = real(*arguments)  # type: ignore[arg-type]
        taken.append(answer is not None)
        return answer

    monkeypatch.setattr(score_final_module, "id_join", spy)
    reference = published.run(expected, candidate)
    assert score_final_state(expected, candidate).to_json() == reference.stdout.decode("utf-8")
    assert taken == [True]
    # So does a candidate of the expected rows in another order, and it answers.
    taken.clear()
    expected, candidate = write_pair(
        case_dir, "road2", csv_bytes(rows), csv_bytes(shuffled(rows, random.Random(2), 1.0))
    )
    reference = published.run(expected, candidate)
    assert score_final_state(expected, candidate).to_json() == reference.stdout.decode("utf-8")
    assert taken == [True]


def test_a_bad_candidate_is_named_as_on_every_road(case_dir: Path) -> None:
    rows = register_rows(40)
    bad_candidate = csv_bytes(_every_row_changed(rows)) + b"f99999,\xff\n"
    expected, candidate = write_pair(case_dir, "bad", csv_bytes(rows), bad_candidate)
    with pytest.raises(ProvebenchError) as raised:
        id_join(expected, candidate, {})
    with pytest.raises(ProvebenchError) as published_raised:
        published_join(expected, candidate, {})
    assert raised.value.one_line() == published_raised.value.one_line()


class _ChildAnswers:
    """Counts the children forked, and what the parent made of their answers."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.forked = 0
        real = _fork.forked_child

        def counting(work: object) -> object:
            self.forked += 1
            return real(work)  # type: ignore[arg-type]

        monkeypatch.setattr(_idjoin, "forked_child", counting)


def _child_that(outcome: str) -> object:
    def serve(channel: Channel, paths: object, sizes: object) -> None:
        if outcome == "dies":
            os._exit(3)
        channel.send(("failed",) if outcome == "fails" else ("declined",))

    return serve


@pytest.mark.parametrize("processes", ["two processes"], indirect=True)
@pytest.mark.parametrize(
    ("outcome", "answered"), [("fails", True), ("dies", True), ("declines", False)]
)
def test_a_child_that_fails_leaves_it_to_one_process_and_one_that_declines_declines(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    outcome: str,
    answered: bool,
) -> None:
    children = _ChildAnswers(monkeypatch)
    monkeypatch.setattr(_idjoin, "_serve_odd_ids", _child_that(outcome))
    rows = register_rows(200)
    candidate = csv_bytes(_every_row_changed(rows))
    # Answered by one process (and so as published) or declined, never half counted.
    assert id_joined(published, case_dir, csv_bytes(rows), candidate) is answered
    assert children.forked == 1


@pytest.mark.parametrize("processes", ["two processes"], indirect=True)
def test_both_processes_share_the_ids_out(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    children = _ChildAnswers(monkeypatch)
    parts: list[dict[str, int]] = []
    real = _idjoin._IdPairing.counts

    def counts(pairing: object, other: dict[str, int] | None = None) -> object:
        assert other is not None
        parts.append(other)
        return real(pairing, other)  # type: ignore[arg-type]

    monkeypatch.setattr(_idjoin._IdPairing, "counts", counts)
    rows = register_rows(400)
    candidate = [*_every_row_changed(rows)[10:], ["n-1", "t", "in", "n", "1"]]
    assert id_joined(published, case_dir, csv_bytes(rows), csv_bytes(candidate))
    assert children.forked == 1
    # The child's part is about half of every count (the parity of random hashes).
    (odd,) = parts
    assert 100 < odd["in_both"] < 290
    assert odd["fields_matched"] > 0


@pytest.mark.parametrize("quoted", [False, True], ids=["plain", "quoted"])
def test_a_new_id_of_a_missing_expected_ids_hash_is_never_taken_for_it(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    quoted: bool,
) -> None:
    rows = register_rows(80)
    missing = rows[7]
    newcomer = changed_row(missing, 0, "n-1")  # every field but the id that of the missing row
    if quoted:
        newcomer = changed_row(newcomer, 3, "Smirnova, Olga")
    candidate = [*_every_row_changed([row for row in rows if row is not missing]), newcomer]
    expected, candidate_bytes = csv_bytes(rows), csv_bytes(candidate)
    assert id_joined(published, case_dir, expected, candidate_bytes)  # as published
    real = hash

    def same_hash(text: str) -> int:
        return real(missing[0]) if text == "n-1" else real(text)

    monkeypatch.setattr(_idjoin, "_id_hash", same_hash)
    # The newcomer is looked up as the missing row: its id is seen to differ, and declines.
    assert not id_joined(published, case_dir, expected, candidate_bytes)


@pytest.mark.parametrize("where", ["after", "before"])
def test_a_new_id_of_a_met_expected_ids_hash_is_never_taken_for_a_repeat(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
) -> None:
    rows = register_rows(80)
    newcomer = changed_row(rows[7], 0, "n-1")  # every field but the id that of an expected row
    changed = _every_row_changed(rows)
    candidate = [*changed, newcomer] if where == "after" else [newcomer, *changed]
    expected, candidate_bytes = csv_bytes(rows), csv_bytes(candidate)
    assert id_joined(published, case_dir, expected, candidate_bytes)  # as published
    real = hash

    def same_hash(text: str) -> int:
        return real(rows[7][0]) if text == "n-1" else real(text)

    monkeypatch.setattr(_idjoin, "_id_hash", same_hash)
    # After its expected row was met, the newcomer is held as a second row of that id, and
    # seen to hold another id once they are settled; before, it is paired with the expected
    # row and its id seen to differ. Either declines.
    assert not id_joined(published, case_dir, expected, candidate_bytes)


def test_two_new_ids_of_one_hash_are_never_counted_as_one(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = register_rows(80)
    candidate = [*_every_row_changed(rows), ["n-1", "t", "in", "n", "1"], ["n-2", "a"]]
    expected, candidate_bytes = csv_bytes(rows), csv_bytes(candidate)
    assert id_joined(published, case_dir, expected, candidate_bytes)  # as published
    real = hash
    monkeypatch.setattr(_idjoin, "_id_hash", lambda text: real("n-1" if text == "n-2" else text))
    # The second is held as a later row of the first one's id, and seen to hold another id.
    assert not id_joined(published, case_dir, expected, candidate_bytes)


@pytest.mark.parametrize("processes", ["one process"], indirect=True)
def test_repeats_whose_first_rows_were_kept_read_nothing_again(
    published: PublishedScorerWorker, case_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = register_rows(120)
    new_row = ["n-1", "t", "in", "n", "1"]
    candidate = [
        *_every_row_changed(rows[:60]),  # first rows that differ: kept
        *reversed_rows(rows[60:]),  # copies: their expected rows stand for them
        new_row,  # a new id's first row: kept
        changed_row(rows[3], 2, "x"),
        rows[70],
        new_row,
    ]
    reads: list[int] = []
    real = _idjoin._IdPairing._first_rows

    def counted(pairing: object, *arguments: object) -> object:
        reads.append(1)
        return real(pairing, *arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(_idjoin._IdPairing, "_first_rows", counted)
    expected, candidate_bytes = csv_bytes(rows), csv_bytes(candidate)
    assert id_joined(published, case_dir, expected, candidate_bytes)
    assert reads == []
    # 61 first rows differ (60 changed, 1 new): at the limit, all are kept ...
    monkeypatch.setattr(_idjoin, "FIRST_ROWS_KEPT", 61)
    assert id_joined(published, case_dir, expected, candidate_bytes)
    assert reads == []
    # ... past it, none are, and the candidate is read again.
    monkeypatch.setattr(_idjoin, "FIRST_ROWS_KEPT", 60)
    assert id_joined(published, case_dir, expected, candidate_bytes)
    assert reads == [1]
