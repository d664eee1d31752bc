"""No signed good verdict from an unsealed face: every SI verdict says, in its scoring part and in
the laboratory's signature, whether the agent was sealed.

The attack: `si serve`'s MCP client is started by the operator, not by provebench, so nothing
keeps it from the scenario file — whose answer key gives a full score with no tool call. The
score itself cannot be refused (the verdict is a pure function of the evidence), so the verdict
and its signature must say that it is not a sealed result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.si import load_scenarios
from provebench.si.agents import Answer, CallTool, CorrectDiagnoser, Task, run_agent
from provebench.si.agents._signing import RUN_ENVELOPE_FILE, SI_RUN_PREDICATE
from provebench.si.sim import Session
from tests.helpers.si_lab import write_fixture
from tests.helpers.si_mcp import run_agent_over_mcp, server_parameters

# A real `si serve` over stdio: seconds.
pytestmark = pytest.mark.slow


class ScenarioReader:
    """An MCP client that reads the scenario file it was pointed at — the operator's MCP host
    config names it — solves it in a simulator of its own, and submits with no tool call."""

    name = "scenario-reader"
    version = "1"

    def __init__(self, scenario_file: Path) -> None:
        self.scenario_file = scenario_file

    def run(self, task: Task, call: CallTool) -> Answer:
        own_session = Session.start(load_scenarios(self.scenario_file)[0])
        solved = run_agent(own_session, CorrectDiagnoser()).evidence
        return Answer(final_answer=solved.final_answer)


def _signed_outcome(out: Path) -> dict[str, object]:
    signed = read_verified(
        out / RUN_ENVELOPE_FILE, load_trusted_key(), predicate_type=SI_RUN_PREDICATE
    )
    return signed.predicate["outcome"]  # type: ignore[no-any-return]


def test_an_mcp_client_that_reads_the_scenario_is_signed_unsealed(tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)
    out = tmp_path / "served"
    attacker = ScenarioReader(scenario_file)
    task = Task(prompt="", tools=(), mode="read-only", scope={})
    run_agent_over_mcp(server_parameters(scenario_file, out), attacker, task)
    verdict = json.loads((out / "verdict.json").read_text())
    evidence = json.loads((out / "evidence.json").read_text())
    # The attack reaches the score: 1.0 with zero tool calls ...
    assert (verdict["score"], evidence["actions"]) == (1.0, [])
    # ... and every face that shows it says it is not a sealed result.
    assert verdict["sealed"] is False
    assert list(verdict)[:3] == ["band", "score", "sealed"]  # the scoring part, not non_scoring
    assert _signed_outcome(out) == {"band": verdict["band"], "score": 1.0, "sealed": False}


def test_a_shipped_agent_run_is_signed_sealed(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from provebench.cli import app

    scenario_file = write_fixture(tmp_path)
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app, ["si", "run", str(scenario_file), "--agent", "diagnoser", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    verdict = json.loads((out / "verdict.json").read_text())
    assert (verdict["score"], verdict["sealed"]) == (1.0, True)
    assert _signed_outcome(out)["sealed"] is True
