"""Fixtures shared by the pilot tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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


@pytest.fixture(scope="module")
def case_dir(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """A folder for one test module's generated CSV cases, named after the module."""
    return tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
