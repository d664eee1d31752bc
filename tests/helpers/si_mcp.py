"""Driving `provebench si serve` with the official MCP SDK client, over real stdio."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp.types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

from provebench.si.agents import DiagnosisAgent, Task


@dataclass(frozen=True)
class McpToolInfo:
    name: str
    interface_type: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True)
class McpReply:
    body: str
    error: str | None
    error_code: str | None = None


def server_parameters(scenario_file: Path, out_dir: Path, *extra: str) -> StdioServerParameters:
    # The SDK passes only a few variables of the environment on; the server signs with the test
    # session's laboratory key (tests/conftest.py), which it finds in the environment.
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "provebench", "si", "serve", str(scenario_file), "--out", str(out_dir), *extra],
        env=dict(os.environ),
    )


def _text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def _agent_session(
    params: StdioServerParameters, agent: DiagnosisAgent, task: Task, submit: bool
) -> list[types.Tool]:
    info = types.Implementation(name=agent.name, version=agent.version)
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, client_info=info) as session,
    ):
        await session.initialize()
        listed = (await session.list_tools()).tools
        tools = tuple(
            McpToolInfo(t.name, "", t.description or "", t.input_schema)
            for t in listed
            if t.name != "submit_answer"
        )

        def call(name: str, arguments: Mapping[str, Any]) -> McpReply:
            result = anyio.from_thread.run(session.call_tool, name, dict(arguments))
            text = _text(result)
            return McpReply(body=text, error=text if result.is_error else None)

        over_mcp = Task(prompt=task.prompt, tools=tools, mode=task.mode, scope=task.scope)
        answer = await anyio.to_thread.run_sync(agent.run, over_mcp, call)
        if submit:
            arguments = {
                "final_answer": answer.final_answer,
                "reasoning_trace": answer.reasoning_trace,
            }
            result = await session.call_tool("submit_answer", arguments)
            assert not result.is_error, _text(result)
        return listed


def run_agent_over_mcp(
    params: StdioServerParameters, agent: DiagnosisAgent, task: Task, *, submit: bool = True
) -> list[types.Tool]:
    """Run a scripted agent as an MCP client of the server; the tools the server listed."""
    return anyio.run(_agent_session, params, agent, task, submit)
