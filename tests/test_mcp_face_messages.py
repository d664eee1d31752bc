"""What the MCP face records of each line a client writes (`ClientMessages`, `as_sent`; SI red
team 17, H8 and 20, S2): escaped, bounded, the message as parsed only where the parse holds every
value the line sent, else the line itself; a call's name and arguments left to its action only
where its handler records them; searched from the evidence even where a file holds text that is
no JSON."""

from __future__ import annotations

import io
import json

import pytest

from provebench._mcp_face import ClientMessages, as_sent
from provebench.evidence import Evidence
from provebench.evidence._agent_text import agent_texts

SECRET = "super-secret-password"


def _received(message: dict[str, object]) -> object:
    return as_sent(json.dumps(dict(message, jsonrpc="2.0")) + "\n")


def test_each_message_is_one_escaped_line_without_its_constant() -> None:
    messages = ClientMessages()
    sent = {"method": "notifications/cancelled", "params": {"requestId": 1, "reason": "é\n\u2028"}}
    assert messages.record(_received(sent))
    (text,) = messages.texts
    assert text.isascii() and "\n" not in text and "jsonrpc" not in text
    assert json.loads(text) == sent


def test_a_line_that_is_no_message_is_recorded_whole_however_long() -> None:
    # a lone surrogate's escape: JSON the SDK refuses, whose refusal text cuts the line short
    line = json.dumps({"method": "x", "params": {"a": "\ud800", "pad": "x" * 500, "b": "secret"}})
    messages = ClientMessages()
    assert messages.record(as_sent(line + "\n"))
    assert json.loads(messages.texts[0]) == {"unparsed_line": line}
    # an object that is no JSON-RPC message, text that is no JSON: the line as written
    for line in ('{"jsonrpc": "2.0", "pad": "secret"}', "hello secret", '{"a": NaN}'):
        assert as_sent(line + "\n") == {"unparsed_line": line}


@pytest.mark.parametrize(
    "line",
    [
        # S2: a repeated key, which the SDK reads as its last value, and a key it drops
        f'{{"jsonrpc":"2.0","method":"notifications/x","params":{{"v":"{SECRET}","v":1}}}}',
        f'{{"jsonrpc":"2.0","id":"{SECRET}","id":7,"method":"ping"}}',
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"t",'
        f'"arguments":{{"kind":"{SECRET}","kind":"pods"}}}}}}',
        f'{{"jsonrpc":"2.0","method":"notifications/x","params":{{}},"x":"{SECRET}"}}',
        f'{{"jsonrpc":"2.0","id":1,"result":{{}},"x":"{SECRET}"}}',
    ],
)
def test_a_line_its_parse_does_not_hold_whole_is_recorded_as_sent(line: str) -> None:
    assert as_sent(line + "\n") == {"unparsed_line": line}
    messages = ClientMessages()
    assert messages.record(as_sent(line))  # the unfinished line at the end of the stream too
    evidence = Evidence(
        final_answer="", reasoning_trace="", actions=[], agent_messages=messages.texts
    )
    assert any(SECRET in text for text, _ in agent_texts(evidence, "agent_messages"))


def test_a_calls_name_and_arguments_are_left_to_its_action_its_meta_is_not() -> None:
    call = {"id": 2, "method": "tools/call", "params": {"name": "t", "arguments": {"a": "b"}}}
    call["params"]["_meta"] = {"m": "n"}  # type: ignore[index]
    assert _received(call) == {
        "id": 2,
        "method": "tools/call",
        "params": {"_meta": {"m": "n"}},
    }
    # arguments no handler receives are recorded whole: nothing else records them
    refused = {"id": 3, "method": "tools/call", "params": {"name": "t", "arguments": "b"}}
    assert _received(refused) == refused
    other = {"id": 4, "method": "x/y", "params": {"name": "t", "arguments": {"a": "b"}}}
    assert _received(other) == other


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


class _Lines:
    """A client's stream: these lines, then its end."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)

    def readline(self) -> str:
        return self.lines.pop(0) if self.lines else ""


class _Sink(io.StringIO):
    def flush(self) -> None:
        pass


def test_the_server_records_each_line_as_sent_before_the_sdk_reads_it() -> None:
    import anyio

    from provebench._mcp_face import McpFace, serve_face

    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c"}}
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}) + "\n",
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
        f'{{"jsonrpc":"2.0","method":"notifications/x","params":{{"v":"{SECRET}","v":1}}}}\n',
        f'{{"jsonrpc":"2.0","method":"notifications/x","params":{{}},"x":"{SECRET}"}}',
    ]
    face = McpFace(
        server_name="s",
        instructions="i",
        prompt_name="task",
        prompt_description="d",
        tools=(),
        call=lambda name, arguments: ("", False),
        on_identity=lambda name, version: None,
        messages=ClientMessages(),
    )
    anyio.run(serve_face, face, _Lines(*lines), anyio.wrap_file(_Sink()))
    assert face.messages is not None
    recorded = [json.loads(text) for text in face.messages.texts]
    assert recorded[1] == {"method": "notifications/initialized"}
    assert recorded[2:] == [{"unparsed_line": line.rstrip("\n")} for line in lines[2:]]
