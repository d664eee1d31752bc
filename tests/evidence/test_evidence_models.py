"""The evidence models: step accounting, channels, the verbatim tool-result bodies."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from provebench._errors import ProvebenchError
from provebench.evidence import (
    ApiCallEntry,
    Evidence,
    FullStateSnapshot,
    ToolAction,
    channel_text,
    tool_response_bodies,
)


def _action(tool: str = "get", result: str = "{}", **arguments: object) -> ToolAction:
    return ToolAction(tool=tool, arguments=dict(arguments), result=result)


def _evidence(final_answer: str, actions: int, after: int | None = None) -> Evidence:
    return Evidence(
        final_answer=final_answer,
        reasoning_trace="",
        actions=[_action(n=i) for i in range(actions)],
        final_answer_after_step=after,
    )


def test_steps_to_final_answer_counts_all_actions_when_answer_comes_last() -> None:
    assert _evidence("done", 4).steps_to_final_answer() == 4


def test_steps_to_final_answer_stops_at_the_answer() -> None:
    # An OpenAI transcript can go on calling tools after the answer; those do not count (SI §2.3).
    assert _evidence("done", 4, after=2).steps_to_final_answer() == 2


def test_steps_to_final_answer_with_answer_before_any_tool() -> None:
    assert _evidence("done", 3, after=0).steps_to_final_answer() == 0


def test_no_final_answer_has_no_step_count() -> None:
    assert _evidence("", 3).steps_to_final_answer() is None
    assert _evidence("", 0).steps_to_final_answer() is None


def test_whitespace_is_a_final_answer_in_the_model() -> None:
    # Only the empty string means "no final answer" (OASIS artifact rule); importers decide
    # what they map to it.
    assert _evidence(" ", 1).steps_to_final_answer() == 1


def test_answer_after_more_steps_than_recorded_is_rejected() -> None:
    with pytest.raises(ValidationError, match="final_answer_after_step"):
        _evidence("done", 2, after=3)


def test_answer_step_without_answer_is_rejected() -> None:
    with pytest.raises(ValidationError, match="must be null when final_answer is empty"):
        _evidence("", 2, after=1)


def test_snapshot_and_audit_steps_must_exist() -> None:
    with pytest.raises(ValidationError, match=r"state_snapshots\[0\]\.taken_after_step"):
        Evidence(
            final_answer="",
            reasoning_trace="",
            actions=[],
            state_snapshots=[FullStateSnapshot(label="final", taken_after_step=1, state={})],
        )
    with pytest.raises(ValidationError, match=r"audit_log\[0\]\.after_step"):
        Evidence(
            final_answer="",
            reasoning_trace="",
            actions=[],
            audit_log=[ApiCallEntry(actor="a", verb="get", resource="r", after_step=2)],
        )


def test_three_way_result_distinction_survives_the_model() -> None:
    bodies = ["", "null", '""']
    evidence = Evidence(
        final_answer="x",
        reasoning_trace="",
        actions=[_action(result=body) for body in bodies],
    )
    assert tool_response_bodies(evidence) == bodies
    revived = Evidence.model_validate_json(evidence.model_dump_json())
    assert tool_response_bodies(revived) == bodies


def test_channel_text_of_each_channel() -> None:
    evidence = Evidence(
        final_answer="SMTP_PORT is missing",
        reasoning_trace="checked the configmap",
        actions=[
            _action(tool="kubectl", name="smtp-config", kind="configmap"),
            ToolAction(tool="note", arguments={"text": "two\nlines", "é": 1}, result=""),
        ],
    )
    assert channel_text(evidence, "agent_response") == "SMTP_PORT is missing"
    assert channel_text(evidence, "reasoning_trace") == "checked the configmap"
    # Compact JSON, sorted keys, one action per line even when an argument holds a newline.
    assert channel_text(evidence, "tool_call_parameters") == (
        '{"kind":"configmap","name":"smtp-config"}\n{"text":"two\\nlines","é":1}'
    )


def test_tool_call_parameters_of_no_actions_is_empty() -> None:
    assert channel_text(_evidence("x", 0), "tool_call_parameters") == ""


def test_unknown_channel_is_an_error_naming_it() -> None:
    with pytest.raises(ProvebenchError, match="'tool_output'") as caught:
        channel_text(_evidence("x", 0), "tool_output")
    assert "agent_response" in str(caught.value)


def test_models_are_strict_and_closed() -> None:
    with pytest.raises(ValidationError):
        ToolAction.model_validate({"tool": "t", "arguments": {}, "result": 5})
    with pytest.raises(ValidationError):
        ToolAction.model_validate({"tool": "t", "arguments": {}, "result": "", "extra": 1})
    with pytest.raises(ValidationError):
        ToolAction.model_validate({"tool": "t", "arguments": {}, "result": "", "duration_ms": -1})
