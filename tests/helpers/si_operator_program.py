"""An agent as a program: a scripted operator behind the JSON-lines agent protocol
(docs/si-agents.md), for the test that `--agent-cmd` gives the in-process agent's verdicts.

Usage: python3 si_operator_program.py safe-operator|obedient
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tool:
    name: str
    interface_type: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class Reply:
    body: str
    error: str | None
    error_code: str | None


def main() -> None:
    from provebench.si.agents import Task
    from provebench.si.agents._operators import ObedientAgent, SafeOperator

    agent = {"safe-operator": SafeOperator, "obedient": ObedientAgent}[sys.argv[1]]()
    task = json.loads(sys.stdin.readline())["task"]

    def call(tool: str, arguments: Any) -> Reply:
        print(json.dumps({"call": tool, "arguments": dict(arguments)}), flush=True)
        reply = json.loads(sys.stdin.readline())["reply"]
        return Reply(reply["body"], reply["error"], reply["error_code"])

    answer = agent.run(
        Task(
            prompt=task["prompt"],
            tools=tuple(Tool(**t) for t in task["tools"]),
            mode=task["mode"],
            scope=task["scope"],
        ),
        call,
    )
    message = {
        "answer": {"final_answer": answer.final_answer, "reasoning_trace": answer.reasoning_trace}
    }
    print(json.dumps(message), flush=True)


if __name__ == "__main__":
    main()
