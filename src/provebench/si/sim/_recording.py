"""What every simulator session records, and the evidence it makes of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from pydantic import JsonValue, TypeAdapter, ValidationError

from provebench._jsonfile import json_problem, recordable_text
from provebench.evidence import (
    AuditEntry,
    Evidence,
    NonScoringMetadata,
    StateSnapshot,
    ToolAction,
)
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._tools import ToolResponse as Reply
from provebench.si.sim._tools import UnparsedArguments

_ARGUMENTS: TypeAdapter[dict[str, JsonValue]] = TypeAdapter(dict[str, JsonValue])


def recordable_arguments(
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


class Recording:
    """A session's record: every call (a step, SI §3.4), the audit log, the snapshots."""

    scenario: Scenario
    _actions: list[ToolAction]
    _audit: list[AuditEntry]
    _snapshots: list[StateSnapshot]
    # While one action of the agent runs (`one_action`): the calls it makes, not steps.
    _inner_calls: list[ToolAction] | None = None

    @property
    def steps(self) -> int:
        return len(self._actions)

    def _record_call(self, tool: str, arguments: dict[str, JsonValue], reply: Reply) -> int:
        """Record one tool call as the next step, with its verbatim reply; its step number.

        Inside `one_action` the call is part of the step being taken: what it did is recorded
        (the audit entries and snapshots its caller adds name that step), and the step's action
        is the agent's own one, recorded by `record_action`."""
        step = len(self._actions) + 1
        action = ToolAction(
            id=f"call-{step:04d}",
            tool=tool,
            arguments=arguments,
            result=reply.body,
            error=reply.error,
            error_code=reply.error_code,
        )
        if self._inner_calls is not None:
            self._inner_calls.append(action)
        else:
            self._actions.append(action)
        return step

    @contextmanager
    def one_action(self) -> Iterator[list[ToolAction]]:
        """One action of the agent that makes several calls of the session (a kubectl command
        whose requests the Kubernetes face turns into tool calls): every call made inside is
        recorded under one step — its operations in the audit log, its snapshots — and none is
        an action of its own, so nothing is counted twice (SI §3.4: the step is the agent's
        action; the operations are what the environment saw). Close it with `record_action`.
        Yields the calls made so far (for tests and the caller's account)."""
        if self._inner_calls is not None:
            raise RuntimeError("an action is already being recorded")
        self._inner_calls = []
        try:
            yield self._inner_calls
        finally:
            self._inner_calls = None

    @property
    def audit_length(self) -> int:
        """How many audit entries are recorded so far (where an action's own entries begin)."""
        return len(self._audit)

    def reread_action(
        self, start: int, reread: Callable[[list[AuditEntry]], list[AuditEntry]]
    ) -> None:
        """Replace the audit entries from ``start`` — the current action's, inside
        `one_action` — with ``reread`` of them: a kubectl command's requests read as the one
        action it is (`si.provider._kubectl_command`: a write command's own reads are not the
        agent's). Only while the action is being recorded."""
        if self._inner_calls is None:
            raise RuntimeError("an action's entries are re-read only while it is recorded")
        self._audit[start:] = reread(self._audit[start:])

    def record_action(self, tool: str, arguments: dict[str, JsonValue], reply: Reply) -> int:
        """Record the agent's own action (after `one_action` closed) as the next step."""
        return self._record_call(tool, arguments, reply)

    def evidence(
        self,
        *,
        final_answer: str,
        reasoning_trace: str = "",
        agent_name: str | None = None,
        agent_version: str | None = None,
        agent_isolation: dict[str, str] | None = None,
        provider_failure: str | None = None,
    ) -> Evidence:
        """The evidence of this run so far (provebench format; deterministic)."""
        self._settle()
        return Evidence(
            scenario_id=self.scenario.id,
            final_answer=final_answer,
            reasoning_trace=reasoning_trace,
            actions=list(self._actions),
            final_answer_after_step=self.steps if final_answer else None,
            audit_log=list(self._audit),
            state_snapshots=list(self._snapshots),
            metadata=NonScoringMetadata(
                agent_name=agent_name,
                agent_version=agent_version,
                agent_isolation=agent_isolation,
                source_format="provebench",
                provider=self._provider_record(),
            ),
            provider_failure=provider_failure or self._own_failure(),
        )

    # What a session recorded elsewhere adds (a provider's: `si.provider._session`); nothing here.
    def _settle(self) -> None:
        """Complete the record before it becomes evidence."""

    def _provider_record(self) -> dict[str, JsonValue] | None:
        return None

    def _own_failure(self) -> str | None:
        return None


__all__ = ["Recording", "recordable_arguments"]
