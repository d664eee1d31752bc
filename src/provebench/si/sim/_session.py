"""One scenario run in the simulator: the injected estate, its tools, and the recording.

Every call is a step (SI §3.4), whether it succeeded or not, and is recorded three ways: the
action with its verbatim body (what the agent saw), an audit-log entry (what the environment
observed), and a full state snapshot whenever the call changed the estate. Nothing depends on
the wall clock, so the same calls give the same evidence bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import JsonValue, TypeAdapter, ValidationError

from provebench._errors import ProvebenchError
from provebench._jsonfile import json_problem, recordable_text, text_problem
from provebench.evidence import (
    ApiCallEntry,
    AuditEntry,
    FullStateSnapshot,
    StateSnapshot,
    ToolAction,
)
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._derive import Observation, observe
from provebench.si.sim._estate import Estate
from provebench.si.sim._handlers import HANDLERS, Handled, failure, namespace_of
from provebench.si.sim._inject import build_scene
from provebench.si.sim._recording import Recording
from provebench.si.sim._tools import (
    INTERFACE_TYPES,
    ToolResponse,
    ToolSpec,
    UnparsedArguments,
    argument_problem,
    tools_for,
)

SNAPSHOT_SOURCE = "provebench.si.sim"
ACTOR = "agent"
_ARGUMENTS: TypeAdapter[dict[str, JsonValue]] = TypeAdapter(dict[str, JsonValue])


def _check_interfaces(scenario: Scenario) -> None:
    for index, interface in enumerate(scenario.preconditions.agent.tools):
        if interface not in INTERFACE_TYPES:
            raise ProvebenchError(
                f"interface type {interface!r} is not provided by the simulator "
                f"(provided: {', '.join(INTERFACE_TYPES)})",
                field=f"preconditions.agent.tools[{index}]",
            )


def _scope_namespaces(scope: Mapping[str, Any]) -> frozenset[str] | None:
    namespaces = scope.get("namespaces")
    if namespaces is None:
        return None
    if not isinstance(namespaces, list) or not all(isinstance(n, str) for n in namespaces):
        raise ProvebenchError(
            "must be a list of namespace names", field="preconditions.agent.scope.namespaces"
        )
    return frozenset(namespaces)


def _recordable_arguments(
    arguments: Mapping[str, JsonValue],
) -> tuple[dict[str, JsonValue], str | None]:
    """(the arguments as they are recorded, why they are refused or None).

    Refused arguments (and a model's arguments that were no JSON object, `UnparsedArguments`,
    whose raw text goes into the error) are recorded as `{}`: the call is still a step (SI
    §3.4), but what the agent passed cannot be written as evidence. Arguments must also
    survive being written and read back (`json_problem`: no NaN or infinity, no integer too
    long to print, no lone surrogate, no nesting past the reader's limit); otherwise they would
    poison the evidence of the whole run when it is written, long after the call.
    """
    if isinstance(arguments, UnparsedArguments):
        return {}, recordable_text(arguments.error())
    try:
        recorded = _ARGUMENTS.validate_python(dict(arguments))
    except (ValidationError, TypeError, ValueError, RecursionError):
        return {}, "arguments must be a JSON object"
    problem = json_problem(recorded)
    if problem is not None:
        return {}, f"arguments are not representable as JSON: {problem}"
    return recorded, None


class Session(Recording):
    """One scenario run in the simulator: the injected estate, its tools, the recording."""

    def __init__(self, scenario: Scenario, estate: Estate) -> None:
        agent = scenario.preconditions.agent
        self.scenario = scenario
        self.prompt = "\n".join(
            s.value for s in scenario.stimuli if s.type == "operator_prompt" and s.value
        )
        self.mode = agent.mode
        self.scope: dict[str, JsonValue] = dict(agent.scope or {})
        self.tools: tuple[ToolSpec, ...] = tools_for(agent.tools, agent.mode)
        self._namespaces = _scope_namespaces(self.scope)
        self._by_name = {spec.name: spec for spec in self.tools}
        self._estate = estate
        self._observation: Observation = observe(estate)
        self._actions: list[ToolAction] = []
        self._audit: list[AuditEntry] = []
        self._snapshots: list[StateSnapshot] = [self._snapshot("initial", 0)]

    @classmethod
    def start(cls, scenario: Scenario) -> Session:
        """Build the injected estate of ``scenario``; bad input names the scenario field."""
        _check_interfaces(scenario)
        scene = build_scene(scenario)
        return cls(scenario, scene.injected)

    @property
    def observation(self) -> Observation:
        """What the tools currently show (for tests and checks; agents only see tool bodies)."""
        return self._observation

    def _snapshot(self, label: str, after_step: int) -> FullStateSnapshot:
        return FullStateSnapshot(
            label=label,
            taken_after_step=after_step,
            source=SNAPSHOT_SOURCE,
            state=self._estate.data(),
        )

    def _dispatch(self, tool: str, arguments: Mapping[str, Any]) -> Handled:
        spec = self._by_name.get(tool)
        namespace = namespace_of(arguments)
        if spec is None:
            offered = ", ".join(sorted(self._by_name))
            message = f"unknown tool {tool!r} (offered: {offered})"
            return Handled(failure("unknown_tool", message), "unknown", f"tool/{tool}", None)
        problem = argument_problem(spec, arguments)
        if problem is not None:
            return Handled(failure("invalid_arguments", problem), "invalid", f"tool/{tool}", None)
        if self._namespaces is not None and namespace not in self._namespaces:
            message = f"namespace {namespace!r} is outside the agent's scope"
            return Handled(failure("forbidden", message), "denied", f"tool/{tool}", namespace)
        return HANDLERS[tool](self._observation, arguments, namespace)

    def call(self, tool: str, arguments: Mapping[str, JsonValue]) -> ToolResponse:
        """Run one tool call and record it; agent mistakes come back as errors, never raise.

        A tool name that is not text (a lone surrogate; not a string) cannot be recorded at all
        and raises `ValueError`: the caller's misuse of the interface, not a step.
        """
        problem = text_problem(tool)
        if problem is not None:
            raise ValueError(f"the tool name cannot be recorded: {problem}")
        recorded, problem = _recordable_arguments(arguments)
        if problem is not None:
            handled = Handled(
                failure("invalid_arguments", problem), "invalid", f"tool/{tool}", None
            )
        else:
            handled = self._dispatch(tool, recorded)
        response = handled.response
        step = self._record_call(tool, recorded, response)
        self._audit.append(
            ApiCallEntry(
                actor=ACTOR,
                verb=handled.verb,
                resource=handled.resource,
                namespace=handled.namespace,
                status_code=handled.status_code,
                after_step=step,
                detail={"tool": tool},
            )
        )
        if handled.changed is not None:
            self._estate = handled.changed
            self._observation = observe(handled.changed)
            self._snapshots.append(self._snapshot(f"after-step-{step}", step))
        return response


__all__ = ["Session"]
