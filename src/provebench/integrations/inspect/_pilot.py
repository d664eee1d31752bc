"""The call-import laboratory (pilot 03) as an Inspect AI task; the evaluator's verdict as its
scorer.

One sample is one run of the laboratory over a corpus. The runner (`execute_run`, crash-safe
and logging every call) works in a thread of its own with an importer whose cycle stays open
until the model calls `finish_cycle` — the desk the MCP face uses (`pilot serve --mcp`). Each
cycle is one react conversation: the agent contract as the system text, the cycle's run version
and zone as the input, the laboratory's tools (`pilot/agents/_tools.py`), and `finish_cycle` as
the submit tool. The scorer evaluates the run folder with `evaluate_run`, as `pilot evaluate`
does, and puts the whole verdict in the score's metadata.

Isolation is recorded as none: the solver is Inspect's and runs in the laboratory's process, so
nothing provebench ships seals it; the run evaluates, and the laboratory gate needs a sealed or
shipped candidate (`pilot run --agent openai:MODEL` is provebench's own loop).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import anyio.to_thread
from inspect_ai import Task, task
from inspect_ai.agent import AgentSubmit, as_solver, react
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef

from provebench.integrations.inspect._si import tool_params
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.agents._mcp_serve import CycleDesk, DeskImporter
from provebench.pilot.agents._openai import system_text
from provebench.pilot.agents._tools import FINISH_CYCLE, TOOLS, cycle_prompt
from provebench.pilot.corpus._folder import read_agent_contract
from provebench.pilot.lab._runner import open_corpus
from provebench.sandbox._private import private_root

RUN_DIR_KEY = "provebench_run_dir"
INSPECT_ISOLATION = {
    "mode": "none",
    "reason": "an Inspect AI solver in the laboratory's process: provebench does not seal code "
    "it did not ship",
}


@task
def call_import(corpus: str, out: str | None = None, message_limit: int = 400) -> Task:
    """The model imports every cycle of the corpus `corpus` (a folder `pilot generate` made);
    run folders go under `out` (default a new temporary folder), one per sample and epoch."""
    corpus_dir = Path(corpus)
    open_corpus(corpus_dir)  # verified before anything runs: a bad corpus is one clear error
    return Task(
        dataset=[
            Sample(
                id=corpus_dir.name,
                input="Import the call recordings, cycle by cycle.",
                metadata={"corpus": str(corpus_dir), "out": out},
            )
        ],
        solver=call_import_agent(),
        scorer=call_import_verdict(),
        message_limit=message_limit,
    )


@solver
def call_import_agent() -> Solver:
    """Inspect's react agent as the importer, one conversation per cycle."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        corpus_dir = Path(state.metadata["corpus"])
        parent = state.metadata.get("out")
        if parent:
            Path(parent).mkdir(parents=True, exist_ok=True)
        # Without an output folder, in the laboratory's private root (hidden from every
        # candidate), never loose in $TMPDIR.
        where = Path(parent) if parent else private_root()
        run_dir = Path(tempfile.mkdtemp(prefix=f"run-{state.epoch}-", dir=where))
        state.store.set(RUN_DIR_KEY, str(run_dir))
        contract = read_agent_contract(corpus_dir)
        desk = CycleDesk()
        agent = LoadedAgent(
            spec="inspect",
            name=str(state.model),
            version="inspect",
            factory=lambda: DeskImporter(desk),
            isolation=dict(INSPECT_ISOLATION),
            code_sha256="",
        )
        runner = desk.start_run(
            open_corpus(corpus_dir),
            agent,
            run_dir,
            name="provebench-inspect-run",
            stopped="stopped before the last cycle",  # the solver ended early: an error, a limit
        )
        tools = [
            ToolDef(_lab_tool(desk, t.name), name=t.name, description=t.description,
                    parameters=tool_params(t.input_schema))
            for t in TOOLS
            if t.name != FINISH_CYCLE
        ]  # fmt: skip
        finish = next(t for t in TOOLS if t.name == FINISH_CYCLE)
        submit = ToolDef(
            _lab_tool(desk, FINISH_CYCLE), name=FINISH_CYCLE, description=finish.description,
            parameters=tool_params(finish.input_schema),
        )  # fmt: skip
        importer = as_solver(
            react(
                prompt=system_text(contract),
                tools=tools,
                submit=AgentSubmit(tool=submit, answer_only=True, keep_in_messages=True),
            )
        )
        transcript: list[ChatMessage] = []
        try:
            while True:
                ctx = await anyio.to_thread.run_sync(desk.next_cycle)
                if ctx is None:
                    break
                state.messages = [ChatMessageUser(content=cycle_prompt(ctx))]
                state = await importer(state, generate)
                transcript += [m for m in state.messages if not isinstance(m, ChatMessageSystem)]
                if desk.ctx is ctx:  # the model stopped without finishing: the cycle ends
                    await anyio.to_thread.run_sync(desk.call, FINISH_CYCLE, {})
        finally:
            desk.stop.set()
            await anyio.to_thread.run_sync(runner.join)
        state.messages = transcript
        if desk.failure is not None:
            state.store.set("provebench_run_failure", desk.failure)
        return state

    return solve


def _lab_tool(desk: CycleDesk, name: str) -> Callable[..., Coroutine[Any, Any, str]]:
    async def execute(**arguments: Any) -> str:
        answer = await anyio.to_thread.run_sync(desk.call, name, arguments)
        return answer.text

    return execute


@scorer(metrics=[mean()])
def call_import_verdict() -> Scorer:
    """The evaluator's verdict of the run folder: 1.0 when the laboratory gate passed, else the
    mean of the eight metrics (pilot §7); the verdict itself in the metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        from provebench.pilot.evaluate import evaluate_run

        run_dir = Path(state.store.get(RUN_DIR_KEY))
        verdict = await anyio.to_thread.run_sync(
            evaluate_run, run_dir, Path(state.metadata["corpus"])
        )
        metrics = verdict.metrics
        if verdict.laboratory_pass:
            value = 1.0
        elif metrics is None:
            value = 0.0
        else:
            values = [metric.value for _, metric in metrics.overall]
            value = sum(values) / len(values)
        return Score(
            value=value,
            explanation=(
                f"scorer_pass={verdict.scorer_pass} laboratory_pass={verdict.laboratory_pass}"
            ),
            metadata={"verdict": json.loads(verdict.model_dump_json()), "run_dir": str(run_dir)},
        )

    return score


__all__ = ["INSPECT_ISOLATION", "call_import", "call_import_agent", "call_import_verdict"]
