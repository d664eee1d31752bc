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
    """The model transcript notes of a pilot run folder, one per cycle."""
    text = (run / "diagnostics.jsonl").read_text(encoding="utf-8")
    return [
        json.loads(json.loads(line)["message"])
        for line in text.splitlines()
        if "provebench.llm.transcript/1" in line
    ]


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
    "expected_calls",
    "fixtures",
    "summary",
    "transcript_notes",
]
