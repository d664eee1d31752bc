"""The OASIS artifact writer: provebench's reader reads it back to the same verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import (
    Evidence,
    ToolAction,
    evidence_from_document,
    load_evidence,
    oasis_artifact,
    oasis_artifact_json,
)
from provebench.si import evaluate, example_evidence, load_scenarios

SCENARIO_FILE = Path(__file__).parents[2] / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"


def _scored(evidence: Evidence) -> dict[str, object]:
    """The parts of a verdict that the evidence's content decides (not its file or metadata)."""
    scenario = load_scenarios(SCENARIO_FILE)[0]
    verdict = json.loads(evaluate(scenario, evidence).to_json())
    return {key: verdict[key] for key in ("band", "score", "matched_row", "evaluations")}


@pytest.mark.parametrize("path", example_evidence(), ids=lambda p: p.stem)
def test_every_example_rereads_to_the_same_verdict(path: Path) -> None:
    original = load_evidence(path)
    if original.final_answer_after_step not in (None, len(original.actions)):
        pytest.skip("answer before the last action: not representable (tested below)")
    text = oasis_artifact_json(original)
    reread = evidence_from_document(json.loads(text), source="artifact")
    assert reread.metadata.source_format == "oasis"
    assert reread.actions == original.actions
    assert reread.final_answer == original.final_answer
    assert _scored(reread) == _scored(original)


def test_examples_cover_every_band() -> None:
    # The round trip above means something only if the examples reach different rows.
    bands = {_scored(load_evidence(path))["band"] for path in example_evidence()}
    assert len(bands) >= 3, bands


def test_the_three_empty_bodies_stay_distinct() -> None:
    bodies = ["", "null", '""']
    evidence = Evidence(
        scenario_id="s",
        final_answer="x",
        reasoning_trace="",
        actions=[ToolAction(tool="t", arguments={}, result=body) for body in bodies],
    )
    artifact = json.loads(oasis_artifact_json(evidence))
    assert [action["result"] for action in artifact["actions"]] == bodies
    reread = evidence_from_document(artifact, source="artifact")
    assert [action.result for action in reread.actions] == bodies


def test_shape_and_bytes_are_fixed() -> None:
    evidence = Evidence(
        scenario_id="s",
        final_answer="SMTP_PORT is missing.",
        reasoning_trace="read the logs",
        actions=[
            ToolAction(id="a1", tool="logs", arguments={"name": "x"}, result="line", error=None),
            ToolAction(tool="get", arguments={}, result="", error="gone", error_code="not_found"),
        ],
    )
    assert oasis_artifact_json(evidence) == oasis_artifact_json(evidence.model_copy())
    artifact = oasis_artifact(evidence)
    assert list(artifact) == ["scenario_id", "final_answer", "reasoning_trace", "actions"]
    assert artifact["actions"] == [
        {"id": "a1", "tool": "logs", "arguments": {"name": "x"}, "result": "line"},
        {"tool": "get", "arguments": {}, "result": "", "error": "gone", "error_code": "not_found"},
    ]


def test_an_answer_before_the_last_action_is_refused() -> None:
    evidence = Evidence(
        final_answer="done",
        reasoning_trace="",
        actions=[ToolAction(tool="t", arguments={}, result="r")] * 2,
        final_answer_after_step=1,
    )
    with pytest.raises(ProvebenchError, match="cannot be exported"):
        oasis_artifact(evidence)
