"""`provebench pilot serve --mcp`: the call-import laboratory as an MCP server over stdio.

An LLM agent behind any MCP client imports through the laboratory's tools (`_tools.py`: list
files, get a file, read confirmed ids, append rows, report, finish the cycle). The run is the
ordinary crash-safe runner (`execute_run`) in a thread of its own, with an importer whose cycle
stays open until the agent calls `finish_cycle`; every call goes through the cycle's facades, so
the gateway logs it before it is answered, exactly as for any other importer, and
`pilot evaluate` judges the run folder the same way.

The task reaches the agent three ways, because clients differ in what they show the model: the
server's `instructions` (the agent contract), the `agent-contract` resource, and the
`import-cycle` prompt. The run starts at the agent's first tool call, so the identity its client
declares is known by then; `--agent-name` overrides it. A client that leaves before the last
cycle is finished leaves the open cycle uncommitted (as after a crash): the same command resumes.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Final

from provebench._session_options import AgentIdentity
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.agents._tools import (
    FINISH_CYCLE,
    TOOLS,
    ToolAnswer,
    call_tool,
    cycle_prompt,
)
from provebench.pilot.lab import CycleContext
from provebench.pilot.lab._runner import LabCorpus, RunOutcome, execute_run
from provebench.sandbox._isolation import UNSANDBOXED_MCP

SERVER_NAME: Final = "provebench-pilot"
CONTRACT_URI: Final = "provebench://pilot/agent-contract"
CYCLE_PROMPT: Final = "import-cycle"
MCP_AGENT_SPEC: Final = "mcp"
DEFAULT_AGENT_NAME: Final = "mcp-client"
_POLL_SEC: Final = 0.1


class SessionEnded(KeyboardInterrupt):
    """Raised out of an open cycle when the client leaves: not an importer error, so the runner
    does not commit the cycle (a KeyboardInterrupt is not caught as agent_error)."""


@dataclass
class CycleDesk:
    """Where the runner's thread hands each open cycle to the server, one at a time."""

    condition: threading.Condition = field(default_factory=threading.Condition)
    ctx: CycleContext | None = None
    cycles_opened: int = 0
    finish_asked: bool = False
    done: bool = False
    failure: str | None = None
    outcome: RunOutcome | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    # -- the runner's side -------------------------------------------------------------------
    def serve_cycle(self, ctx: CycleContext) -> None:
        with self.condition:
            self.ctx, self.finish_asked = ctx, False
            self.cycles_opened += 1
            self.condition.notify_all()
            try:
                while not self.finish_asked:
                    if self.stop.is_set():
                        raise SessionEnded
                    self.condition.wait(_POLL_SEC)
            finally:
                self.ctx = None

    def end(self, outcome: RunOutcome | None, failure: str | None) -> None:
        with self.condition:
            self.done, self.outcome, self.failure = True, outcome, failure
            self.condition.notify_all()

    def start_run(
        self,
        corpus: LabCorpus,
        agent: LoadedAgent,
        run_dir: Path,
        *,
        name: str,
        stopped: str | None = None,
    ) -> threading.Thread:
        """Run the laboratory in a thread of its own, each cycle handed to this desk; when it
        ends, the desk holds its outcome, or its failure (`stopped` when the driver left before
        the last cycle: not the importer's error, the open cycle not committed)."""

        def run() -> None:
            try:
                outcome = execute_run(corpus, agent, run_dir)
            except SessionEnded:
                self.end(None, stopped)
            except Exception as error:  # reported to the model and to the operator
                self.end(None, str(error) or type(error).__name__)
            else:
                self.end(outcome, None)

        thread = threading.Thread(target=run, name=name, daemon=True)
        thread.start()
        return thread

    # -- the server's side (called from a worker thread, never the event loop) ----------------
    def next_cycle(self) -> CycleContext | None:
        """The open cycle, once the runner has opened it; None when the run has ended."""
        with self.condition:
            return self._open_cycle()

    def call(self, name: str, arguments: Mapping[str, Any]) -> ToolAnswer:
        with self.condition:
            ctx = self._open_cycle()
            if ctx is None:
                return self._ended()
            if name != FINISH_CYCLE:
                return call_tool(ctx, name, arguments)
            if arguments:
                return ToolAnswer(f"Error: invalid_argument: {FINISH_CYCLE} takes none", True)
            opened = self.cycles_opened
            self.finish_asked = True
            self.condition.notify_all()
            while not self.done and (self.ctx is None or self.cycles_opened == opened):
                self.condition.wait(_POLL_SEC)
            if self.done:
                return self._ended()
            assert self.ctx is not None
            return ToolAnswer(f"Cycle finished; rows confirmed. {cycle_prompt(self.ctx)}")

    def _open_cycle(self) -> CycleContext | None:
        while self.ctx is None and not self.done:
            self.condition.wait(_POLL_SEC)
        return self.ctx

    def _ended(self) -> ToolAnswer:
        if self.failure is not None:
            return ToolAnswer(f"Error: the run stopped: {self.failure}", True)
        return ToolAnswer("The run is complete: every cycle is finished. Stop now.")


