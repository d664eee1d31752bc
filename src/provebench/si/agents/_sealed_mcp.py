"""An MCP agent run sealed: `si run --agent-cmd COMMAND --agent-protocol mcp` (docs/si-agents.md).

`si serve` is unsealed by design: the operator's MCP host starts the agent, and nothing keeps it
from the scenario file (its answer key). Here provebench starts the agent program itself, in the
sandbox (docs/sandbox.md), and serves it the same MCP server as `si serve` — the simulator's
tools and `submit_answer` — over the program's own standard input and output: the program is an
MCP client whose transport is its stdio (with the official SDK, `ClientSession` over the streams
of `mcp.server.stdio.stdio_server()`). Its standard error is relayed, at most 1 MiB, and
recorded in the evidence (`agent_stderr`), where every containment check searches it.

Each tool call is one call of the runner's `call` function, so the tool-call cap and the
simulator's recording apply unchanged; `submit_answer` is the run's answer and ends the run. A
program that exits or closes its output without submitting, sends a line over
`MAX_LINE_BYTES`, or reaches the time limit ends the run as its agent_error, with no answer.
Its identity is `external` and a digest of the command as written, as for the JSON-lines
protocol; the `clientInfo` it sends is no identity (a candidate's account of itself). Every
message it sends, notifications and `_meta` included, is recorded in the evidence
(`agent_messages`, at most 1 MiB; past that the channel is closed), where every containment
check searches it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from provebench._mcp_face import MAX_RECORDED_BYTES, ClientMessages
from provebench.evidence._cuts import ChannelCut, messages_cut
from provebench.sandbox import DEFAULT_LIMITS, Limits, SandboxPolicy
from provebench.sandbox._channel import MAX_LINE_BYTES, CandidateFailed
from provebench.sandbox._isolation import isolation_of
from provebench.sandbox._launch import MAX_OUTPUT_BYTES, SandboxProcess, sandbox_process
from provebench.sandbox._policy import SANDBOX_ENV
from provebench.sandbox._private import private_folder
from provebench.sandbox._relayed import RelayedOutput
from provebench.si.agents._protocol import Answer, CallTool, Task
from provebench.si.agents._sealed import (
    DEFAULT_AGENT_TIMEOUT_SEC,
    CapturedStderr,
    LoadedSealedAgent,
    sealed_command,
)

# How often the server looks whether the run has ended (an answer, a stop, a closed channel).
_POLL_SEC = 0.02


@dataclass
class _McpRun:
    """One sealed MCP run's state: the answer once submitted, or why it stopped."""

    call: CallTool
    answer: Answer | None = None
    stopped: BaseException | None = None  # the runner's stop (the cap), re-raised in its thread
    closed: str | None = None  # the channel ended (EOF, an oversized line) before an answer
    line_cut: bool = False  # it ended at a line over MAX_LINE_BYTES, unread and unrecorded
    ended: bool = field(default=False)
    messages: ClientMessages = field(default_factory=ClientMessages)

    def call_tool(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        from provebench.si.agents._serve import SUBMIT_ANSWER
        from provebench.si.agents._submission import submission_of

        if self.ended:
            return "the run has ended", True
        if name == SUBMIT_ANSWER:
            submitted = submission_of(arguments)
            if isinstance(submitted, str):
                # Recorded as a step, its arguments searched (`_serve.ServeRun._submit`).
                text, _ = self._forwarded(name, arguments)
                return (text if self.ended else submitted), True
            self.answer = Answer(
                final_answer=submitted.final_answer,
                reasoning_trace=submitted.reasoning_trace,
                diagnosis=submitted.diagnosis,
            )
            self.ended = True
            return "answer recorded; the run has ended", False
        return self._forwarded(name, arguments)

    def _forwarded(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        try:
            reply = self.call(name, arguments)
        except BaseException as stop:  # the cap's stop is a BaseException by design
            self.stopped, self.ended = stop, True
            return "the run has ended", True
        if reply.error is None:
            return reply.body, False
        return reply.body or reply.error, True


class _BoundedLines:
    """The program's output, read a line at a time, never more than `MAX_LINE_BYTES` a line: a
    candidate that never ends a line cannot fill the laboratory's memory."""

    def __init__(self, pipe: IO[bytes], run: _McpRun) -> None:
        self.pipe = pipe
        self.run = run

    def readline(self) -> str:
        line = self.pipe.readline(MAX_LINE_BYTES + 1)
        if len(line) > MAX_LINE_BYTES:
            self.run.closed = f"a line of over {MAX_LINE_BYTES} bytes"
            self.run.line_cut = True
            return ""  # the end of the channel: the run ends with no answer
        return line.decode("utf-8", errors="replace")


class _Lines:
    def __init__(self, pipe: IO[bytes]) -> None:
        self.pipe = pipe

    def write(self, text: str) -> None:
        with contextlib.suppress(OSError):  # a program that closed its input has left
            self.pipe.write(text.encode("utf-8"))

    def flush(self) -> None:
        with contextlib.suppress(OSError):
            self.pipe.flush()


async def _serve(run: _McpRun, task: Task, process: SandboxProcess, timeout_sec: float) -> None:
    import anyio

    from provebench._mcp_face import FaceTool, McpFace, serve_face
    from provebench.si.agents._openai import task_text
    from provebench.si.agents._serve import (
        REFUSED_PROMPT,
        SERVER_NAME,
        SUBMIT_ANSWER,
        SUBMIT_ANSWER_SCHEMA,
        TASK_PROMPT,
    )

    assert process.stdin is not None and process.stdout is not None
    tools = [FaceTool(t.name, t.description, t.input_schema) for t in task.tools]
    submit = "Submit your final answer; this ends the run."
    tools.append(FaceTool(SUBMIT_ANSWER, submit, SUBMIT_ANSWER_SCHEMA))
    face = McpFace(
        server_name=SERVER_NAME,
        instructions=task_text(task.prompt, task.mode, task.scope),
        prompt_name=TASK_PROMPT,
        prompt_description="The operator's task.",
        tools=tools,
        call=run.call_tool,
        refused_prompt_tool=REFUSED_PROMPT,
        on_identity=lambda name, version: None,
        messages=run.messages,
    )
    reader = _BoundedLines(process.stdout, run)
    writer = anyio.wrap_file(_Lines(process.stdin))  # type: ignore[arg-type]

    async def serve() -> None:
        try:
            await serve_face(face, reader, writer)
        finally:
            if run.messages.over:
                run.closed = run.closed or f"over {MAX_RECORDED_BYTES} bytes of MCP messages"
            run.closed = run.closed or "the agent closed its output without an answer"

    async with anyio.create_task_group() as group:
        group.start_soon(serve)
        with anyio.move_on_after(timeout_sec):
            while not run.ended and run.closed is None:
                await anyio.sleep(_POLL_SEC)
            await anyio.sleep(_POLL_SEC)  # the last reply goes out before the program is ended
        if not run.ended and run.closed is None:
            run.closed = "no answer from the agent within its time limit"
        # Ended before the server is cancelled: a reader blocked on the program's output in a
        # worker thread returns only when the output closes.
        _end(process)
        group.cancel_scope.cancel()


def _end(process: SandboxProcess) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.popen.pid, signal.SIGKILL)


class SealedMcpAgent(CapturedStderr):
    """A `DiagnosisAgent` whose `run` is an MCP session with a program in the sandbox."""

    def __init__(
        self, name: str, version: str, policy: SandboxPolicy, argv: list[str], timeout_sec: float
    ) -> None:
        self.name = name
        self.version = version
        self._policy = policy
        self._argv = argv
        self._timeout_sec = timeout_sec
        self.stderr = RelayedOutput(MAX_OUTPUT_BYTES)
        self.message_cuts = []
        self.messages: list[str] = []

    def sent_messages(self) -> list[str]:
        return list(self.messages)

    def run(self, task: Task, call: CallTool) -> Answer:
        import anyio

        self.stderr = RelayedOutput(MAX_OUTPUT_BYTES)
        self.message_cuts = []
        run = _McpRun(call)
        self.messages = run.messages.texts  # the last run's, kept for its evidence (`_run`)
        private = private_folder("agent")
        (private / "work").mkdir()
        try:
            with sandbox_process(
                self._policy,
                self._argv,
                private_dir=private,
                env=SANDBOX_ENV,
                protocol_stdio=True,
                carried=False,  # an SI run carries nothing to another (red team 43, G2-1)
                captured=self.stderr,
            ) as process:
                try:
                    anyio.run(_serve, run, task, process, self._timeout_sec)
                except Exception as error:  # the transport broke under the program's output
                    run.closed = run.closed or f"the MCP channel failed: {error}"
                finally:
                    _end(process)
        finally:
            shutil.rmtree(private, ignore_errors=True)
        self.message_cuts = _messages_cut(run)
        if run.stopped is not None:
            raise run.stopped
        if run.answer is None:
            raise CandidateFailed("AgentChannelLost", run.closed or "no answer")
        return run.answer


def _messages_cut(run: _McpRun) -> list[ChannelCut]:
    """The cut of the run's MCP messages, if any: the message that would pass
    `MAX_RECORDED_BYTES`, or a line over `MAX_LINE_BYTES`; either closes the channel."""
    if run.line_cut:
        # read to its first MAX_LINE_BYTES + 1 bytes, none recorded
        cut = messages_cut(MAX_LINE_BYTES, MAX_LINE_BYTES + 1)
    else:
        cut = messages_cut(run.messages.limit, run.messages.dropped_bytes)
    return [cut] if cut is not None else []


def sealed_mcp_command_agent(
    command: str,
    *,
    secrets: Mapping[str, Path],
    timeout_sec: float = DEFAULT_AGENT_TIMEOUT_SEC,
    limits: Limits = DEFAULT_LIMITS,
    resources: contextlib.ExitStack | None = None,
) -> LoadedSealedAgent:
    """`--agent-cmd COMMAND --agent-protocol mcp`: an MCP client program, sealed."""
    argv, policy, version = sealed_command(
        command, secrets=secrets, limits=limits, resources=resources
    )
    agent = SealedMcpAgent("external", version, policy, argv, timeout_sec)
    return LoadedSealedAgent(
        spec=f"mcp-cmd:{command}",
        name="external",
        version=version,
        isolation=isolation_of(policy.digest()),
        agent=agent,
    )


__all__ = ["SealedMcpAgent", "sealed_mcp_command_agent"]
