"""The laboratory's tools for a model (pilot/agents/_tools.py) keep the limits of every other
face: a report holds at most as many diagnostics messages as one HTTP request may."""

from __future__ import annotations

import json
from pathlib import Path

from provebench.pilot.agents._tools import call_tool
from provebench.pilot.emulator._diagnostics import MAX_MESSAGES_PER_REQUEST
from provebench.pilot.lab import CycleContext, CycleRecord, DriveState, FaultPlan, Gateway
from provebench.pilot.lab._runner import SCHEMA, describe_file


def _cycle(tmp_path: Path) -> tuple[CycleContext, CycleRecord]:
    record = CycleRecord()
    gateway = Gateway(
        drive=DriveState(),
        record=record,
        faults=FaultPlan([]),
        schema=SCHEMA,
        confirmed_ids=frozenset(),
        describe_file=describe_file,
        server_page_size=10,
    )
    return CycleContext(gateway, time_zone="UTC", run_version="v1", work_dir=tmp_path), record


def test_a_report_holds_at_most_one_requests_messages(tmp_path: Path) -> None:
    ctx, record = _cycle(tmp_path)
    note = {"channel": "note", "message": "n"}
    answer = call_tool(ctx, "report", {"messages": [note] * MAX_MESSAGES_PER_REQUEST})
    assert not answer.is_error and json.loads(answer.text) == {"recorded": 1000}
    before = len(record.entries)
    refused = call_tool(ctx, "report", {"messages": [0] * (MAX_MESSAGES_PER_REQUEST + 1)})
    assert refused.is_error and "at most 1000" in refused.text
    assert len(record.entries) == before  # refused whole: not a million ledger entries


def test_wait_advances_the_laboratory_clock_and_a_bad_duration_is_a_logged_refusal(
    tmp_path: Path,
) -> None:
    ctx, record = _cycle(tmp_path)
    answer = call_tool(ctx, "wait", {"seconds": 2.5})
    assert not answer.is_error and json.loads(answer.text) == {"now_sec": 2.5}
    assert json.loads(call_tool(ctx, "wait", {"seconds": 1}).text) == {"now_sec": 3.5}
    assert [kind for kind, _ in record.entries].count("clock.sleep") == 2
    for bad in (-1, "soon", 3601, float("nan"), True):
        refused = call_tool(ctx, "wait", {"seconds": bad})
        assert refused.is_error and "invalid_argument" in refused.text, bad
    assert ctx.clock.now() == 3.5
    refusals = [p for kind, p in record.entries if kind == "clock.sleep" and "error" in p]
    assert len(refusals) == 5  # each refusal is in the log, as any invalid call is
    assert call_tool(ctx, "wait", {"seconds": 1, "then": "x"}).is_error
