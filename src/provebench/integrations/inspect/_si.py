"""The OASIS SI scenarios as an Inspect AI task; provebench's verdict as its scorer.

One sample per scenario. The solver opens the scenario's simulator session (as `si run` does),
offers its tools to the model as Inspect tools and `submit_answer` as the react agent's submit
tool — the one way to answer, so no correct answer is lost beside it — and records the run's
evidence in the sample's store. The scorer scores that evidence with `score_scenario`, the
function `si score` uses, and puts the whole verdict in the score's metadata: the same calls give
the same verdict as `si run`. Each tool's answer is the simulator's body, byte for byte (errors
included), because tool-echo exclusion is defined over those bytes (SI §2.1).

Inspect validates a tool call's arguments against the tool's schema before calling it, and a call
it refuses (or a `submit_answer` provebench refuses) never reaches the simulator live. The
evidence is therefore the conversation's calls replayed, in the order the model made them, on a
fresh session of the same scenario: a refused call is recorded where it stood as the step
`si run` records for it (bad arguments, an unknown tool, a refused submission), so what it
carried is searched like every other argument; each call that ran must get, replayed, the very
answer the model read (the simulator is deterministic), or the run is a harness fault
(docs/inspect.md).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.agent import AgentSubmit, as_solver, react
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageTool
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    mean,
    mean_score,
    metric,
    pass_k,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef, ToolError, ToolParam, ToolParams

import provebench.si
from provebench._canonical import canonical_json
from provebench.evidence import Evidence, blank_answer
from provebench.integrations.inspect._evidence import assistant_text
from provebench.si.agents._openai import SYSTEM_PROMPT, task_text
from provebench.si.agents._run import start_session, verdict_line
from provebench.si.agents._serve import SUBMIT_ANSWER, SUBMIT_ANSWER_SCHEMA
from provebench.si.agents._submission import submission_of
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._score import score_scenario, select_scenario
from provebench.si.scoring._strict import Reading
from provebench.si.scoring._verdict import Verdict
from provebench.si.sim._tools import UnparsedArguments
from provebench.si.suite._select import select

SHIPPED_SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"
EVIDENCE_KEY = "provebench_evidence"
DEFAULT_MESSAGE_LIMIT = 200


@task
def si_suite(
    path: str | None = None,
    scenario: str | None = None,
    category: str | None = None,
    safety_only: bool = False,
    epochs: int = 1,
    message_limit: int = DEFAULT_MESSAGE_LIMIT,
) -> Task:
    """SI scenarios (`path`: files or folders, comma-separated; default the shipped ones),
    scored by provebench. With `epochs` > 1 the scores are reduced to their mean and to pass^k
    (every epoch passed), as Inspect reduces epochs."""
    paths = [Path(p) for p in path.split(",")] if path else [SHIPPED_SCENARIOS]
    selected = select(
        paths,
        categories=[category] if category else [],
        scenario_ids=[scenario] if scenario else [],
        safety_only=safety_only,
    )
    samples = []
    for item in selected:
        if item.not_applicable is not None:
            continue  # excluded as `si suite` excludes it (NOT_APPLICABLE), never run
        _, session = start_session(item.file, item.scenario.id)
        samples.append(
            Sample(
                id=item.scenario.id,
                input=task_text(session.prompt, session.mode, session.scope),
                metadata={"scenario_file": str(item.file), "scenario_id": item.scenario.id},
            )
        )
    return Task(
        dataset=samples,
        solver=provebench_si_agent(),
        scorer=provebench_verdict(),
        epochs=Epochs(epochs, [mean_score(), pass_k(epochs)]) if epochs > 1 else None,
        message_limit=message_limit,
    )


@solver
def provebench_si_agent() -> Solver:
    """Inspect's react agent in the scenario's simulator, recording provebench evidence."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        scenario_file = Path(state.metadata["scenario_file"])
        _, session = start_session(scenario_file, state.metadata["scenario_id"])
        submitted: dict[str, Any] = {}
        tools = [
            ToolDef(
                _simulator_tool(session, tool.name),
                name=tool.name,
                description=tool.description,
                parameters=tool_params(tool.input_schema),
            )
            for tool in session.tools
        ]
        submit = ToolDef(
            _submit_tool(submitted),
            name=SUBMIT_ANSWER,
            description="Submit your final answer; this ends the run.",
            parameters=tool_params(SUBMIT_ANSWER_SCHEMA),
        )
        agent = react(
            prompt=SYSTEM_PROMPT,
            tools=tools,
            submit=AgentSubmit(tool=submit, answer_only=True, keep_in_messages=True),
        )
        state = await as_solver(agent)(state, generate)
        _, recorded = start_session(scenario_file, state.metadata["scenario_id"])
        answered_after = replay_calls(recorded, state.messages)
        trace = "\n\n".join(t for m in state.messages for t in assistant_text(m))
        given = submitted.get("reasoning_trace", "")
        evidence = recorded.evidence(
            final_answer=submitted.get("final_answer", ""),
            reasoning_trace="\n\n".join(t for t in (trace, given) if t),
            agent_name=str(state.model),
        )
        if evidence.final_answer and answered_after is not None:
            evidence = evidence.model_copy(update={"final_answer_after_step": answered_after})
        diagnosis = submitted.get("diagnosis")
        if diagnosis is not None and not blank_answer(evidence.final_answer):
            evidence = evidence.model_copy(update={"diagnosis": diagnosis})
        state.store.set(EVIDENCE_KEY, json.loads(canonical_json(evidence)))
        return state

    return solve


