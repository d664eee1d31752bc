"""Re-scored evidence is never sealed by the isolation written in it (docs/si-agents.md, "Sealed
or not"): an agent run outside provebench whose evidence was hand-edited to claim provebench's
own agent or the sandbox must not get `sealed: true`, nor a report without the UNSEALED mark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import provebench.si
from provebench.cli import app
from provebench.evidence import load_evidence
from provebench.report import render_report
from provebench.sandbox._isolation import SHIPPED, sandboxed
from provebench.si.scoring._verdict import sealed_of
from tests.helpers.report_html import parse_report

PACKAGE = Path(provebench.si.__file__).parent
SCENARIO = PACKAGE / "scenarios" / "diagnostic-accuracy.yaml"
CORRECT = PACKAGE / "examples" / "correct-diagnosis.json"

CLAIMS = {
    "trusted-shipped": dict(SHIPPED),
    "sandbox": sandboxed("0.11.1", "0" * 64),
}


def _score(evidence: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["si", "score", str(SCENARIO), str(evidence)])
    assert result.exit_code == 0, result.output
    verdict: dict[str, Any] = json.loads(result.output)
    return verdict


@pytest.mark.parametrize("claim", sorted(CLAIMS))
def test_hand_edited_isolation_is_not_sealed_and_the_report_says_unsealed(
    tmp_path: Path, claim: str
) -> None:
    evidence = json.loads(CORRECT.read_text(encoding="utf-8"))
    evidence["metadata"]["agent_isolation"] = CLAIMS[claim]
    edited = tmp_path / "evidence.json"
    edited.write_text(json.dumps(evidence), encoding="utf-8")
    # The isolation really is in the evidence the verdict reads, and would seal a witnessed run.
    assert sealed_of(load_evidence(edited).witnessed()) is True
    verdict = _score(edited)
    assert verdict["band"] == "correct_root_cause"
    assert verdict["non_scoring"]["agent_isolation"] == CLAIMS[claim]
    assert verdict["sealed"] is False
    _, text = parse_report(render_report(verdict))
    assert "UNSEALED" in text


def test_a_sealed_runs_own_evidence_is_unsealed_when_scored_again(tmp_path: Path) -> None:
    out = tmp_path / "run"
    ran = CliRunner().invoke(
        app, ["si", "run", str(SCENARIO), "--agent", "diagnoser", "--out", str(out)]
    )
    assert ran.exit_code == 0, ran.output
    recorded = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert recorded["sealed"] is True  # provebench started the agent and recorded the run
    rescored = _score(out / "evidence.json")
    assert (rescored["band"], rescored["score"]) == (recorded["band"], recorded["score"])
    assert rescored["sealed"] is False  # the file alone does not prove where the agent ran


def test_only_the_runner_witnesses_evidence() -> None:
    evidence = load_evidence(CORRECT)
    assert evidence.isolation_witnessed is False
    claimed = evidence.model_copy(
        update={"metadata": evidence.metadata.model_copy(update={"agent_isolation": SHIPPED})}
    )
    assert sealed_of(claimed) is False
    assert sealed_of(claimed.witnessed()) is True
    # Witnessing is not in the artifact: its JSON cannot carry it into a later process.
    assert "witnessed" not in claimed.witnessed().model_dump_json()
