"""Fixtures shared by the pilot tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest

from provebench.pilot.redteam import RedteamReport, run_redteam
from tests.helpers.published_scorer import PublishedScorerWorker, published_script_or_skip
from tests.helpers.shared_run import made_once


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


@pytest.fixture(scope="session")
def full_red_team(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RedteamReport]:
    """The red team at the full pilot §14 budget (seed 0, two workers; about a minute and a
    half on two cores), once per test run, as its report folder and its report object:
    `pilot_pass` accepts no smaller report, and the budget test reads the same one."""

    def make(folder: Path) -> None:
        report = run_redteam(folder / "report", seed=0, level="full", workers=2)
        (folder / "report.json").write_text(json.dumps(asdict(report)), encoding="utf-8")

    folder = made_once(tmp_path_factory, "red-team-full", make)
    report = RedteamReport(**json.loads((folder / "report.json").read_text(encoding="utf-8")))
    return folder / "report", report