def replay_calls(session: Any, messages: Sequence[ChatMessage]) -> int | None:
    """Record on `session` every tool call of the conversation in the order the model made
    it: a call Inspect refused as malformed, or a refused submission, as `si run` records it; a
    call that ran, checked to get the answer the model read; a call no tool message answers
    (it never ran) with its arguments as text, run by nothing. Calls in the turn of the
    accepted `submit_answer` ran too, so they are recorded as well (SI red team 20, S4b: a
    secret in a call placed after the submission was in no evidence); the accepted submission
    is not a step. Returns how many steps came before it (None: no accepted submission)."""
    answers = {m.tool_call_id: m for m in messages if isinstance(m, ChatMessageTool)}
    answered_after: int | None = None
    for message in messages:
        if not isinstance(message, ChatMessageAssistant):
            continue
        for call in message.tool_calls or ():
            answered = answers.get(call.id)
            if answered is None:
                text = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
                session.call(call.function, UnparsedArguments(text, "never run: no answer"))
                continue
            refused = answered.error is not None
            if call.function == SUBMIT_ANSWER:
                if not refused and answered_after is None:
                    answered_after = int(session.steps)  # the answer: not a step
                    continue
                # refused, or accepted after the answer: a step (answered as an unknown tool)
                session.call(SUBMIT_ANSWER, call.arguments)
                continue
            if call.parse_error is not None:
                session.call(call.function, UnparsedArguments("", call.parse_error))
                continue
            reply = session.call(call.function, call.arguments)
            if refused:
                continue  # refused by Inspect: the simulator records its own refusal
            given = str(reply.body if reply.body or reply.error is None else reply.error)
            if given != answered.text:
                raise RuntimeError(
                    f"replayed call {call.function!r} answered otherwise than the model read: "
                    "the simulator is not deterministic here (a harness fault)"
                )
    return answered_after


def _simulator_tool(session: Any, name: str) -> Callable[..., Coroutine[Any, Any, str]]:
    async def execute(**arguments: Any) -> str:
        reply = session.call(name, arguments)
        return str(reply.body if reply.body or reply.error is None else reply.error)

    return execute


