"""`pilot run --agent openai:MODEL`: a model behind any OpenAI-compatible endpoint as the
call-import importer (pilot §1, §3: the importer may be code or an agent).

Each cycle the model gets the agent contract (the corpus's `agent_contract.md`) as its system
text, the cycle's run version and time zone, and the laboratory's tools (`_tools.py`, the same
the MCP face offers); every call goes to the cycle's facades, which log it before answering. The
cycle ends when the model calls `finish_cycle`, stops calling tools, or reaches the step budget.
Nothing carries over between cycles but the register: the confirmed ids are what a new cycle
knows, as the contract intends.

The transcript of each cycle — every assistant turn: its text, its tool calls, the token counts —
is the laboratory's own record, one `model_transcript` entry of the cycle's log (pilot §9:
recorded and published, never scored as fact), so it is in the signed log with the calls it
explains; it is not on the diagnostics channel, which is the importer's report. An endpoint that
fails ends the cycle as the importer's `agent_error` (the rows it appended are still confirmed).
"""

from __future__ import annotations

import json
import time
from typing import Any, ClassVar

from provebench.llm import Endpoint, EndpointFailure, LoopResult, ToolSpec, run_tool_loop
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.agents._tools import FINISH_CYCLE, TOOLS, call_tool, cycle_prompt
from provebench.pilot.lab import CycleContext
from provebench.pilot.lab._api import record_model_transcript
from provebench.pilot.record._transcript import TRANSCRIPT_FORMAT
from provebench.sandbox._isolation import Isolation, endpoint_isolation

DEFAULT_STEP_BUDGET = 200
TRANSCRIPT_NOTE = TRANSCRIPT_FORMAT
# One cycle's transcript in the log: far above what 200 steps of a model's ordinary turns make, far
# below what would strain the log (a diagnostics file of the emulator holds at most 16 MiB).
MAX_TRANSCRIPT_NOTE_BYTES = 1024 * 1024


def system_text(contract: str) -> str:
    return (
        "You are the importer of a call-recording register. Each cycle, bring every new "
        "recording from the Drive into the working sheet exactly once, with the tools, as the "
        f"agent contract below says; report on the diagnostics channel; then call {FINISH_CYCLE}."
        f"\n\n{contract}"
    )


class OpenAIImporter:
    """One cycle of the model as the importer (a fresh instance per cycle)."""

    name: ClassVar[str] = "openai"
    version: ClassVar[str] = "1"

    def __init__(
        self,
        endpoint: Endpoint,
        contract: str,
        step_budget: int,
        timeout_sec: float | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.contract = contract
        self.step_budget = step_budget
        self.timeout_sec = timeout_sec

    def run_cycle(self, ctx: CycleContext) -> None:
        def answer(name: str, arguments: dict[str, Any]) -> str:
            return call_tool(ctx, name, arguments).text

        result: LoopResult | None = None
        # The cycle's time limit bounds the loop too: no request outlives the cycle.
        deadline = None if self.timeout_sec is None else time.monotonic() + self.timeout_sec
        try:
            result = run_tool_loop(
                self.endpoint,
                system=system_text(self.contract),
                user=cycle_prompt(ctx),
                tools=[ToolSpec(t.name, t.description, t.input_schema) for t in TOOLS],
                call=answer,
                end_tool=FINISH_CYCLE,
                max_steps=self.step_budget,
                deadline=deadline,
            )
        except EndpointFailure as failure:
            result = failure.result
            raise RuntimeError(f"the model endpoint failed: {failure}") from None
        finally:
            if result is not None:
                record_model_transcript(ctx, transcript_note(self.endpoint, result))


def transcript_note(endpoint: Endpoint, result: LoopResult) -> str:
    """The cycle's model turns as one JSON text (the tool answers are the log's own entries).

    At most `MAX_TRANSCRIPT_NOTE_BYTES`: the turns are kept from the first while they fit, and
    the note says how many were left out (`turns_omitted`), so that one cycle of a verbose model
    cannot fill the log; a turn too long on its own is left out whole, never cut. The cycle's
    connections (`connections`, at most `MAX_RECORDED_CONNECTIONS` of them and a count of the
    rest) are always kept: a `--model-cmd` server's Unix socket makes none."""
    turns = [m for m in result.transcript if m["role"] == "assistant"]
    note: dict[str, Any] = {
        "format": TRANSCRIPT_NOTE,
        "model": endpoint.model,
        "ending": result.ending,
        "steps": result.steps,
        "completions": result.completions,
        "finish_reasons": result.finish_reasons,
        "truncated_turns": result.truncated_turns,
        "tokens": {
            "input": result.usage.input,
            "output": result.usage.output,
            "total": result.usage.total,
        },
        "turns": [],
        "turns_omitted": 0,
        # Where the client connected, judged how, and what it refused, next to the reach the
        # run's isolation records (llm/_pinned.py; docs/llm-agents.md, "Who runs the model").
        "connections": result.connections.entries,
        "connections_omitted": result.connections.omitted,
    }
    room = MAX_TRANSCRIPT_NOTE_BYTES - len(_note_text(note).encode("utf-8"))
    for index, turn in enumerate(turns):
        size = len(_note_text(turn).encode("utf-8")) + 1  # and its comma
        if size > room:
            note["turns_omitted"] = len(turns) - index
            break
        note["turns"].append(turn)
        room -= size
    return _note_text(note)


def _note_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def openai_agent(
    endpoint: Endpoint,
    contract: str,
    step_budget: int = DEFAULT_STEP_BUDGET,
    timeout_sec: float | None = None,
    *,
    served: Isolation | None = None,
) -> LoadedAgent:
    """The run's agent for `--agent openai:MODEL`: provebench's own loop, in its process (the
    model has no shell, only the tools). Its isolation is the model server's, as it is: a
    `--model-cmd` server provebench started in the sandbox (`served`, the sandbox's record), or
    else the endpoint, whose server on this machine or its network may be the candidate's own
    code running as the operator, so it cannot reach `laboratory_pass` (docs/llm-agents.md, "Who
    runs the model")."""
    from provebench.pilot.agents._loader import shipped_code_sha256

    return LoadedAgent(
        spec=endpoint.spec,
        name=OpenAIImporter.name,
        version=f"{OpenAIImporter.version}+{endpoint.model}",
        factory=lambda: OpenAIImporter(endpoint, contract, step_budget, timeout_sec),
        isolation=dict(served)
        if served is not None
        else endpoint_isolation(endpoint.base_url, endpoint.judgement()),
        code_sha256=shipped_code_sha256(),
    )


__all__ = ["OpenAIImporter", "openai_agent", "system_text", "transcript_note"]
