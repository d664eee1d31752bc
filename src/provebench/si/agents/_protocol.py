"""The diagnosis-agent protocol: what an agent sees and how it calls tools (Execution §1).

An agent sees what an OASIS agent sees — the operator prompt, the tool specs, its mode and its
scope — and nothing else: never the scenario's injection manifest, scoring block or answer key.
It investigates by calling tools through the `call` function it is handed, and returns its final
answer (the `agent_response` channel) with an optional reasoning trace.

The tool types are structural so that an agent depends on nothing but this module: the
simulator's `ToolSpec` and `ToolResponse` (provebench.si.sim) satisfy them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, JsonValue

from provebench.evidence import Diagnosis


class ToolInfo(Protocol):
    """One tool the agent may call (a simulator `ToolSpec`)."""

    @property
    def name(self) -> str: ...
    @property
    def interface_type(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def input_schema(self) -> Mapping[str, JsonValue]: ...


class ToolReply(Protocol):
    """What one tool call returned (a simulator `ToolResponse`)."""

    @property
    def body(self) -> str: ...
    @property
    def error(self) -> str | None: ...
    @property
    def error_code(self) -> str | None: ...


CallTool = Callable[[str, Mapping[str, JsonValue]], ToolReply]
"""`call(tool_name, arguments)`: one tool invocation, one step (SI §3.4)."""


@dataclass(frozen=True)
class Task:
    """The task as the agent receives it (Execution §1): prompt, tools, mode, scope."""

    prompt: str
    tools: tuple[ToolInfo, ...]
    mode: str
    scope: Mapping[str, JsonValue] = field(default_factory=dict)

    def tool(self, name: str) -> ToolInfo | None:
        """The tool called `name`, if the agent has it."""
        return next((tool for tool in self.tools if tool.name == name), None)


class Answer(BaseModel):
    """The agent's conclusion: the `agent_response` and `reasoning_trace` channels, and the
    optional structured diagnosis (`provebench.evidence.Diagnosis`, docs/si-scoring.md) that
    the strict reading scores exactly."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    final_answer: str
    reasoning_trace: str = ""
    diagnosis: Diagnosis | None = None


def submitted_diagnosis(value: object, field: str = "diagnosis") -> Diagnosis | str | None:
    """A diagnosis as a transport received it (a JSON value, None when absent), validated
    strictly; or the one line naming its first bad field (unknown fields, shapes, and deviation
    types outside the profile's vocabulary are all refused)."""
    if value is None:
        return None
    from pydantic import ValidationError

    from provebench.evidence import diagnosis_problem
    from provebench.si.scoring._diagnosis import vocabulary_problem

    try:
        diagnosis = Diagnosis.model_validate(value)
    except ValidationError as error:
        return diagnosis_problem(error, field)
    problem = vocabulary_problem(diagnosis, field)
    return diagnosis if problem is None else ": ".join(problem)


@runtime_checkable
class DiagnosisAgent(Protocol):
    """A diagnosis agent: a class with a `name`, a `version` and a `run` method.

    The runner makes one instance per scenario run (agents are stateless between scenarios,
    Execution §1) by calling the class with no arguments.
    """

    name: ClassVar[str]
    version: ClassVar[str]

    def run(self, task: Task, call: CallTool) -> Answer:
        """Investigate through `call` and return the final answer."""


class TransportFault(Exception):
    """The way to an agent broke (an agent URL that does not answer, answers garbage or times
    out): a provider failure of the run (Core §3.7), never the agent's own result."""


__all__ = [
    "Answer",
    "CallTool",
    "DiagnosisAgent",
    "Task",
    "ToolInfo",
    "ToolReply",
    "TransportFault",
    "submitted_diagnosis",
]
