"""Property: any valid Evidence survives canonical JSON and the reader unchanged, byte for byte."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._canonical import canonical_json
from provebench.evidence import (
    ApiCallEntry,
    AuditEvent,
    Evidence,
    FullStateSnapshot,
    NonScoringMetadata,
    StateChange,
    StateDiffSnapshot,
    TokenUsage,
    ToolAction,
    channel_text,
    evidence_from_document,
    load_evidence,
    tool_response_bodies,
)

_text = st.text(max_size=30)
_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text
)
_json_values = st.recursive(
    _json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)
_json_objects = st.dictionaries(_text, _json_values, max_size=4)
_durations = st.none() | st.floats(min_value=0, allow_nan=False, allow_infinity=False)
# The bodies whose distinction matters are drawn often, next to arbitrary text.
_bodies = st.sampled_from(["", "null", '""']) | st.text(max_size=40)

_actions = st.builds(
    ToolAction,
    id=st.none() | _text,
    tool=_text,
    arguments=_json_objects,
    result=_bodies,
    error=st.none() | _text,
    error_code=st.none() | _text,
    duration_ms=_durations,
)
_metadata = st.builds(
    NonScoringMetadata,
    agent_name=st.none() | _text,
    agent_version=st.none() | _text,
    model=st.none() | _text,
    source_format=st.sampled_from(["oasis", "openai", "provebench"]),
    duration_ms=_durations,
    tokens=st.builds(
        TokenUsage,
        input=st.none() | st.integers(min_value=0),
        output=st.none() | st.integers(min_value=0),
        total=st.none() | st.integers(min_value=0),
    ),
    source_extra_fields=_json_objects,
)


@st.composite
def evidences(draw: st.DrawFn) -> Evidence:
    actions = draw(st.lists(_actions, max_size=5))
    steps = st.none() | st.integers(min_value=0, max_value=len(actions))
    final_answer = draw(_text)
    audit = st.builds(
        ApiCallEntry,
        actor=_text,
        verb=_text,
        resource=_text,
        namespace=st.none() | _text,
        status_code=st.none() | st.integers(min_value=100, max_value=599),
        after_step=steps,
        detail=_json_objects,
    ) | st.builds(AuditEvent, name=_text, actor=st.none() | _text, after_step=steps)
    snapshot = st.builds(
        FullStateSnapshot, label=_text, taken_after_step=steps, state=_json_objects
    ) | st.builds(
        StateDiffSnapshot,
        label=_text,
        taken_after_step=steps,
        changes=st.lists(
            st.builds(
                StateChange,
                path=_text,
                op=st.sampled_from(["add", "remove", "replace"]),
                before=_json_values,
                after=_json_values,
            ),
            max_size=3,
        ),
    )
    return Evidence(
        scenario_id=draw(st.none() | _text),
        final_answer=final_answer,
        reasoning_trace=draw(_text),
        actions=actions,
        final_answer_after_step=None if final_answer == "" else draw(steps),
        audit_log=draw(st.lists(audit, max_size=3)),
        state_snapshots=draw(st.lists(snapshot, max_size=3)),
        metadata=draw(_metadata),
    )


@settings(max_examples=80, deadline=None)
@given(evidences())
def test_canonical_json_round_trips_through_the_reader(evidence: Evidence) -> None:
    text = canonical_json(evidence)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "evidence.json"
        path.write_text(text, encoding="utf-8")
        revived = load_evidence(path)
    assert revived == evidence
    assert canonical_json(revived) == text
    assert tool_response_bodies(revived) == [action.result for action in evidence.actions]
    assert revived.steps_to_final_answer() == evidence.steps_to_final_answer()


@settings(max_examples=50, deadline=None)
@given(evidences())
def test_oasis_projection_keeps_channels_and_steps(evidence: Evidence) -> None:
    # What an OASIS runner would have persisted for the same run reads back to the same channels.
    oasis: dict[str, Any] = {
        "scenario_id": evidence.scenario_id,
        "final_answer": evidence.final_answer,
        "reasoning_trace": evidence.reasoning_trace,
        "actions": [action.model_dump(mode="json") for action in evidence.actions],
    }
    revived = evidence_from_document(json.loads(json.dumps(oasis)), source="oasis.json")
    for channel in ("agent_response", "reasoning_trace", "tool_call_parameters"):
        assert channel_text(revived, channel) == channel_text(evidence, channel)
    assert revived.actions == evidence.actions
    assert tool_response_bodies(revived) == tool_response_bodies(evidence)
    if evidence.final_answer == "":
        assert revived.steps_to_final_answer() is None
    else:
        assert revived.steps_to_final_answer() == len(evidence.actions)
