"""Every agent channel provebench bounds records that it was cut, and how much it left out (SI red
team 18, m1 and s1): a sealed program's standard error past `MAX_OUTPUT_BYTES`, an MCP client's
messages past `MAX_RECORDED_BYTES`, a protocol line past `MAX_LINE_BYTES`. The cut point is fixed,
whatever the pipe's chunks; a channel exactly at its bound is whole, and records no cut."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from pathlib import Path

import pytest

from provebench._mcp_face import ClientMessages
from provebench.evidence import Evidence
from provebench.evidence._cuts import ChannelCut
from provebench.sandbox._channel import MAX_LINE_BYTES, LineChannel, LineTooLong
from provebench.sandbox._launch import MAX_OUTPUT_BYTES, _relay_output
from provebench.sandbox._relayed import RelayedOutput
from provebench.si import load_scenarios
from provebench.si.agents._run import _with_agent_text
from provebench.si.agents._sealed import CapturedStderr
from provebench.si.agents._sealed_mcp import _BoundedLines, _McpRun, _messages_cut
from provebench.si.agents._serve import ServeRun
from provebench.si.sim import Session
from tests.helpers.si_lab import write_fixture


def _relayed(output: bytes, chunk: int = 65536) -> tuple[RelayedOutput, bytes]:
    class Chunked(io.BytesIO):
        def read1(self, size: int = -1) -> bytes:
            return super().read1(min(chunk, size))

    sink = io.BytesIO()
    captured = RelayedOutput(MAX_OUTPUT_BYTES)
    _relay_output(Chunked(output), sink, captured)
    return captured, sink.getvalue()


def test_standard_error_exactly_at_its_bound_is_whole() -> None:
    captured, shown = _relayed(b"x" * MAX_OUTPUT_BYTES)
    assert len(captured.kept) == MAX_OUTPUT_BYTES and captured.dropped == 0
    assert shown == bytes(captured.kept)


@pytest.mark.parametrize("chunk", [1000, 65536])
def test_standard_error_past_its_bound_counts_what_it_dropped(chunk: int) -> None:
    # s1: the padding, then the secret; the cut is at the same byte whatever the chunks
    output = b"x" * 1_100_000 + b"\npw=super-secret-password\n"
    captured, shown = _relayed(output, chunk)
    assert bytes(captured.kept) == output[:MAX_OUTPUT_BYTES] == shown
    assert captured.dropped == len(output) - MAX_OUTPUT_BYTES == 51450


def test_a_relay_that_keeps_nothing_still_bounds_what_it_shows() -> None:
    relayed = RelayedOutput(10, keeps=False)
    assert relayed.take(b"abcdefgh") == b"abcdefgh" and relayed.take(b"ijkl") == b"ij"
    assert relayed.kept == bytearray() and relayed.dropped == 2


class _Sealed(CapturedStderr):
    def __init__(self, stderr: RelayedOutput, message_cuts: list[ChannelCut]) -> None:
        self.stderr, self.message_cuts = stderr, message_cuts


def _recorded(agent: CapturedStderr) -> Evidence:
    return _with_agent_text(Evidence(final_answer="", reasoning_trace="", actions=[]), agent, None)  # type: ignore[arg-type]


def test_a_sealed_agent_s_cut_standard_error_is_in_its_evidence() -> None:
    captured, _ = _relayed(b"x" * (MAX_OUTPUT_BYTES + 7))
    evidence = _recorded(_Sealed(captured, []))
    assert evidence.agent_stderr == "x" * MAX_OUTPUT_BYTES
    assert [c.model_dump() for c in evidence.agent_cuts] == [
        {
            "channel": "agent_stderr",
            "limit_bytes": MAX_OUTPUT_BYTES,
            "dropped_bytes": 7,
            "closed": False,
        }
    ]
    whole, _ = _relayed(b"x" * MAX_OUTPUT_BYTES)
    assert _recorded(_Sealed(whole, [])).agent_cuts == []


def test_the_message_past_the_bound_is_counted_once() -> None:
    messages = ClientMessages(limit=40)
    assert messages.record({"said": "x" * 20}) and messages.dropped_bytes == 0
    assert not messages.record({"said": "pw " + "y" * 20})
    assert not messages.record({"s": 1})  # never read on: the first past the bound is counted
    assert messages.dropped_bytes == len('{"said":"pw ' + "y" * 20 + '"}')


def test_messages_exactly_at_the_bound_are_whole() -> None:
    text = '{"said":"' + "x" * 20 + '"}'
    messages = ClientMessages(limit=len(text))
    assert messages.record({"said": "x" * 20}) and not messages.over
    run = _McpRun(call=lambda name, arguments: None, messages=messages)  # type: ignore[arg-type,return-value]
    assert _messages_cut(run) == []


def test_a_sealed_mcp_run_records_its_cut_messages() -> None:
    run = _McpRun(call=lambda name, arguments: None, messages=ClientMessages(limit=10))  # type: ignore[arg-type,return-value]
    run.messages.record({"message": "pw=super-secret-password"})
    (cut,) = _messages_cut(run)
    assert (cut.channel, cut.limit_bytes, cut.closed) == ("agent_messages", 10, True)
    assert cut.dropped_bytes == len('{"message":"pw=super-secret-password"}')


def test_a_sealed_mcp_line_past_its_bound_is_recorded_as_cut() -> None:
    run = _McpRun(call=lambda name, arguments: None)  # type: ignore[arg-type,return-value]
    lines = _BoundedLines(io.BytesIO(b"z" * (MAX_LINE_BYTES + 5) + b"\n"), run)
    assert lines.readline() == "" and run.line_cut
    (cut,) = _messages_cut(run)
    assert (cut.channel, cut.limit_bytes, cut.dropped_bytes) == (
        "agent_messages",
        MAX_LINE_BYTES,
        MAX_LINE_BYTES + 1,
    )


def test_a_json_lines_line_past_its_bound_is_its_own_failure() -> None:
    read, write = os.pipe()
    writer = threading.Thread(target=os.write, args=(write, b"z" * (MAX_LINE_BYTES + 2)))
    writer.start()
    try:
        with os.fdopen(read, "rb") as source, pytest.raises(LineTooLong):
            LineChannel(io.BytesIO(), source, deadline=time.monotonic() + 60).receive()
    finally:
        writer.join()
        os.close(write)


def test_si_serve_records_the_message_that_closed_the_channel(tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)
    scenario = load_scenarios(scenario_file)[0]
    run = ServeRun(
        session=Session.start(scenario),
        scenario=scenario,
        scenario_file=scenario_file,
        out_dir=tmp_path / "out",
        max_tool_calls=3,
        messages=ClientMessages(limit=60),
    )
    sent = {"params": {"message": "pw=super-secret-password " + "y" * 40}}
    run.messages.record({"method": "notifications/initialized"})
    run.messages.record(sent)
    dropped = len(json.dumps(sent, separators=(",", ":")))
    run.finish()
    evidence = json.loads((run.out_dir / "evidence.json").read_text())
    assert evidence["agent_cuts"] == [
        {"channel": "agent_messages", "limit_bytes": 60, "dropped_bytes": dropped, "closed": True}
    ]
