"""What the recordings of a real server (tests/llm/fixtures, made by `make test-llm`) hold, and
how a run over them is judged: the options the runs were made with, the calls a model made as
the loop reads them (every one up to the ending tool: a step each, SI §3.4), and the summary of
a request kept in a fixture (the messages themselves are the run's, remade on replay)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
SI_OPTIONS = ("--max-tokens", "512", "--request-timeout", "300", "--max-retries", "0",
              "--agent-timeout", "900", "--max-tool-calls", "60")  # fmt: skip
PILOT_CYCLES = 4  # the fewest a public corpus has (two run versions, two cycles each)
PILOT_OPTIONS = ("--max-tokens", "512", "--request-timeout", "300", "--max-retries", "0",
                 "--cycle-timeout", "900")  # fmt: skip


def summary(request: dict[str, Any]) -> dict[str, Any]:
    """What a fixture keeps of a request: the options the loop sent and the conversation's
    length (the messages are remade by the run that replays it)."""
    return {
        "model": request.get("model"),
        "tool_choice": request.get("tool_choice"),
        "max_tokens": request.get("max_tokens"),
        "temperature": request.get("temperature"),
        "messages": len(request.get("messages") or []),
        "tools": sorted(t["function"]["name"] for t in request.get("tools") or []),
    }


def expected_calls(exchanges: list[dict[str, Any]], end_tool: str) -> list[tuple[str, str]]:
    """(name, arguments text) of each tool call the server sent, in order, up to the first
    call of `end_tool` whose arguments are a JSON object (which ends the run, and is no step)."""
    calls: list[tuple[str, str]] = []
    for exchange in exchanges:
        if exchange["status"] != 200:
            continue
        message = json.loads(exchange["body"])["choices"][0]["message"]
        for call in message.get("tool_calls") or []:
            name, arguments = call["function"]["name"], call["function"]["arguments"]
            if name == end_tool and _is_object(arguments):
                return calls
            calls.append((name, arguments))
    return calls


def _is_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text or "{}"), dict)
    except ValueError:
        return False


def by_conversation(exchanges: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The exchanges of each conversation (a pilot cycle): one starts with a request of two
    messages, the system text and the task (a full request, or a fixture's summary)."""
    groups: list[list[dict[str, Any]]] = []
    for exchange in exchanges:
        messages = exchange["request"]["messages"]
        if (messages if isinstance(messages, int) else len(messages)) == 2 or not groups:
            groups.append([])
        groups[-1].append(exchange)
    return groups


def transcript_notes(run: Path) -> list[dict[str, Any]]:
    """The model loop's transcripts of a pilot run folder, one per cycle: the laboratory's
    `model_transcript` records of the log, never a note of the importer's diagnostics channel
    (issue 40: a note's format tag was an exemption any importer could claim)."""
    diagnostics = (run / "diagnostics.jsonl").read_text(encoding="utf-8")
    assert "provebench.llm.transcript/1" not in diagnostics
    notes = []
    for line in (run / "ledger.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("kind") == "model_transcript":
            notes.append(json.loads(entry["payload"]["transcript"]))
    return notes


def fixtures(command: str) -> list[Path]:
    """The recorded fixtures of `command` (`si run`, `pilot run`)."""
    found = sorted(FIXTURES.glob("*.json")) if FIXTURES.is_dir() else []
    return [p for p in found if json.loads(p.read_text(encoding="utf-8"))["command"] == command]


__all__ = [
    "FIXTURES",
    "PILOT_CYCLES",
    "PILOT_OPTIONS",
    "SI_OPTIONS",
    "by_conversation",
    "check_probe",
    "expected_calls",
    "fixtures",
    "probe_requests",
    "summary",
    "transcript_notes",
]


def probe_requests(tools: list[dict[str, Any]], model: str) -> list[dict[str, Any]]:
    """Requests that make the real server send a tool call however small the model: the tool
    forced (llama-cpp-python then writes its arguments under the tool's schema grammar), once
    with room, once cut at three tokens."""
    forced = {"type": "function", "function": {"name": "orchestration_list"}}
    messages = [{"role": "user", "content": "List the pods of the namespace default."}]
    return [
        {"model": model, "messages": messages, "tools": tools, "tool_choice": forced,
         "max_tokens": max_tokens, "temperature": 0}
        for max_tokens in (128, 3)
    ]  # fmt: skip


def check_probe(fixture: dict[str, Any], scenario_file: Path) -> None:
    """Each recorded answer of a probe, served as a run's first completion (a plain stop the
    second), is recorded as the laboratory records any call: one step per tool call, a call
    whose arguments are no JSON object refused as such, a cut turn counted."""
    from provebench.llm import RequestSettings, endpoint_for
    from provebench.si import load_scenarios
    from provebench.si.agents import run_agent
    from provebench.si.agents._openai import OpenAIDiagnoser
    from provebench.si.sim import Session
    from provebench.si.sim._recording import UNRECORDABLE_ARGUMENTS
    from tests.helpers.fake_openai import FakeModel, Reply, fake_openai_server

    for exchange in fixture["exchanges"]:
        choice = json.loads(exchange["body"])["choices"][0]
        stop = {"id": "s", "object": "chat.completion", "created": 0, "model": "m",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": ""}}]}  # fmt: skip
        replies = [Reply(200, exchange["body"].encode()), Reply(200, json.dumps(stop).encode())]
        model = FakeModel(lambda call: "", replies=replies)
        session = Session.start(load_scenarios(scenario_file)[0])
        with fake_openai_server(model) as url:
            endpoint = endpoint_for("openai:m", url, settings=RequestSettings(max_retries=0))
            outcome = run_agent(session, OpenAIDiagnoser(endpoint))
        calls = choice["message"].get("tool_calls") or []
        actions = outcome.evidence.actions
        assert [a.tool for a in actions] == [c["function"]["name"] for c in calls]
        for action, call in zip(actions, calls, strict=True):
            refused = action.error_code == "invalid_arguments" and set(action.arguments) == {
                UNRECORDABLE_ARGUMENTS
            }
            assert refused == (not _is_object(call["function"]["arguments"]))
        cut = 1 if choice["finish_reason"] == "length" else 0
        assert outcome.evidence.metadata.truncated_turns == cut
