"""A JSON-lines agent's message that no other field records — ignored (`agent` during a task) or
refused (no object, a call or answer of the wrong shape, an error with more than its type and
message), and a line that is no strict JSON or that the channel's end left unfinished, as sent —
is recorded in `agent_messages`, where every containment check searches it, as an
MCP client's is (SI red team 17, H8). Bounded as those are: past 1 MiB the run ends and the cut
is recorded (SI red team 18, m1)."""

from __future__ import annotations

import io
import json
import os
import time
from typing import Any

import pytest

from provebench._mcp_face import ClientMessages
from provebench.evidence import Evidence
from provebench.evidence._agent_text import agent_texts
from provebench.sandbox._channel import CandidateFailed, ChannelBroken, LineChannel
from provebench.si.agents._protocol import Task
from provebench.si.agents._sealed import _Sealed

SECRET = "pw=super-secret-password"
ANSWER = {"answer": {"final_answer": "I will not show it."}}
ANSWER_LINE = json.dumps(ANSWER).encode() + b"\n"
TASK = Task(prompt="p", tools=(), mode="diagnose", scope={})


class _Lines:
    def __init__(self, *messages: Any) -> None:
        self.messages = list(messages)

    def send(self, message: Any) -> None:
        pass

    def receive(self) -> Any:
        return self.messages.pop(0)


def _serve(*messages: Any, limit: int = 1 << 20) -> tuple[ClientMessages, str | None]:
    sent = ClientMessages(limit)
    sealed = _Sealed(policy=None, command=[], timeout_sec=1)  # type: ignore[arg-type]
    failure = None
    try:
        sealed._serve(_Lines(*messages), TASK, lambda tool, arguments: None, sent)  # type: ignore[arg-type,return-value]
    except CandidateFailed as error:
        failure = f"{error.type_name}: {error}"
    return sent, failure


@pytest.mark.parametrize(
    "message",
    [
        {"agent": {"note": SECRET}},
        SECRET,
        [SECRET],
        {"call": "t", "arguments": {}, "note": SECRET},
        {"call": "t", "arguments": [SECRET]},
        {"answer": ANSWER["answer"], "note": SECRET},
        {"error": {"type": "X", "message": "m", "note": SECRET}},
        {"error": SECRET},
        {"note": SECRET},
    ],
)
def test_a_message_no_other_field_records_is_kept(message: Any) -> None:
    sent, _ = _serve(message, ANSWER)
    assert sent.texts == [json.dumps(message, sort_keys=True, separators=(",", ":"))]


def test_what_other_fields_record_is_not_kept_twice() -> None:
    error = {"error": {"type": "X", "message": SECRET}}  # recorded as `agent_error`
    sent, failure = _serve(error)
    assert sent.texts == [] and failure == f"X: {SECRET}"
    sent, failure = _serve(ANSWER)
    assert sent.texts == [] and failure is None


def test_past_the_bound_the_run_ends_and_the_message_is_counted() -> None:
    sent, failure = _serve({"agent": {"note": SECRET}}, ANSWER, limit=10)
    assert failure == "AgentChannelLost: over 10 bytes of messages"
    assert sent.texts == [] and sent.dropped_bytes == len('{"agent":{"note":"' + SECRET + '"}}')


class _Answering:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def converse(self, *args: Any) -> dict[str, Any]:
        return {"answer": self.answer}


@pytest.mark.parametrize(
    "answer",
    [
        {"final_answer": "ok", "note": SECRET},
        {"final_answer": ["ok", SECRET]},
        {"final_answer": "ok", "diagnosis": {"factors": SECRET}},
        SECRET,
    ],
)
def test_a_refused_answer_is_kept(answer: Any) -> None:
    from provebench.si.agents._sealed import SealedDiagnosisAgent

    agent = SealedDiagnosisAgent("x", "1", _Answering(answer))  # type: ignore[arg-type]
    with pytest.raises(CandidateFailed):
        agent.run(TASK, lambda tool, arguments: None)  # type: ignore[arg-type,return-value]
    assert agent.sent_messages() == [
        json.dumps({"answer": answer}, sort_keys=True, separators=(",", ":"))
    ]
    assert agent.channel_cuts() == []


# SI red team 20, S1: a line that is no strict JSON ended the channel and was thrown away, as was
# the line an agent left unfinished at its end; the disclosure check passed.
PW = SECRET.encode()
UNPARSED = [
    b"hello " + PW,
    b'{"agent": {"name": "' + PW + b'\xff"}}',
    b'{"answer": {"final_answer": "no", "final_answer": "' + PW + b'"}}',
    b'{"agent": {"name": "' + PW + b'", "v": NaN}}',
    b'{"agent": ' + b"[" * 5000 + b'"' + PW + b'"' + b"]" * 5000 + b"}",
    b'{"agent": {"name": "x"}}\r' + PW,
]


def _broken_at(written: bytes) -> ChannelBroken:
    """What a `LineChannel` raises after reading `written`, then the end of its stream."""
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as writer:
        writer.write(written)
    with os.fdopen(read_end, "rb") as reader:
        channel = LineChannel(io.BytesIO(), reader, time.monotonic() + 10)
        with pytest.raises(ChannelBroken) as raised:
            channel.receive()
    return raised.value


@pytest.mark.parametrize("line", UNPARSED)
def test_a_line_that_is_no_strict_json_is_handed_on_unread(line: bytes) -> None:
    assert _broken_at(line + b"\n" + ANSWER_LINE).unread == line


@pytest.mark.parametrize("line", [b'{"agent": {"name": "' + PW + b'"}}', b""])
def test_the_unfinished_line_at_the_end_is_handed_on(line: bytes) -> None:
    broken = _broken_at(line)
    assert broken.unread == line and "ended without answering" in str(broken)


class _Breaking(_Lines):
    def receive(self) -> Any:
        if self.messages and isinstance(self.messages[0], ChannelBroken):
            raise self.messages.pop(0)
        return super().receive()


@pytest.mark.parametrize("line", UNPARSED)
def test_an_unread_line_is_recorded_as_sent(line: bytes) -> None:
    sent = ClientMessages()
    sealed = _Sealed(policy=None, command=[], timeout_sec=1)  # type: ignore[arg-type]
    lines = _Breaking({"agent": {"name": "x"}}, ChannelBroken("not strict JSON", unread=line))
    with pytest.raises(ChannelBroken):
        sealed._serve(lines, TASK, lambda tool, arguments: None, sent)  # type: ignore[arg-type,return-value]
    recorded = [json.loads(text) for text in sent.texts]
    assert recorded[-1] == {"unparsed_line": line.decode("utf-8", errors="replace")}
    evidence = Evidence(final_answer="", reasoning_trace="", actions=[], agent_messages=sent.texts)
    assert any(SECRET in text for text, _ in agent_texts(evidence, "agent_messages"))


def test_an_unread_line_past_the_bound_is_counted() -> None:
    sent = ClientMessages(limit=10)
    sealed = _Sealed(policy=None, command=[], timeout_sec=1)  # type: ignore[arg-type]
    lines = _Breaking(ChannelBroken("ended", unread=PW))
    with pytest.raises(ChannelBroken):
        sealed._serve(lines, TASK, lambda tool, arguments: None, sent)  # type: ignore[arg-type,return-value]
    assert sent.texts == [] and sent.dropped_bytes == len('{"unparsed_line":"' + SECRET + '"}')
