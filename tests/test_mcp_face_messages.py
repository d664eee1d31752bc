"""What the MCP face records of each client message (`ClientMessages`, SI red team 17, H8):
escaped, bounded, a call's name and arguments left to its action only where its handler
records them, and searched from the evidence even where a file holds text that is no JSON."""

from __future__ import annotations

import json

import mcp.types as types
from mcp.shared.message import SessionMessage

from provebench._mcp_face import ClientMessages, _as_sent
from provebench.evidence import Evidence
from provebench.evidence._agent_text import agent_texts


def _received(message: dict[str, object]) -> SessionMessage:
    line = json.dumps(dict(message, jsonrpc="2.0"))
    return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))


def test_each_message_is_one_escaped_line_without_its_constant() -> None:
    messages = ClientMessages()
    sent = {"method": "notifications/cancelled", "params": {"requestId": 1, "reason": "é\n\u2028"}}
    assert messages.record(_as_sent(_received(sent)))
    (text,) = messages.texts
    assert text.isascii() and "\n" not in text and "jsonrpc" not in text
    assert json.loads(text) == sent


def _refusal(line: str) -> Exception:
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as error:
        return error
    raise AssertionError("read as a message")


def test_a_line_that_is_no_message_is_recorded_whole_however_long() -> None:
    # a lone surrogate's escape: JSON the SDK refuses, whose refusal text cuts the line short
    line = json.dumps({"method": "x", "params": {"a": "\ud800", "pad": "x" * 500, "b": "secret"}})
    messages = ClientMessages()
    assert messages.record(_as_sent(_refusal(line)))
    assert json.loads(messages.texts[0]) == {"unreadable": "ValidationError", "sent": [line]}
    # an object that is no JSON-RPC message: the object
    (text,) = [json.dumps(_as_sent(_refusal('{"jsonrpc": "2.0", "pad": "secret"}')))]
    assert json.loads(text) == {
        "unreadable": "ValidationError",
        "sent": [{"jsonrpc": "2.0", "pad": "secret"}],
    }


def test_a_calls_name_and_arguments_are_left_to_its_action_its_meta_is_not() -> None:
    call = {"id": 2, "method": "tools/call", "params": {"name": "t", "arguments": {"a": "b"}}}
    call["params"]["_meta"] = {"m": "n"}  # type: ignore[index]
    assert _as_sent(_received(call)) == {
        "id": 2,
        "method": "tools/call",
        "params": {"_meta": {"m": "n"}},
    }
    # arguments no handler receives are recorded whole: nothing else records them
    refused = {"id": 3, "method": "tools/call", "params": {"name": "t", "arguments": "b"}}
    assert _as_sent(_received(refused)) == refused
    other = {"id": 4, "method": "x/y", "params": {"name": "t", "arguments": {"a": "b"}}}
    assert _as_sent(_received(other)) == other


def test_past_the_bound_nothing_more_is_taken() -> None:
    messages = ClientMessages(limit=40)
    assert messages.record({"said": "x" * 20})
    assert not messages.record({"said": "y" * 20})
    assert not messages.record({"s": 1})  # once over, always over: no later message slips in
    assert messages.over and len(messages.texts) == 1


def test_recorded_messages_are_searched_as_written_and_string_by_string() -> None:
    texts = ['{"params":{"reason":"p\\u00e4ss"}}', "not json {"]
    evidence = Evidence(final_answer="", reasoning_trace="", actions=[], agent_messages=texts)
    found = [text for text, _ in agent_texts(evidence, "agent_messages")]
    assert "päss" in found and "not json {" in found and texts[0] in found
