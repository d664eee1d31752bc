"""Fixtures shared by the pilot tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.published_scorer import PublishedScorerWorker, published_script_or_skip


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PublishedScorerWorker]:
    """The seed's published final-state scorer, extracted at test time, as a warm worker.

    Skips (with the reason) where the seed is absent; one worker per test module.
    """
    script = published_script_or_skip(tmp_path_factory.mktemp("published"))
    worker = PublishedScorerWorker(script)
    yield worker
    worker.close()
