"""Repeated file_ids: "last row wins" whether the first rows are recovered or recounted.

When an id first repeats, the join looks its first rows up among the latest rows it kept
(`_score_final_recent`); ids whose first rows are gone by then are recounted by reading the files
again (`_score_final_repeats`). Both ways must give the published result, so each is forced
here: no look-ups at all, or so few rows kept that some look-ups find the rows and some do not.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench.pilot import _score_final_join, _score_final_recent
from tests.helpers.published_scorer import PublishedScorerWorker
from tests.pilot.test_score_final_differential import (
    _SETTINGS,
    compare_with_published,
    csv_bytes,
    edit_register,
    register_lines,
)


def with_repeats(rows: list[list[str]], rng: random.Random, count: int) -> list[list[str]]:
    """Rows repeated next to themselves and far away, some with a changed field."""
    rows = [list(row) for row in rows]
    for _ in range(count):
        if not rows:
            break
        copy = list(rows[rng.randrange(len(rows))])
        if rng.random() < 0.5:
            copy[rng.randrange(1, len(copy))] = "changed"
        rows.insert(rng.randrange(len(rows) + 1), copy)
    return rows


@settings(_SETTINGS, max_examples=60)
@given(
    seed=st.integers(0, 2**32),
    rows=st.integers(1, 600),
    repeats=st.integers(1, 8),
    kept_rows=st.sampled_from([0, 1, 3, 50]),
    budget=st.sampled_from([0, 5, 1 << 22]),
    chunk_bytes=st.sampled_from([None, 64, 333]),
)
def test_repeated_ids_recovered_or_recounted_match_published(
    published: PublishedScorerWorker,
    case_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    rows: int,
    repeats: int,
    kept_rows: int,
    budget: int,
    chunk_bytes: int | None,
) -> None:
    rng = random.Random(seed)
    expected_rows = register_lines(rows, rng)
    candidate_rows = edit_register(expected_rows, rng, rng.randrange(4))
    if rng.random() < 0.5:
        expected_rows = with_repeats(expected_rows, rng, repeats)
    candidate_rows = with_repeats(candidate_rows, rng, repeats)
    with monkeypatch.context() as patch:
        patch.setattr(_score_final_recent, "_KEPT_ROWS", kept_rows)
        patch.setattr(_score_final_recent, "_LOOSE_ROWS", max(kept_rows, 1))
        patch.setattr(_score_final_join, "LOOKUP_BUDGET", budget)
        compare_with_published(
            published,
            case_dir,
            csv_bytes(expected_rows),
            csv_bytes(candidate_rows),
            chunk_bytes=chunk_bytes,
        )
