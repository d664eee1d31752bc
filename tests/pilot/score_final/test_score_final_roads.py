"""The scorer's two roads against the published `score_final_state.py`.

Two plain registers are paired by id (`score_final/_idjoin.py`); anything else is read the
published way (`score_final/_published.py`). Here the published road scores every generated pair on
its own (all the reading quirks: BOM, blank first line, ragged rows, repeated columns, empty ids,
NUL in fields), and `score_final_state` is run on shuffled and partly shuffled registers with
repeats and defects, with and without the id road; every outcome is compared byte for byte with
the published script.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.pilot.score_final import _score as score_final_module
from provebench.pilot.score_final._published import published_join
from provebench.pilot.score_final._score import _score
from tests.helpers.published_scorer import PublishedScorerWorker
from tests.pilot.score_final.score_final_cases import shuffled, write_pair
from tests.pilot.score_final.test_score_final_differential import (
    _PUBLISHED_CRASHES,
    _SETTINGS,
    compare_with_published,
    csv_bytes,
    edit_register,
    register_lines,
    table_pairs,
)

_pair_numbers = iter(range(10**9))


@_SETTINGS
@given(pair=table_pairs(), chunk_bytes=st.sampled_from([4, 7, 64, 1 << 22]))
def test_the_published_road_alone_matches_published_on_generated_tables(
    published: PublishedScorerWorker, case_dir: Path, pair: tuple[bytes, bytes], chunk_bytes: int
) -> None:
    expected, candidate = write_pair(case_dir, f"alone{next(_pair_numbers)}", *pair)
    reference = published.run(expected, candidate)
    try:
        join = published_join(expected, candidate, {"chunk_bytes": chunk_bytes})
    except ProvebenchError as error:  # bad bytes or a field over the limit, in one line
        assert reference.exit_code != 0, f"we refused a pair the published one scores: {error}"
        assert any(crash in reference.stderr for crash in _PUBLISHED_CRASHES), reference.stderr
        assert str(expected) in error.one_line() or str(candidate) in error.one_line()
        return
    assert reference.exit_code == 0, reference.stderr
    assert _score(join).to_json().encode("utf-8") == reference.stdout


@settings(_SETTINGS, max_examples=30)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(0, 1200),
    share=st.sampled_from([1.0, 1.0, 0.5, 0.1, 0.02]),
    edits=st.integers(0, 15),
    plain=st.booleans(),
    chunk_bytes=st.sampled_from([None, 333, 4096]),
    id_road=st.booleans(),
)
def test_shuffled_registers_match_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    seed: int,
    rows: int,
    share: float,
    edits: int,
    plain: bool,
    chunk_bytes: int | None,
    id_road: bool,
) -> None:
    rng = random.Random(seed)
    expected_rows = register_lines(rows, rng)
    if plain:  # no record spanning lines: the id road can take them
        expected_rows = [[field.replace("\n", " ") for field in row] for row in expected_rows]
    # Defects first (drops, additions, repeated rows, changed fields), then the disorder.
    candidate_rows = shuffled(edit_register(expected_rows, rng, edits), rng, share)
    if rng.random() < 0.3:  # a repeated id on the expected side too
        expected_rows = expected_rows + expected_rows[: rng.randrange(1, 4)]
    with pytest.MonkeyPatch.context() as patch:
        if not id_road:
            patch.setattr(score_final_module, "id_join", lambda *arguments: None)
        compare_with_published(
            published,
            case_dir,
            csv_bytes(expected_rows),
            csv_bytes(candidate_rows),
            chunk_bytes=chunk_bytes,
        )
