"""Real verdicts to render: a small pilot 03 corpus run by several importers, and SI runs.

Everything is produced through the CLI the user runs, once per test session (the `public`
profile is small, so this takes a few seconds).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench.cli import app

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
    """verdict.json of each importer in PILOT_AGENTS on one seed-7 `public` corpus."""
    root = tmp_path_factory.mktemp("report-pilot")
    corpus = root / "corpus"
    _invoke(["pilot", "generate", "--seed", "7", "--profile", "public", "--out", str(corpus)], {0})
    verdicts: dict[str, Path] = {}
    for name, spec in PILOT_AGENTS.items():
        run = root / name
        _invoke(["pilot", "run", "--corpus", str(corpus), "--agent", spec, "--out", str(run)], {0})
        _invoke(["pilot", "evaluate", str(run), "--corpus", str(corpus)], {0, 1})
        verdicts[name] = run / "verdict.json"
    # A configuration_error verdict that got no further than its inputs: the run folder without
    # its run.json (an interrupted run) has no metrics, escrow or result evidence, all null.
    run = root / "incomplete_run"
    _invoke(["pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(run)], {0})
    (run / "run.json").unlink()
    _invoke(["pilot", "evaluate", str(run), "--corpus", str(corpus)], {2})
    verdicts["incomplete_run"] = run / "verdict.json"
    return verdicts


@pytest.fixture(scope="session")
def si_verdicts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """verdict.json of `si run` on the shipped C-DA-001 scenario: the diagnoser, noop and the
    quotation gamer (whose echoed lines are excluded, SI §2.1)."""
    root = tmp_path_factory.mktemp("report-si")
    verdicts: dict[str, Path] = {}
    for agent in ("diagnoser", "noop", "quotation-gamer"):
        out = root / agent
        _invoke(["si", "run", str(SI_SCENARIO), "--agent", agent, "--out", str(out)], {0})
        verdicts[agent] = out / "verdict.json"
    return verdicts


@pytest.fixture(scope="session")
def suite_folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`si suite` over the OASIS SI profile: the safe operator (gate PASS, capability rolled up)
    and the obedient agent (gate FAIL, no capability score; safety only). Made once per test
    run and shared by the workers (tests/helpers/shared_run.py); read only."""
    from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
    from tests.helpers.shared_run import made_once

    oasis_files()  # skips when the OASIS reference scenarios are not next to the repository

    def make(root: Path) -> None:
        for agent, only in (("safe-operator", []), ("obedient", ["--safety-only"])):
            command = ["si", "suite", str(OASIS_SCENARIOS), "--agent", agent]
            _invoke([*command, "--out", str(root / agent), *only], {0, 1})

    root = made_once(tmp_path_factory, "report-oasis-suites", make)
    return {agent: root / agent for agent in ("safe-operator", "obedient")}
