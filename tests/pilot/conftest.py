"""Fixtures shared by the pilot tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from provebench.pilot.redteam import REPORT_FILE, SUMMARY_FILE, RedteamReport
from tests.helpers.published_scorer import PublishedScorerWorker, published_script_or_skip
from tests.helpers.shared_run import Completed


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
def full_red_team(red_team_run: Completed) -> tuple[Path, RedteamReport]:
    """The run's one red team at the full pilot §14 budget (seed 0, `pilot redteam`,
    tests/conftest.py), as its report folder and its report object, read back from the folder:
    `pilot_pass` accepts no smaller report, and the budget test reads the same one."""
    assert red_team_run.exit_code == 0, red_team_run.stderr
    return red_team_run.out, report_of(red_team_run.out)


def report_of(folder: Path) -> RedteamReport:
    """The report a red team wrote into `folder`, from its summary and its attacks; the summary
    it gives again is the one written (a field left out here would show as a difference)."""
    summary = json.loads((folder / SUMMARY_FILE).read_text(encoding="utf-8"))
    report = RedteamReport(
        seed=summary["seed"],
        level=summary["budget_level"],
        attacks=json.loads((folder / REPORT_FILE).read_text(encoding="utf-8")),
        reference=summary["reference"],
        achieved={line: entry["achieved"] for line, entry in summary["budget"].items()},
        corpora=summary["corpora"],
    )
    assert report.summary() == summary, folder
    return report