class DeskImporter:
    """The runner's importer for a model driven from outside the runner's thread: each cycle is
    handed to the desk and stays open until the model finishes it."""

    name: ClassVar[str] = "mcp"
    version: ClassVar[str] = "1"

    def __init__(self, desk: CycleDesk) -> None:
        self.desk = desk

    def run_cycle(self, ctx: CycleContext) -> None:
        self.desk.serve_cycle(ctx)


@dataclass
class PilotServe:
    """One served run: the corpus, the run folder, the agent's identity, the runner's thread."""

    corpus: LabCorpus
    run_dir: Path
    contract: str
    identity: AgentIdentity = field(default_factory=lambda: AgentIdentity(DEFAULT_AGENT_NAME))
    desk: CycleDesk = field(default_factory=CycleDesk)
    thread: threading.Thread | None = None

    def take_client_identity(self, name: object, version: object) -> None:
        # The run's identity is fixed when the run starts (run.json, the signed log).
        if self.thread is None:
            self.identity.take_client_info(name, version)

    def agent(self) -> LoadedAgent:
        # Where the identity came from, in the run's identity (run.json, the signed log).
        source = {"declared": ":declared", "mcp_client_info": ":mcp-client-info", None: ""}
        return LoadedAgent(
            spec=f"{MCP_AGENT_SPEC}{source[self.identity.source]}",
            name=self.identity.name,
            version=self.identity.version or "unknown",
            factory=lambda: DeskImporter(self.desk),
            isolation=dict(UNSANDBOXED_MCP),
            code_sha256="",  # an MCP client: provebench never sees its code
        )

    def start(self) -> None:
        """Start the run (at the first tool call): the runner's thread opens the first cycle."""
        if self.thread is not None:
            return
        self.thread = self.desk.start_run(
            self.corpus, self.agent(), self.run_dir, name="provebench-pilot-run"
        )

    def call(self, name: str, arguments: Mapping[str, Any]) -> ToolAnswer:
        self.start()
        return self.desk.call(name, arguments)

    def close(self) -> None:
        """The client left: an open cycle is not committed; wait for the runner to stop."""
        self.desk.stop.set()
        if self.thread is not None:
            self.thread.join()

    def instructions(self) -> str:
        return (
            "You are the importer of a call-recording register. Each cycle, bring every new "
            "recording from the Drive into the working sheet exactly once, with the tools, as "
            f"the agent contract below says; report on the diagnostics channel; then call "
            f"{FINISH_CYCLE}. Repeat until the run is complete.\n\n{self.contract}"
        )


async def serve_stdio(serve: PilotServe) -> None:
    """Serve `serve` over this process's stdin/stdout until the client disconnects."""
    from provebench._mcp_face import FaceResource, FaceTool, McpFace, serve_face_stdio

    def call(name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        answer = serve.call(name, arguments)
        return answer.text, answer.is_error

    face = McpFace(
        server_name=SERVER_NAME,
        instructions=serve.instructions(),
        prompt_name=CYCLE_PROMPT,
        prompt_description="The importer's task.",
        tools=[FaceTool(t.name, t.description, t.input_schema) for t in TOOLS],
        call=call,
        on_identity=serve.take_client_identity,
        resources=[
            FaceResource(
                CONTRACT_URI,
                "agent-contract",
                "What the importer receives, may not do, and every rule.",
                "text/markdown",
                serve.contract,
            )
        ],
    )
    await serve_face_stdio(face)


__all__ = [
    "CONTRACT_URI",
    "CYCLE_PROMPT",
    "CycleDesk",
    "DeskImporter",
    "PilotServe",
    "SessionEnded",
    "serve_stdio",
]
