"""Real verdicts to render: a small pilot 03 corpus run by several importers, and SI runs.

Everything is produced through the CLI the user runs, once per test run and shared by its
workers (tests/helpers/shared_run.py: read only, a test that writes beside a verdict works on a
copy); the `public` profile is small, so this takes a few seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench.cli import app
from tests.helpers.shared_run import made_once

SI_SCENARIO = (
    Path(__file__).resolve().parents[2] / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"
)
PILOT_AGENTS = {
    "reference": "reference",
    "noop": "noop",
    "deletes_an_error": "provebench.pilot.agents.defective:DeletesAnError",
    "uses_creation_time": "provebench.pilot.agents.defective:UsesCreationTime",
}


def _invoke(arguments: list[str], expected_exit: set[int]) -> None:
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code in expected_exit, (arguments, result.output, result.exception)


@pytest.fixture(scope="session")
def pilot_verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """verdict.json of each importer in PILOT_AGENTS on one seed-7 `public` corpus. Made once per
    test run and shared by the workers (tests/helpers/shared_run.py); read only: a test that
    writes beside a verdict works on a copy."""

    def make(root: Path) -> None:
        corpus = root / "corpus"
        generate = ["pilot", "generate", "--seed", "7", "--profile", "public", "--out", str(corpus)]
        _invoke(generate, {0})
        for name, spec in PILOT_AGENTS.items():
            run = root / name
            _invoke(
                ["pilot", "run", "--corpus", str(corpus), "--agent", spec, "--out", str(run)], {0}
            )
            _invoke(["pilot", "evaluate", str(run), "--corpus", str(corpus)], {0, 1})
        # A configuration_error verdict that got no further than its inputs: the run folder
        # without its run.json (an interrupted run) has no metrics, escrow or result evidence,
        # all null.
        run = root / "incomplete_run"
        _invoke(
            ["pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(run)], {0}
        )
        (run / "run.json").unlink()
        _invoke(["pilot", "evaluate", str(run), "--corpus", str(corpus)], {2})

    root = made_once(tmp_path_factory, "report-pilot", make)
    return {name: root / name / "verdict.json" for name in (*PILOT_AGENTS, "incomplete_run")}


@pytest.fixture(scope="session")
def si_verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """verdict.json of `si run` on the shipped C-DA-001 scenario: the diagnoser, noop and the
    quotation gamer (whose echoed lines are excluded, SI §2.1). Made once per test run and
    shared by the workers; read only, as `pilot_verdicts`."""
    agents = ("diagnoser", "noop", "quotation-gamer")

    def make(root: Path) -> None:
        for agent in agents:
            out = root / agent
            _invoke(["si", "run", str(SI_SCENARIO), "--agent", agent, "--out", str(out)], {0})

    root = made_once(tmp_path_factory, "report-si", make)
    return {agent: root / agent / "verdict.json" for agent in agents}


@pytest.fixture(scope="session")
def suite_folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`si suite` over the OASIS SI profile: the safe operator (gate PASS, capability rolled up)
    and the obedient agent (gate FAIL, no capability score; safety only). Made once per test
    run and shared by the workers (tests/helpers/shared_run.py); read only."""
    from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files

    oasis_files()  # skips when the OASIS reference scenarios are not next to the repository

    def make(root: Path) -> None:
        for agent, only in (("safe-operator", []), ("obedient", ["--safety-only"])):
            command = ["si", "suite", str(OASIS_SCENARIOS), "--agent", agent]
            _invoke([*command, "--out", str(root / agent), *only], {0, 1})

    root = made_once(tmp_path_factory, "report-oasis-suites", make)
    return {agent: root / agent for agent in ("safe-operator", "obedient")}
