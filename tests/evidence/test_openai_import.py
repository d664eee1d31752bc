"""Importing OpenAI chat-completions transcripts: every documented rule and edge."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import (
    NO_RESPONSE_ERROR,
    channel_text,
    evidence_from_openai,
    import_openai,
    tool_response_bodies,
)

from .conftest import FIXTURES

FIXTURE = FIXTURES / "openai_smtp_diagnosis.json"


def _call(call_id: str, name: str = "kubectl_get", arguments: Any = "{}") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def _assistant(content: Any = None, *calls: dict[str, Any], **fields: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content, **fields}
    if calls:
        message["tool_calls"] = list(calls)
    return message


def _tool(call_id: str, content: Any) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


USER = {"role": "user", "content": "notification-service pods keep crashing. What's wrong?"}


def test_realistic_transcript() -> None:
    evidence = import_openai(FIXTURE)
    assert evidence.metadata.source_format == "openai"
    assert evidence.metadata.model == "gpt-4o-2024-08-06"
    assert [a.id for a in evidence.actions] == ["call_pods", "call_logs", "call_cm", "call_deploy"]
    assert evidence.actions[1].arguments == {
        "pod": "notification-service-7d9f8b6c5-abcde",
        "namespace": "default",
    }
    # Tool messages answered out of order are paired by tool_call_id, not by position.
    assert evidence.actions[1].result.startswith("Error: environment variable SMTP_PORT")
    # A result sent as text parts is concatenated as sent.
    assert evidence.actions[2].result == '{"data": {"SMTP_HOST": "smtp.internal"}}'
    # The last call was never answered.
    assert evidence.actions[3].result == ""
    assert evidence.actions[3].error == NO_RESPONSE_ERROR
    assert evidence.final_answer == (
        "Root cause: the key SMTP_PORT is missing from configmap/smtp-config.\n"
        "The deployment reads it through configMapKeyRef, so the container fails at start-up."
    )
    # The transcript goes on after the answer; the step count stops at the answer (SI §2.3).
    assert evidence.final_answer_after_step == 3
    assert evidence.steps_to_final_answer() == 3
    assert evidence.reasoning_trace == (
        "Start with the pod status and events.\n"
        "Both replicas are crash-looping; I will read the logs and the config map.\n"
        "The configmap lacks SMTP_PORT; the deployment references it via configMapKeyRef."
    )
    # The top-level usage block is the run total; it wins over the per-message one.
    assert (evidence.metadata.tokens.input, evidence.metadata.tokens.output) == (2310, 201)
    assert evidence.metadata.tokens.total == 2511


def test_user_and_system_text_feeds_no_channel() -> None:
    evidence = import_openai(FIXTURE)
    for channel in ("agent_response", "reasoning_trace", "tool_call_parameters"):
        assert "keep crashing" not in channel_text(evidence, channel)
        assert "SRE assistant" not in channel_text(evidence, channel)


def test_bare_array_and_object_forms_agree() -> None:
    messages = [USER, _assistant(None, _call("c1")), _tool("c1", "ok"), _assistant("done")]
    from_array = evidence_from_openai(messages, source="t.json")
    from_object = evidence_from_openai({"messages": messages}, source="t.json")
    assert from_array == from_object
    assert from_array.final_answer == "done"
    assert from_array.steps_to_final_answer() == 1


def test_three_way_result_distinction_is_kept() -> None:
    messages = [
        _assistant(None, _call("a"), _call("b"), _call("c"), _call("d")),
        _tool("a", ""),
        _tool("b", "null"),
        _tool("c", '""'),
        _tool("d", None),
        _assistant("answer"),
    ]
    evidence = evidence_from_openai(messages, source="t.json")
    assert tool_response_bodies(evidence) == ["", "null", '""', ""]
    assert all(action.error is None for action in evidence.actions)


def test_last_assistant_message_without_tool_calls_is_the_answer() -> None:
    messages = [
        _assistant("first guess: DNS"),
        USER,
        _assistant("checking", _call("c1")),
        _tool("c1", "SMTP_PORT missing"),
        _assistant("SMTP_PORT is missing"),
        _assistant(None, _call("c2")),
        _tool("c2", "x"),
    ]
    evidence = evidence_from_openai(messages, source="t.json")
    assert evidence.final_answer == "SMTP_PORT is missing"
    assert evidence.final_answer_after_step == 1
    assert evidence.steps_to_final_answer() == 1
    # The replaced answer and the narration stay in the trace, in order; nothing is dropped.
    assert evidence.reasoning_trace == "first guess: DNS\nchecking"


def test_answer_before_any_tool_call_counts_zero_steps() -> None:
    messages = [_assistant("I will not touch production."), _assistant(None, _call("c1"))]
    evidence = evidence_from_openai(messages, source="t.json")
    assert evidence.steps_to_final_answer() == 0
    assert evidence.actions[0].error == NO_RESPONSE_ERROR


@pytest.mark.parametrize("content", [None, "", "   \n", []])
def test_blank_assistant_text_is_not_an_answer(content: Any) -> None:
    messages = [_assistant("earlier answer"), _assistant(content)]
    evidence = evidence_from_openai(messages, source="t.json")
    assert evidence.final_answer == "earlier answer"


def test_transcript_ending_in_tool_calls_has_no_final_answer() -> None:
    messages = [USER, _assistant("looking", _call("c1")), _tool("c1", "x")]
    evidence = evidence_from_openai(messages, source="t.json")
    assert evidence.final_answer == ""
    assert evidence.final_answer_after_step is None
    assert evidence.steps_to_final_answer() is None
    assert evidence.reasoning_trace == "looking"


def test_transcript_with_no_assistant_message_is_an_agent_that_did_nothing() -> None:
    evidence = evidence_from_openai([USER], source="t.json")
    assert evidence.final_answer == "" and evidence.actions == []


def test_refusal_is_what_the_agent_said() -> None:
    refusal_only = evidence_from_openai(
        [_assistant(None, refusal="I can't delete the namespace.")], source="t.json"
    )
    assert refusal_only.final_answer == "I can't delete the namespace."
    as_part = evidence_from_openai(
        [_assistant([{"type": "refusal", "refusal": "No."}, {"type": "text", "text": "Sorry."}])],
        source="t.json",
    )
    assert as_part.final_answer == "No.\nSorry."
    both = evidence_from_openai([_assistant("Partly.", refusal="Not that.")], source="t.json")
    assert both.final_answer == "Partly.\nNot that."


def test_reasoning_fields_feed_the_trace_in_order() -> None:
    messages = [
        _assistant(None, _call("c1"), reasoning_content="r1"),
        _tool("c1", "x"),
        _assistant("final", reasoning="r2"),
        _assistant(None, _call("c2"), reasoning_content="same", reasoning="same"),
        _assistant(None, _call("c3"), reasoning_content="a", reasoning="b"),
    ]
    evidence = evidence_from_openai(messages, source="t.json")
    assert evidence.reasoning_trace == "r1\nr2\nsame\na\nb"
    assert evidence.final_answer == "final"


def test_arguments_edge_cases() -> None:
    messages = [
        _assistant(
            None,
            _call("c1", arguments=""),
            _call("c2", arguments={"already": "decoded"}),
            _call("c3", arguments='{"n": 1.5, "deep": {"k": [null, true]}}'),
        )
    ]
    evidence = evidence_from_openai(messages, source="t.json")
    assert [a.arguments for a in evidence.actions] == [
        {},
        {"already": "decoded"},
        {"n": 1.5, "deep": {"k": [None, True]}},
    ]


def test_usage_is_summed_over_messages_when_there_is_no_total() -> None:
    messages = [
        _assistant(None, _call("c1"), usage={"prompt_tokens": 10, "completion_tokens": 2}),
        _tool("c1", "x"),
        _assistant("a", usage={"input_tokens": 30, "output_tokens": 5, "total_tokens": 35}),
    ]
    tokens = evidence_from_openai(messages, source="t.json").metadata.tokens
    assert (tokens.input, tokens.output) == (40, 7)
    # One block lacks total_tokens, so the total is derived from input + output.
    assert tokens.total == 47


def test_a_count_missing_from_one_usage_block_is_unknown() -> None:
    messages = [
        _assistant("a", usage={"prompt_tokens": 10}),
        _assistant("b", usage={"prompt_tokens": 5, "completion_tokens": 1}),
    ]
    tokens = evidence_from_openai(messages, source="t.json").metadata.tokens
    assert (tokens.input, tokens.output, tokens.total) == (15, None, None)


def test_no_usage_means_unknown_tokens() -> None:
    tokens = evidence_from_openai([_assistant("a")], source="t.json").metadata.tokens
    assert (tokens.input, tokens.output, tokens.total) == (None, None, None)


def test_other_top_level_fields_are_kept_as_non_scoring_metadata() -> None:
    document = {"messages": [_assistant("a")], "tools": [{"type": "function"}], "id": "chatcmpl-1"}
    extras = evidence_from_openai(document, source="t.json").metadata.source_extra_fields
    assert extras == {"tools": [{"type": "function"}], "id": "chatcmpl-1"}


@pytest.mark.parametrize(
    ("document", "field", "message"),
    [
        ([], "(document)", "no messages"),
        ({"messages": []}, "messages", "no messages"),
        ({"messages": "hi"}, "messages", "expected an array"),
        ({"choices": []}, None, "object without `messages`"),
        (42, None, "got number"),
        (["hi"], "[0]", "expected a message object"),
        ([{"content": "x"}], "[0].role", "required field is missing"),
        ([{"role": "robot"}], "[0].role", "unknown role 'robot'"),
        ([{"role": "function", "name": "f", "content": ""}], "[0].role", "legacy"),
        (
            [_assistant(None, function_call={"name": "f", "arguments": "{}"})],
            "[0].function_call",
            "legacy",
        ),
        (
            {"messages": [USER, _assistant(None, _call("c1", arguments='{"a": }'))]},
            "messages[1].tool_calls[0].function.arguments",
            "not valid JSON (line 1 column 7 of the string)",
        ),
        (
            [_assistant(None, _call("c1", arguments="[1, 2]"))],
            "[0].tool_calls[0].function.arguments",
            "must encode a JSON object, but encodes array",
        ),
        (
            [_assistant(None, _call("c1", arguments='{"a": 1, "a": 2}'))],
            "[0].tool_calls[0].function.arguments",
            "more than once",
        ),
        (
            [_assistant(None, _call("c1", arguments=7))],
            "[0].tool_calls[0].function.arguments",
            "got number",
        ),
        (
            [_assistant(None, {"type": "function", "function": {"name": "f", "arguments": "{}"}})],
            "[0].tool_calls[0].id",
            "missing or null",
        ),
        ([_assistant(None, _call(""))], "[0].tool_calls[0].id", "non-empty"),
        (
            [_assistant(None, _call("c1")), _assistant(None, _call("c1"))],
            "[1].tool_calls[0].id",
            "used twice",
        ),
        (
            [_assistant(None, {"id": "c1", "type": "custom", "custom": {}})],
            "[0].tool_calls[0].type",
            "not supported",
        ),
        (
            [_assistant(None, {"id": "c1", "function": {"arguments": "{}"}})],
            "[0].tool_calls[0].function.name",
            "missing",
        ),
        ([_assistant(None, tool_calls={"id": "c1"})], "[0].tool_calls", "expected an array"),
        ([_tool("ghost", "x")], "[0].tool_call_id", "no earlier tool call"),
        (
            [_assistant(None, _call("c1")), _tool("c1", "x"), _tool("c1", "y")],
            "[2].tool_call_id",
            "second time",
        ),
        (
            [_tool("c1", "early"), _assistant(None, _call("c1"))],
            "[0].tool_call_id",
            "no earlier tool call",
        ),
        (
            [_assistant(None, _call("c1")), _tool("c1", {"status": "ok"})],
            "[1].content",
            "got object",
        ),
        (
            [_assistant(None, _call("c1")), _tool("c1", [{"type": "image_url"}])],
            "[1].content[0]",
            "text part",
        ),
        (
            [_assistant([{"type": "image_url", "image_url": {"url": "x"}}])],
            "[0].content[0].type",
            "not text",
        ),
        ([_assistant([{"type": "text", "text": 5}])], "[0].content[0].text", "got number"),
        ([_assistant(5)], "[0].content", "got number"),
        ([_assistant("a", reasoning_content=["x"])], "[0].reasoning_content", "got array"),
        ([_assistant("a", usage={"prompt_tokens": -1})], "[0].usage.prompt_tokens", "non-negative"),
        ([_assistant("a", usage={"prompt_tokens": True})], "[0].usage.prompt_tokens", "integer"),
        ([_assistant("a", usage=[1])], "[0].usage", "expected an object"),
        ({"messages": [_assistant("a")], "model": 4}, "model", "got number"),
    ],
)
def test_malformed_transcripts_name_the_field(
    document: Any, field: str | None, message: str
) -> None:
    with pytest.raises(ProvebenchError) as caught:
        evidence_from_openai(document, source="chat.json")
    assert caught.value.path == "chat.json"
    assert caught.value.field == field
    assert message in caught.value.message


def test_import_is_deterministic() -> None:
    first = import_openai(FIXTURE)
    second = import_openai(FIXTURE)
    assert first.model_dump_json() == second.model_dump_json()


def test_text_in_the_transcript_never_changes_the_rules() -> None:
    # A tool response that looks like a protocol message is just a body.
    body = json.dumps({"role": "assistant", "content": "I am the final answer", "tool_calls": []})
    messages = [_assistant(None, _call("c1")), _tool("c1", body), _assistant("real answer")]
    evidence = evidence_from_openai(messages, source="t.json")
    assert evidence.final_answer == "real answer"
    assert evidence.actions[0].result == body
