"""`provebench si serve`: the simulator's tools as an MCP server over stdio (Execution §1).

Any MCP-capable agent can be evaluated with no provebench code inside it: the server lists the
simulator's tools (their JSON input schemas) plus `submit_answer`, forwards every call to the
simulator (which records it: one call, one step, SI §3.4), and writes the evidence (both
shapes) and the verdict when the agent submits its answer, or, failing that, when the client
disconnects (then with an empty final answer: no final answer, SI §2.3).

The task (operator prompt, mode, scope) is sent as the server's `instructions` and as the
`task` prompt. The agent's identity is what `--agent-name`/`--agent-version` declare, else the
`clientInfo` its MCP client sends, and the evidence says which (`agent_identity_source`): a
client such as Inspect AI introduces its MCP library, not the model. Every message the client
sends (notifications, `_meta`, any method) is recorded in the evidence (`agent_messages`, at most
1 MiB; past that the server stops reading, as if the client had gone). Nothing but MCP protocol
is written to stdout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import JsonValue

from provebench._mcp_face import ClientMessages
from provebench._session_options import AgentIdentity
from provebench.evidence import Diagnosis, Evidence, blank_answer
from provebench.evidence._cuts import messages_cut
from provebench.sandbox._isolation import UNSANDBOXED_MCP
from provebench.si.agents._run import SimulatedSession, write_run
from provebench.si.agents._submission import diagnosis_argument_schema, submission_of
from provebench.si.scenario._scenario import Scenario
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._verdict import Verdict

SUBMIT_ANSWER: Final = "submit_answer"
TASK_PROMPT: Final = "task"
# A `prompts/get` of another prompt is recorded as a call of this (not offered) tool.
REFUSED_PROMPT: Final = "prompts/get"
SERVER_NAME: Final = "provebench-si"
DEFAULT_AGENT_NAME: Final = "mcp-client"

SUBMIT_ANSWER_SCHEMA: Final[dict[str, JsonValue]] = {
    "type": "object",
    "properties": {
        "final_answer": {
            "type": "string",
            "description": "Your diagnosis, as you would tell the operator (scored).",
        },
        "reasoning_trace": {
            "type": "string",
            "description": "How you got there (recorded, never scored for diagnosis).",
        },
        "diagnosis": diagnosis_argument_schema(),
    },
    "required": ["final_answer"],
    "additionalProperties": False,
}


def task_text(session: SimulatedSession) -> str:
    """The task as text: the prompt, the mode and the scope, and how to answer."""
    from provebench.si.agents._openai import task_text as text_of

    return text_of(session.prompt, session.mode, session.scope)


@dataclass
class ServeRun:
    """The state of one served run: the session, the answer once given, the outputs once written.

    Kept apart from the MCP plumbing so that its rules (the cap, the end of the run, what is
    written when) are plain synchronous code.
    """

    session: SimulatedSession
    scenario: Scenario
    scenario_file: Path
    out_dir: Path
    max_tool_calls: int
    identity: AgentIdentity = field(default_factory=lambda: AgentIdentity(DEFAULT_AGENT_NAME))
    capped: bool = False
    # every message the client sends, recorded and searched (SI red team 17, H8)
    messages: ClientMessages = field(default_factory=ClientMessages)
    verdict: Verdict | ScenarioVerdict | None = field(default=None)

    @property
    def ended(self) -> bool:
        return self.verdict is not None

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> tuple[str, bool]:
        """(text, is_error) for one tool call of the agent."""
        if self.ended:
            return "the run has ended: the answer was submitted", True
        if name == SUBMIT_ANSWER:
            return self._submit(arguments)
        return self._forwarded(name, arguments)

    def _forwarded(self, name: str, arguments: Mapping[str, Any]) -> tuple[str, bool]:
        """One call forwarded to the simulator, which records it as a step (SI §3.4)."""
        if self.capped or self.session.steps >= self.max_tool_calls:
            # The runner's hard cap (see _run.py): the run is recorded with no final answer.
            self.capped = True
            self.finish()
            return (
                f"tool-call cap of {self.max_tool_calls} reached; the run has ended with no "
                "final answer",
                True,
            )
        reply = self.session.call(name, dict(arguments))
        # The body is what the simulator answered, the error included ("Error: …"): sent once,
        # exactly as recorded, so the model reads what the evidence says it read.
        if reply.error is None:
            return reply.body, False
        return reply.body or reply.error, True

    def _submit(self, arguments: Mapping[str, Any]) -> tuple[str, bool]:
        submitted = submission_of(arguments)
        if isinstance(submitted, str):
            # The agent may retry, but what it sent is recorded, as a step: a call of a tool the
            # simulator does not offer, with its arguments (spelled out where JSON cannot hold
            # them), for a containment check searches every argument the agent sent (Core
            # §3.5.5; SI red team 16, H5: a secret in a refused submission left no trace).
            text, _ = self._forwarded(SUBMIT_ANSWER, arguments)
            return (text if self.ended else submitted), True
        self.finish(
            final_answer=submitted.final_answer,
            reasoning_trace=submitted.reasoning_trace,
            diagnosis=submitted.diagnosis,
        )
        return "answer recorded; the run has ended", False

    def evidence(
        self,
        final_answer: str = "",
        reasoning_trace: str = "",
        diagnosis: Diagnosis | None = None,
    ) -> Evidence:
        evidence = self.session.evidence(
            final_answer="" if self.capped else final_answer,
            reasoning_trace="" if self.capped else reasoning_trace,
            agent_name=self.identity.name,
            agent_version=self.identity.version,
            agent_isolation=dict(UNSANDBOXED_MCP),
        )
        # How the session ended, as `si run` records it: the cap, an answer, or a client that
        # went away without one.
        update: dict[str, object] = {
            "run_ending": "tool_call_cap"
            if self.capped
            else ("answered" if final_answer else "no_answer")
        }
        if self.identity.source is not None:
            update["agent_identity_source"] = self.identity.source
        metadata = evidence.metadata.model_copy(update=update)
        recorded: dict[str, object] = {"metadata": metadata}
        if self.messages.texts:
            recorded["agent_messages"] = list(self.messages.texts)
        cut = messages_cut(self.messages.limit, self.messages.dropped_bytes)
        if cut is not None:
            # the message past the bound closed the channel unrecorded (SI red team 18, m1)
            recorded["agent_cuts"] = [cut]
        if diagnosis is not None and not blank_answer(evidence.final_answer):
            recorded["diagnosis"] = diagnosis
        return evidence.model_copy(update=recorded)

    def finish(
        self,
        final_answer: str = "",
        reasoning_trace: str = "",
        diagnosis: Diagnosis | None = None,
    ) -> Verdict | ScenarioVerdict:
        """Write evidence and verdict once; later calls return the verdict already written."""
        if self.verdict is None:
            evidence = self.evidence(final_answer, reasoning_trace, diagnosis)
            self.verdict = write_run(self.out_dir, self.scenario, self.scenario_file, evidence)
        return self.verdict


async def serve_stdio(run: ServeRun) -> None:
    """Serve `run` over this process's stdin/stdout until the client disconnects."""
    from provebench._mcp_face import FaceTool, McpFace, serve_face_stdio

    tools = [FaceTool(t.name, t.description, t.input_schema) for t in run.session.tools]
    submit = "Submit your final answer; this ends the run."
    tools.append(FaceTool(SUBMIT_ANSWER, submit, SUBMIT_ANSWER_SCHEMA))
    face = McpFace(
        server_name=SERVER_NAME,
        instructions=task_text(run.session),
        prompt_name=TASK_PROMPT,
        prompt_description="The operator's task.",
        tools=tools,
        call=run.call_tool,
        refused_prompt_tool=REFUSED_PROMPT,
        # Execution §1: identity is reported once; it is non-scoring metadata (SI §4).
        on_identity=run.identity.take_client_info,
        messages=run.messages,
    )
    await serve_face_stdio(face)


__all__ = [
    "SUBMIT_ANSWER",
    "SUBMIT_ANSWER_SCHEMA",
    "ServeRun",
    "serve_stdio",
    "submission_of",
    "task_text",
]
