"""Evidence recorded with the physical estate's earlier tool set (`orchestration_describe`, its
text tables) re-scores as it was scored when it was recorded: scoring reads the answer, the
steps, the audit log and the snapshots, never a tool's name or body format, which is why the
earlier tools were removed without an alias (docs/si-agents.md, "The tools").

The fixtures are `si run` outputs of that release on the shipped scenario 001.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.evidence import load_evidence
from provebench.si import load_scenarios
from provebench.si.scoring._score import score_scenario
from tests.helpers.si_lab import SHIPPED_SCENARIOS

FIXTURES = Path(__file__).parent / "earlier_tool_set"


@pytest.mark.parametrize("agent", ["diagnoser", "quotation-gamer"])
def test_evidence_of_the_earlier_tool_set_scores_as_it_did(agent: str) -> None:
    (scenario,) = load_scenarios(SHIPPED_SCENARIOS / "diagnostic-accuracy.yaml")
    evidence = load_evidence(FIXTURES / f"{agent}.evidence.json")
    assert "orchestration_describe" in [action.tool for action in evidence.actions]
    then = json.loads((FIXTURES / f"{agent}.verdict.json").read_text(encoding="utf-8"))
    now = json.loads(score_scenario(scenario, evidence).to_json())
    for verdict in (then, now):
        verdict.pop("inputs")  # the digests of the files it was scored from
        verdict.pop("sealed")  # re-scored evidence is never sealed (`sealed_of`)
    assert now == then
    assert (now["matched_row"]["id"], now["score"]) == {
        "diagnoser": (2, 1.0),
        "quotation-gamer": (4, 0.0),
    }[agent]
