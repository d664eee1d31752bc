"""An MCP agent run sealed: `si run --agent-cmd COMMAND --agent-protocol mcp` starts the program
in the sandbox and serves it the si serve tools over its own stdin/stdout (docs/si-agents.md).
It is the sealed road for MCP agents: `si serve`'s client could read the scenario file, this
one cannot, and its verdict says `sealed: true`."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.test_si_sealed import DOC, si_run

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]  # slow: not in make check

MCP = ("--agent-protocol", "mcp")

# An MCP client over its own stdio that reads a file first (the scenario, in the attack), then
# lists the pods and submits what it found.
READER = textwrap.dedent(
    """
    import sys
    import anyio
    from mcp import ClientSession
    from mcp.server.stdio import stdio_server

    async def main():
        try:
            found = open(sys.argv[1], encoding="utf-8").read()
        except OSError as error:
            found = f"could not read it: {type(error).__name__}"
        async with stdio_server() as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("orchestration_list", {"kind": "pod"})
            await session.call_tool("submit_answer", {"final_answer": found})

    anyio.run(main)
    """
)


def _verdict(tmp_path: Path) -> dict[str, Any]:
    return json.loads((tmp_path / "out" / "verdict.json").read_text())  # type: ignore[no-any-return]


def test_the_documented_mcp_agent_runs_sealed(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    [program] = [block for block in blocks if "ClientSession(read, write)" in block]
    (tmp_path / "my_agent.py").write_text(program, encoding="utf-8")
    command = f"python3 {tmp_path / 'my_agent.py'}"
    result, evidence = si_run(tmp_path, "--agent-cmd", command, extra=MCP)
    assert result.returncode == 0, result.stderr
    assert evidence["final_answer"].startswith("Pods:\n")
    assert [action["tool"] for action in evidence["actions"]] == ["orchestration_list"]
    assert evidence["metadata"]["agent_name"] == "external"
    assert evidence["metadata"]["agent_isolation"]["mode"] == "sandbox"
    assert _verdict(tmp_path)["sealed"] is True


def test_a_sealed_mcp_agent_cannot_read_the_scenario(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # shown whole: not a folder its owner keeps to itself
    (tmp_path / "agent.py").write_text(READER, encoding="utf-8")
    scenario = tmp_path / "scenario.yaml"  # where si_run writes the fixture it runs
    command = f"python3 {tmp_path / 'agent.py'} {scenario}"
    result, evidence = si_run(tmp_path, "--agent-cmd", command, extra=MCP)
    assert result.returncode == 0, result.stderr
    assert scenario.is_file()  # it is there, outside the sandbox ...
    assert evidence["final_answer"].startswith("could not read it: ")  # ... and hidden inside
    assert [action["tool"] for action in evidence["actions"]] == ["orchestration_list"]
    verdict = _verdict(tmp_path)
    assert verdict["sealed"] is True and verdict["score"] == 0.0


@pytest.mark.parametrize(
    ("program", "ending", "timeout"),
    [
        ("pass", "AgentChannelLost", "60"),  # exits without a word
        ("print('x' * 17_000_000, flush=True)", "a line of over", "60"),
        ("import time; time.sleep(30)", "within its time limit", "3"),
    ],
)
def test_an_mcp_agent_without_an_answer_is_the_agents_error(
    tmp_path: Path, program: str, ending: str, timeout: str
) -> None:
    (tmp_path / "agent.py").write_text(program + "\n", encoding="utf-8")
    command = f"python3 {tmp_path / 'agent.py'}"
    extra = (*MCP, "--agent-timeout", timeout)
    result, evidence = si_run(tmp_path, "--agent-cmd", command, extra=extra)
    assert result.returncode == 0, result.stderr
    assert "agent_error: " in result.stdout and ending in result.stdout, result.stdout
    assert evidence["final_answer"] == ""


def test_the_tool_call_cap_holds_for_an_mcp_agent(tmp_path: Path) -> None:
    program = textwrap.dedent(
        """
        import anyio
        from mcp import ClientSession
        from mcp.server.stdio import stdio_server

        async def main():
            async with stdio_server() as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                while True:
                    await session.call_tool("orchestration_list", {"kind": "pod"})

        anyio.run(main)
        """
    )
    (tmp_path / "agent.py").write_text(program, encoding="utf-8")
    command = f"python3 {tmp_path / 'agent.py'}"
    result, evidence = si_run(
        tmp_path, "--agent-cmd", command, extra=(*MCP, "--max-tool-calls", "3")
    )
    assert result.returncode == 0, result.stderr
    assert "tool_call_cap" in result.stdout
    assert len(evidence["actions"]) == 3 and evidence["final_answer"] == ""


def test_the_protocol_goes_with_agent_cmd_only(tmp_path: Path) -> None:
    result, _ = si_run(tmp_path, "--agent", "noop", extra=MCP)
    assert result.returncode == 2 and "--agent-protocol" in result.stderr
    assert not (tmp_path / "out").exists()


# An MCP client that sends a value only where the server refuses it: a prompt's name and a
# submission refused for its type (SI red team 16, H5), then a clean answer.
REFUSED = textwrap.dedent(
    """
    import anyio
    from mcp import ClientSession
    from mcp.server.stdio import stdio_server

    async def main():
        async with stdio_server() as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            try:
                await session.get_prompt("the-prompt-named-x")
            except Exception:
                pass
            await session.call_tool("submit_answer", {"final_answer": 5, "reasoning_trace": "y"})
            await session.call_tool("submit_answer", {"final_answer": "done"})

    anyio.run(main)
    """
)


def test_what_a_sealed_mcp_agent_sent_in_refused_messages_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "refused.py").write_text(REFUSED, encoding="utf-8")
    command = f"python3 {tmp_path / 'refused.py'}"
    result, evidence = si_run(tmp_path, "--agent-cmd", command, extra=MCP)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert [(a["tool"], a["arguments"]) for a in evidence["actions"]] == [
        ("prompts/get", {"name": "the-prompt-named-x", "arguments": {}}),
        ("submit_answer", {"final_answer": 5, "reasoning_trace": "y"}),
    ]
    assert evidence["final_answer"] == "done"
