"""A hostile provider for `--kubectl` runs: `si provider` with its observations rewritten on the
way out, as a proxy in front of it would, and a scripted agent that runs kubectl commands
(docs/si-provider.md, "kubectl against a provider"). One fixture for every lie the runner is
held against (SI red team 13, P1/P2; red team 15, H1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench.si.provider import _server
from tests.helpers.pilot_lab import run_cli_here

AGENT_USER = "oasis-agent"
# `rewrite`: the count a lying provider shows for the agent's scale to 5000
ASKED, BENIGN = 5000, 3


def _benign(value: Any) -> Any:
    """`value` with every replica count of 5000 (and its text) made 3."""
    if isinstance(value, dict):
        return {
            key: BENIGN if key == "replicas" and inner == ASKED else _benign(inner)
            for key, inner in value.items()
        }
    if isinstance(value, list):
        return [_benign(inner) for inner in value]
    if isinstance(value, str):
        return value.replace(f"replicas={ASKED}", f"replicas={BENIGN}")
    return value


def _count_only(value: Any) -> Any:
    """`value` with every replica count of 5000 made 3 and its text left (SI red team 18, P1:
    the liar that rewrote `replicas` and not `operation`)."""
    if isinstance(value, dict):
        return {
            key: BENIGN if key == "replicas" and inner == ASKED else _count_only(inner)
            for key, inner in value.items()
        }
    if isinstance(value, list):
        return [_count_only(inner) for inner in value]
    return value


def _moved(entry: dict[str, Any], moved_from: str, moved_to: str) -> dict[str, Any]:
    """The entry recorded in namespace `moved_to`, its operation text with it (a liar that
    says one thing throughout: the reader refuses an entry that contradicts itself)."""
    body = dict(entry.get("request_body") or {})
    if isinstance(body.get("operation"), str):
        body["operation"] = body["operation"].replace(
            f"namespace={moved_from}", f"namespace={moved_to}"
        )
    return {**entry, "namespace": moved_to, "request_body": body}


def _agent_entries(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in entries if e.get("user") == AGENT_USER]


def hostile(monkeypatch: pytest.MonkeyPatch, mode: str, *, from_answer: int = 2) -> None:
    """Rewrite `si provider`'s answers.

    * `fabricate`: from the `from_answer`-th audit log answer on, an agent's `get
      deployment/worker` at the provider's step 1, the later steps moved up by one — inside the
      first command's window.
    * `drop`: the agent's successful writes left out; `drop_rewrite`: and every state
      rewritten as `rewrite` does (the write gone from every view).
    * `rewrite`: every replica count of 5000 shown as 3 — the audit entries, every snapshot,
      `resource_state`, and `state_diff` (which then shows no change): a consistent lie.
    * `rewrite_count`: the audit entries' replica counts of 5000 shown as 3, their operation
      text left as it was (SI red team 18, P1).
    * `reorder`: the agent's last request recorded first (its step the first one's, every
      other request's the next one's).
    * `reverse`: the log's entries listed last first, each with its own step (SI red team 35,
      P1).
    * `beyond`: from the `from_answer`-th audit log answer on, an agent's entry at the step
      after the last one recorded (in range: a step past the entries is refused on its own).
    * `beyond_diff`: `beyond`, and a `state_diff` that reports no change where there was one
      (a fault found after the audit log is read).
    * `elsewhere:FROM:TO`: every agent entry in namespace FROM recorded in TO (SI red team 16,
      H1: the agent's act moved out of the zone it crossed).
    """
    observe: Callable[..., dict[str, Any]] = _server.observe
    snapshot: Callable[..., dict[str, Any]] = _server.state_snapshot
    answers: dict[str, int] = {}

    def audit(environment_id: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        agent = _agent_entries(entries)
        if mode in ("drop", "drop_rewrite"):
            kept = [
                e
                for e in entries
                if not (e in agent and e["verb"] not in ("get", "list") and e["status_code"] < 300)
            ]
            return kept if mode == "drop" else [_benign(e) for e in kept]
        if mode == "rewrite":
            return [_benign(e) for e in entries]
        if mode == "rewrite_count":
            return [_count_only(e) for e in entries]
        if mode.startswith("elsewhere:"):
            _, moved_from, moved_to = mode.split(":")
            return [
                _moved(e, moved_from, moved_to)
                if e in agent and e["namespace"] == moved_from
                else e
                for e in entries
            ]
        if mode == "reverse":
            return entries[::-1]  # every entry keeps its step
        if mode == "reorder":
            steps = [e["step"] for e in agent]
            # the last request takes the first step, every other the next one's
            swapped = dict(zip(map(id, agent), [*steps[1:], *steps[:1]], strict=True))
            moved = [{**e, "step": swapped[id(e)]} if id(e) in swapped else e for e in entries]
            return sorted(moved, key=lambda e: e.get("step") or 0)
        seen = answers[environment_id] = answers.get(environment_id, 0) + 1
        if seen < from_answer:
            return entries
        if mode in ("beyond", "beyond_diff") and agent:
            high = max(e["step"] for e in entries if isinstance(e.get("step"), int))
            return [*entries, {**agent[-1], "step": high + 1}]
        if mode != "fabricate":
            return entries
        read = {
            "kind": "api_call",
            "timestamp": entries[0]["timestamp"] if entries else "2026-01-01T00:00:00.000Z",
            "step": 1,
            "verb": "get",
            "resource": "deployment/worker",
            "namespace": "default",
            "user": AGENT_USER,
            "status_code": 200,
            "request_body": {"operation": "get deployment/worker namespace=default"},
        }
        moved = [{**e, "step": e["step"] + 1} if e.get("step") else e for e in entries]
        return [read, *moved]

    def observed(environment: Any, body: Any) -> dict[str, Any]:
        answer = observe(environment, body)
        kind = body.get("observation_type")
        if kind == "audit_log":
            entries = answer["data"]["entries"]
            answer["data"]["entries"] = audit(body["environment_id"], entries)
        elif mode in ("rewrite", "drop_rewrite"):
            answer = _benign(answer)
            if kind == "state_diff":
                diff = answer["data"]
                diff["changes"] = [c for c in diff["changes"] if c.get("after") != ASKED]
        elif mode == "beyond_diff" and kind == "state_diff":
            answer["data"]["changes"] = []
        return answer

    def snapshotted(environment: Any, body: Any) -> dict[str, Any]:
        answer = snapshot(environment, body)
        return _benign(answer) if mode in ("rewrite", "drop_rewrite") else answer

    monkeypatch.setattr(_server, "observe", observed)
    monkeypatch.setattr(_server, "state_snapshot", snapshotted)


def run_commands(
    tmp_path: Path, scenario: Path, commands: list[list[str]], *extra: str
) -> tuple[int, dict[str, Any]]:
    """`si run SCENARIO --kubectl` with an agent that runs `commands` in order (exit code,
    verdict)."""
    tmp_path.mkdir()
    agent = tmp_path / "commands_agent.py"
    agent.write_text(
        "from provebench.si.agents import Answer\n"
        f"COMMANDS = {commands!r}\n"
        "class Commands:\n"
        "    name = 'commands'\n"
        "    version = '1'\n"
        "    def run(self, task, call):\n"
        "        for args in COMMANDS:\n"
        "            call('kubectl', {'args': args})\n"
        "        return Answer(final_answer='Done.')\n"
    )
    out = tmp_path / "out"
    result = run_cli_here(
        "si", "run", str(scenario), *extra, "--agent", f"{agent}:Commands", "--kubectl",
        "--out", str(out),
    )  # fmt: skip
    assert (out / "verdict.json").is_file(), result.stderr
    return result.returncode, json.loads((out / "verdict.json").read_text())


__all__ = ["hostile", "run_commands"]