def _submit_tool(submitted: dict[str, Any]) -> Callable[..., Coroutine[Any, Any, str]]:
    async def execute(
        final_answer: str, reasoning_trace: str = "", diagnosis: dict[str, Any] | None = None
    ) -> str:
        arguments: dict[str, Any] = {"final_answer": final_answer}
        arguments["reasoning_trace"] = reasoning_trace
        if diagnosis is not None:
            arguments["diagnosis"] = diagnosis
        checked = submission_of(arguments)
        if isinstance(checked, str):
            # a tool error: react lets the model read it and submit again (the refusal is
            # recorded as a step by `replay_calls`, as `si serve` records it; SI red team 16, H5)
            raise ToolError(checked)
        if "final_answer" in submitted:
            # the first accepted submission is the answer; a later one is a step of its own,
            # recorded by `replay_calls` (SI red team 23, H2: two accepted submissions in one
            # turn, the first carrying the secret, kept only the second)
            return final_answer
        submitted["final_answer"] = checked.final_answer
        submitted["reasoning_trace"] = checked.reasoning_trace
        submitted["diagnosis"] = checked.diagnosis
        return final_answer

    return execute


def tool_params(schema: Mapping[str, Any]) -> ToolParams:
    """A JSON object schema as Inspect's tool parameters."""
    properties = schema.get("properties") or {}
    return ToolParams(
        properties={name: ToolParam.model_validate(p) for name, p in properties.items()},
        required=list(schema.get("required") or []),
    )


@metric
def sealed_mean() -> Metric:
    """The mean of the sealed samples' scores only (NaN when none was sealed): the figure a
    sealed headline may quote. `mean` is over every sample, unsealed ones included."""

    def compute(scores: list[SampleScore]) -> float:
        sealed = [s.score.as_float() for s in scores if (s.score.metadata or {}).get("sealed")]
        return sum(sealed) / len(sealed) if sealed else math.nan

    return compute


@scorer(metrics=[mean(), sealed_mean()])
def provebench_verdict(reading: Reading = "ratified", require_diagnosis: bool = False) -> Scorer:
    """provebench's verdict of the recorded evidence: the score is the verdict's (a band's
    score, a rubric score, or 1/0 for a safety PASS/FAIL; a provider failure is unscored), and
    the whole verdict is in the score's metadata, its `sealed` also beside it. The solver here
    drives a model that Inspect's provider serves — not started or sealed by provebench — so
    its samples are unsealed: the explanation says so and `sealed_mean` leaves them out.
    `reading` chooses which reading of a Form B table gives the score, ratified (the default) or
    strict (docs/si-scoring.md); the verdict shows both. `require_diagnosis` (strict only):
    a factor is identified only by the structured diagnosis submitted with the answer."""
    if require_diagnosis and reading != "strict":
        raise ValueError("require_diagnosis applies to the strict reading: add reading='strict'")

    async def score(state: TaskState, target: Target) -> Score:
        evidence = Evidence.model_validate(state.store.get(EVIDENCE_KEY))
        verdict = verdict_of(
            Path(state.metadata["scenario_file"]),
            state.metadata["scenario_id"],
            evidence,
            reading=reading,
            require_diagnosis=require_diagnosis,
        )
        line = verdict_line(verdict)
        return Score(
            value=score_value(verdict),
            answer=evidence.final_answer,
            explanation=line if verdict.sealed else f"UNSEALED: {line}",
            metadata={"sealed": verdict.sealed, "verdict": json.loads(verdict.to_json())},
        )

    return score


def verdict_of(
    scenario_file: Path,
    scenario_id: str,
    evidence: Evidence,
    *,
    reading: Reading = "ratified",
    require_diagnosis: bool = False,
) -> Verdict | ScenarioVerdict:
    scenario = select_scenario(load_scenarios(scenario_file), scenario_id, path=str(scenario_file))
    return score_scenario(scenario, evidence, reading=reading, require_diagnosis=require_diagnosis)


def score_value(verdict: Verdict | ScenarioVerdict) -> float:
    if isinstance(verdict, Verdict):
        # a harness fault's scenario is not scored: no number, as a safety PROVIDER_FAILURE
        return math.nan if verdict.score is None else float(verdict.score)
    if verdict.score is not None:
        return float(verdict.score)
    return {"PASS": 1.0, "FAIL": 0.0}.get(verdict.status, math.nan)


__all__ = [
    "EVIDENCE_KEY",
    "SHIPPED_SCENARIOS",
    "provebench_si_agent",
    "provebench_verdict",
    "replay_calls",
    "score_value",
    "sealed_mean",
    "si_suite",
    "tool_params",
    "verdict_of",
]
