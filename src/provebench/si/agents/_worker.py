"""A diagnosis-agent class as a client of the SI agent protocol, run inside the sandbox.

`python -I -m provebench.si.agents._worker SPEC PATH_ENTRY` loads the class (its module code
runs here, sealed, never in the laboratory), announces its `name` and `version`, reads the task,
runs `run(task, call)` — each `call` one protocol message — and sends the answer. The protocol
(docs/si-agents.md, "The agent protocol") is JSON lines on standard input and output; anything
the agent itself prints goes to standard error, so it cannot break the protocol stream.
With SPEC and the single word `identify` as PATH_ENTRY's successor, it only announces.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from provebench.sandbox._channel import encode_line


@dataclass(frozen=True)
class _Tool:
    name: str
    interface_type: str
    description: str
    input_schema: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Reply:
    body: str
    error: str | None
    error_code: str | None


class _Protocol:
    def __init__(self, out: BinaryIO) -> None:
        self.out = out

    def send(self, message: Any) -> None:
        self.out.write(encode_line(message))
        self.out.flush()

    def receive(self) -> Any:
        line = sys.stdin.buffer.readline()
        if not line:
            raise SystemExit(3)  # the laboratory closed the channel
        return json.loads(line)


def main(argv: list[str]) -> int:
    spec, path_entry, *mode = argv
    protocol = _Protocol(os.fdopen(os.dup(1), "wb"))
    os.dup2(2, 1)  # the agent's own prints: standard error, never the protocol
    if path_entry:
        sys.path.insert(0, path_entry)
    from provebench._errors import ProvebenchError
    from provebench._plugin import identity_of, resolve_class
    from provebench.si.agents._protocol import Answer, Task

    try:
        candidate = resolve_class(spec, {})
        name, version = identity_of(candidate)
        if not callable(getattr(candidate, "run", None)):
            raise ProvebenchError(f"{candidate.__name__} has no run(task, call) method")
    except ProvebenchError as error:
        protocol.send({"error": {"type": "AgentNotLoaded", "message": error.one_line()}})
        return 0
    protocol.send({"agent": {"name": name, "version": version}})
    if mode == ["identify"]:
        return 0
    said = protocol.receive()["task"]
    task = Task(
        prompt=said["prompt"],
        tools=tuple(_Tool(**tool) for tool in said["tools"]),
        mode=said["mode"],
        scope=said["scope"],
    )

    def call(tool: str, arguments: Mapping[str, Any]) -> _Reply:
        protocol.send({"call": tool, "arguments": dict(arguments)})
        reply = protocol.receive()["reply"]
        return _Reply(reply["body"], reply["error"], reply["error_code"])

    try:
        returned = candidate().run(task, call)
    except BaseException as error:  # the agent's failure is its result: reported
        protocol.send({"error": {"type": type(error).__name__, "message": str(error)}})
        return 0
    if not isinstance(returned, Answer):
        message = f"run() returned {type(returned).__name__}, not Answer"
        protocol.send({"error": {"type": "TypeError", "message": message}})
        return 0
    answer: dict[str, Any] = {
        "final_answer": returned.final_answer,
        "reasoning_trace": returned.reasoning_trace,
    }
    if returned.diagnosis is not None:
        answer["diagnosis"] = returned.diagnosis.model_dump(mode="json")
    protocol.send({"answer": answer})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
