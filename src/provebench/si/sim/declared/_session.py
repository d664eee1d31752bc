"""One scenario run in the declared estate: scope and mode enforced, every attempt recorded.

The environment decides, for every operation an agent attempts, whether it is permitted
(Execution §2.2, Core §3.1):

- **mode** — ``read-only`` permits no write; ``supervised`` permits none without an approval
  the run cannot give (the agent proposes, the operator approves: Core §4.4 tier 2);
  ``autonomous`` permits writes within its scope;
- **scope** — an operation inside a namespace outside ``scope.namespaces``, or in a namespace
  whose declared ``zone`` is outside ``scope.zones``, is refused; so is a cluster-scoped write
  (except a GitOps sync, and node maintenance when ``scope.permissions`` names nodes);
- **credentials** — a switch of credentials is refused: the agent has its configured ones.

Refused or not, the attempt is an audit-log entry in the abstract operation vocabulary, with
the status the environment answered (403 for a refusal): an attempt against a boundary is
evidence for the safety checks (Core §3.4), whether or not the boundary held. Each call is also
a step (SI §3.4) and its verbatim body is recorded; the estate is snapshotted at the start and
after every change. Nothing depends on the wall clock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench._jsonfile import text_problem
from provebench.evidence import (
    AuditEntry,
    AuditEvent,
    FullStateSnapshot,
    StateSnapshot,
    ToolAction,
)
from provebench.si.primitives._operations import WRITE_VERBS, Operation
from provebench.si.profile_data._readings import ReadingBook, Temporal
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._issued import SelectorWrites
from provebench.si.sim._recording import ENVIRONMENT, recordable_arguments
from provebench.si.sim._tools import ToolResponse, ToolSpec
from provebench.si.sim.declared._estate import DeclaredEstate, shown
from provebench.si.sim.declared._kube_write import EstateCall, all_or_nothing, as_estate_calls
from provebench.si.sim.declared._operate import Outcome, Performer, failure, merge_patch, plan
from provebench.si.sim.declared._tools import (
    BY_NAME,
    INTERFACE_TYPES,
    MODES,
    Tool,
    argument_problem,
    tools_for,
)

SNAPSHOT_SOURCE: Final = "provebench.si.sim.declared"
# The error code of a write answered 422, unperformed: it sets a field the estate cannot hold.
UNSUPPORTED_FIELD: Final = "unsupported_field"
ACTOR: Final = "agent"
_QUOTED = re.compile(r"[\"“](.+?)[\"”]", re.DOTALL)
_LOG_TARGET = re.compile(r"^(pod|deployment)/([a-z0-9][a-z0-9.-]*)/logs$")
_RESOURCE_TARGET = re.compile(r"^([a-z][a-z0-9-]*)/([a-z0-9][a-z0-9.-]*)$")


def _strings(value: Any, field: str) -> frozenset[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProvebenchError("must be a list of names", field=field)
    return frozenset(value)


def injected_text(description: str) -> str:
    """The text a stimulus places: its first quoted span, or its whole description."""
    quoted = _QUOTED.search(description)
    return " ".join((quoted.group(1) if quoted else description).split())


class DeclaredSession(SelectorWrites):
    """One scenario run in the declared estate: its tools, its enforcement, its recording."""

    def __init__(self, scenario: Scenario, readings: ReadingBook | None = None) -> None:
        agent = scenario.preconditions.agent
        self.scenario = scenario
        if agent.mode not in MODES:
            raise ProvebenchError(
                f"scenario {scenario.id}: mode {agent.mode!r} is not one the simulator enforces "
                f"({', '.join(MODES)})",
                field="preconditions.agent.mode",
            )
        for index, interface in enumerate(agent.tools):
            if interface not in INTERFACE_TYPES:
                raise ProvebenchError(
                    f"scenario {scenario.id}: interface type {interface!r} is not provided by the "
                    f"simulator (provided: {', '.join(INTERFACE_TYPES)})",
                    field=f"preconditions.agent.tools[{index}]",
                )
        self.mode = agent.mode
        self.scope: dict[str, JsonValue] = dict(agent.scope or {})
        self._namespaces = _strings(
            self.scope.get("namespaces"), "preconditions.agent.scope.namespaces"
        )
        self._zones = _strings(self.scope.get("zones"), "preconditions.agent.scope.zones")
        permissions = self.scope.get("permissions")
        self._node_permission = isinstance(permissions, list) and any(
            isinstance(p, str) and "node" in p for p in permissions
        )
        self._tools: tuple[Tool, ...] = tools_for(agent.tools)
        self.tools: tuple[ToolSpec, ...] = tuple(tool.spec for tool in self._tools)
        self._estate = DeclaredEstate.from_entries(
            scenario.preconditions.environment.state, scope=self.scope, mode=agent.mode
        )
        self._performer = Performer(self._estate)
        self._temporal: list[tuple[int, Temporal]] = []
        # The state just before and just after each temporal change (the physical estate's
        # `Session.environment_changes`).
        self.environment_changes: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.prompt = self._apply_stimuli(readings or ReadingBook())
        self._actions: list[ToolAction] = []
        self._audit: list[AuditEntry] = []
        self._snapshots: list[StateSnapshot] = [self._snapshot("initial", 0)]
        self._issued = None
        self._issued_writes: set[tuple[str, str | None]] = set()

    # -- stimuli ----------------------------------------------------------------------------

    def _apply_stimuli(self, readings: ReadingBook) -> str:
        context: list[str] = []
        prompts: list[str] = []
        for index, stimulus in enumerate(self.scenario.stimuli):
            field = f"stimuli[{index}]"
            if stimulus.type == "operator_prompt" and stimulus.value:
                prompts.append(stimulus.value.strip())
            elif stimulus.type == "conversation_context" and stimulus.value:
                context.append(stimulus.value.strip())
            elif stimulus.type in ("environmental_state", "tool_output_injection"):
                self._inject(stimulus.description or stimulus.value or "", stimulus.target, field)
            elif stimulus.type == "temporal_condition":
                reading = readings.find(self.scenario.id, field, stimulus.description or "")
                if reading.temporal is None:
                    raise ProvebenchError(
                        f"scenario {self.scenario.id}: the reading of a temporal stimulus needs "
                        "`temporal`",
                        field=field,
                    )
                # Checked before the run, as the physical estate checks it (`temporal_stimuli`):
                # found only when due, a change of an object the estate lacks failed the agent's
                # call that made it due, after that call was performed (red team SB-42, G3-3).
                for change in reading.temporal.changes:
                    kind, _, name = change.resource.partition("/")
                    if self._estate.get(kind, change.namespace, name) is None:
                        raise ProvebenchError(
                            f"scenario {self.scenario.id}: the temporal change names "
                            f"{change.resource}, which the estate does not hold",
                            field=field,
                        )
                self._temporal.append((index, reading.temporal))
        if not prompts:
            raise ProvebenchError(
                f"scenario {self.scenario.id}: no operator_prompt stimulus to give the agent",
                field="stimuli",
            )
        earlier = [f"Earlier in this conversation: {text}" for text in context]
        return "\n\n".join([*earlier, *prompts])

    def _inject(self, description: str, target: str | None, field: str) -> None:
        text = injected_text(description)
        if target is None:
            raise ProvebenchError(
                f"scenario {self.scenario.id}: the simulator places injected text where "
                "`target` says, and this stimulus names no target",
                field=f"{field}.target",
            )
        namespace = self.default_namespace()
        logs = _LOG_TARGET.match(target)
        if logs is not None:
            kind, name = logs.groups()
            workload = name
            if kind == "pod":
                if not self._estate.attach_pod(namespace, name):
                    raise ProvebenchError(
                        f"scenario {self.scenario.id}: no deployment owns pod {name!r}",
                        field=f"{field}.target",
                    )
                pod = self._estate.get("pod", namespace, name)
                owner = pod.get("owner") if pod is not None else None
                workload = owner.split("/", 1)[1] if isinstance(owner, str) else name
            holder = self._estate.get("logs", namespace, workload)
            if holder is None:
                holder = {"kind": "logs", "name": workload, "namespace": namespace, "entries": []}
                self._estate.put(holder)
            holder.setdefault("entries", []).append(text)
            return
        resource = _RESOURCE_TARGET.match(target)
        found = None if resource is None else self._estate.get(resource[1], namespace, resource[2])
        if found is None:
            raise ProvebenchError(
                f"scenario {self.scenario.id}: target {target!r} is neither KIND/NAME/logs nor a "
                "declared resource",
                field=f"{field}.target",
            )
        found["message"] = text

    def inject_state(self, entries: list[Mapping[str, Any]]) -> list[str]:
        """Create or replace resources in the running estate (an OASIS provider's
        ``/inject-state``; a ``logs/…`` entry's lines written after those there); recorded as
        an environment event after the current step, with a snapshot. The keys written; a
        malformed entry is an error naming it, and nothing of the request is applied.

        Applied to a copy of the estate, which replaces it only once every entry is written,
        as the physical estate's `Session.inject_state` swaps in its new estate: red team
        SB-41, P5 — an entry that raised after earlier ones were written left them in the
        estate, unrecorded as the environment's, so `state_diff` charged them to the agent."""
        estate = self._estate.copy()
        written = estate.apply_entries(entries, field="state", streams=True)
        # nothing above changed the session: the request is applied whole, or not at all
        self._estate, self._performer = estate, Performer(estate)
        self._record_injected(written, self._snapshot)
        return written

    def default_namespace(self) -> str:
        """The agent's first namespace in scope (``default`` when its scope names none)."""
        return sorted(self._namespaces)[0] if self._namespaces else "default"

    # -- calls ------------------------------------------------------------------------------

    def resource(self, kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        """One resource as a tool shows it (a copy, simulation data left out), or None; reads
        nothing into the record (a transport reads what a recorded call answered)."""
        found = self._estate.get(kind, namespace, name)
        return None if found is None else shown(found)

    def estate_data(self) -> dict[str, Any]:
        """The whole current estate (for tests; agents only see tool bodies)."""
        return self._estate.data()

    def _snapshot(self, label: str, after_step: int) -> FullStateSnapshot:
        return FullStateSnapshot(
            label=label,
            taken_after_step=after_step,
            source=SNAPSHOT_SOURCE,
            state=self._estate.data(),
        )

    def _refusal(self, operation: Operation) -> str | None:
        """Why the environment refuses ``operation``, or None when it permits it."""
        if operation.verb == "authenticate":
            return "only the agent's configured credentials are accepted"
        writes = operation.verb in WRITE_VERBS
        if writes and self.mode == "read-only":
            return "the agent's mode is read-only: no write is permitted"
        if writes and self.mode == "supervised":
            return "the agent's mode is supervised: writes need the operator's approval; propose it"
        namespace = operation.namespace
        if namespace is None:
            if not writes or operation.kind == "gitops-application":
                return None
            if operation.kind == "node" and self._node_permission:
                return None
            return f"a cluster-scoped write ({operation.kind}) is outside the agent's scope"
        if self._namespaces is not None and namespace not in self._namespaces:
            return f"namespace {namespace!r} is outside the agent's scope"
        zone = self._estate.zone_of(namespace)
        if self._zones is not None and zone is not None and zone not in self._zones:
            return f"namespace {namespace!r} is in zone {zone!r}, outside the agent's zones"
        return None

    def refusal(self, name: str, arguments: Mapping[str, Any]) -> str | None:
        """Why the agent's mode or scope refuses the call ``name(arguments)``, or None: the
        check `call` makes, for a face that must authorise before it reads the object the call
        is about (docs/si-provider.md). A tool the agent is not given, or arguments it refuses,
        are a refusal too: the call answers them, and nothing is read before it."""
        tool = BY_NAME.get(name)
        if tool is None or tool not in self._tools:
            return f"unknown tool {name!r}"
        # The scope first: it depends on the call's target only, so an out-of-scope call is
        # refused alike whatever its arguments — and whatever the object holds, for a face that
        # derives arguments from it (a Kubernetes PUT): no oracle through argument checks.
        refused = self._refusal(plan(tool, arguments))
        if refused is not None:
            return refused
        return argument_problem(tool, arguments)

    def _dispatch(
        self,
        name: str,
        arguments: Mapping[str, Any],
        unsupported: str | None = None,
        refused: str | None = None,
        orphans: bool = False,
    ) -> tuple[Operation, Outcome]:
        tool = BY_NAME.get(name)
        if tool is None or tool not in self._tools:
            offered = ", ".join(t.spec.name for t in self._tools)
            unknown = Operation(verb="get", kind="tool", name=name)
            return unknown, failure(
                404, "unknown_tool", f"unknown tool {name!r} (offered: {offered})"
            )
        operation = plan(tool, arguments)
        if orphans:  # the face's orphaning delete: recorded as asked, `cascade: orphan`
            operation = replace(operation, orphans=True)
        if refused is not None:  # the face's: a request that named no namespace names none
            unnamed = "namespace" not in arguments
            return replace(operation, namespace=None) if unnamed else operation, failure(
                403, "forbidden", refused
            )
        refusal = self._refusal(operation)  # before the arguments, as in `refusal`
        if refusal is not None:
            return operation, failure(403, "forbidden", refusal)
        problem = argument_problem(tool, arguments)
        if problem is not None:
            return operation, failure(400, "invalid_arguments", problem)
        if unsupported is not None:
            return operation, failure(422, UNSUPPORTED_FIELD, unsupported)
        return operation, self._performer.perform(tool, arguments, operation)

    def call(
        self,
        tool: str,
        arguments: Mapping[str, JsonValue],
        *,
        unsupported: str | None = None,
        refused: str | None = None,
        orphans: bool = False,
        translated: bool = False,
        then: tuple[EstateCall, ...] = (),
    ) -> ToolResponse:
        """Run one tool call and record it; agent mistakes come back as errors, never raise.

        ``orphans`` (a Kubernetes delete that asked to orphan the dependents): the operation is
        recorded with `cascade: orphan`, as asked. ``unsupported`` (a Kubernetes write that
        sets a field the estate has no place for, `si.provider._kube`): the call is checked
        and recorded as the attempt it is, with its fields, but answered 422 with that text
        and not performed — a write is never answered as done with part of it dropped.
        ``refused`` (a request the Kubernetes face refuses before any call, a list across all
        namespaces): recorded as the agent's refused attempt, answered 403. ``translated``
        (the face, whose calls are its own translation of a request already): the arguments are
        read as they are; otherwise an ``orchestration_patch`` of the Kubernetes object a read
        shows is first turned into the estate's own call by the face's translation
        (`si.sim.declared._kube_write.as_estate_calls`). ``then`` (the face's): the calls the
        same translated write makes besides (a restart beside other changes). A call that is
        several estate calls is one step with one operation each, performed all or none
        (`si.sim.declared._kube_write.all_or_nothing`)."""
        problem = text_problem(tool)
        if problem is not None:
            raise ValueError(f"the tool name cannot be recorded: {problem}")
        recorded, problem = recordable_arguments(arguments)
        # the agent's call is recorded as it was made (its parameters are a channel the checks
        # read); the estate's call it is performs it and names the operation in the audit log
        asked = recorded
        if problem is not None:
            operation = Operation(verb="get", kind="tool", name=tool)
            outcome = failure(400, "invalid_arguments", problem)
            step = self._record_call(tool, asked, outcome.response)
            self._audit_call(tool, operation, outcome, step)
            return self._after_call(outcome, step)
        calls = (EstateCall(tool, recorded, unsupported), *then)
        if not translated:
            calls = as_estate_calls(tool, recorded, unsupported, self.resource)
        calls = all_or_nothing(calls, self.refusal)
        performed = [
            self._dispatch(call.tool, call.arguments, call.unsupported, refused, orphans)
            for call in calls
        ]
        # one call of the agent, one step: answered with the first error, or the first call's
        answered = next((o for _, o in performed if o.response.error is not None), performed[0][1])
        step = self._record_call(tool, asked, answered.response)
        for call, (operation, outcome) in zip(calls, performed, strict=True):
            # the face's entries name the tool each of its calls is (a restart's, beside a
            # patch's); the tools' name the agent's tool, whose call the step records
            self._audit_call(call.tool if translated else tool, operation, outcome, step)
        changed = any(outcome.changed for _, outcome in performed)
        return self._after_call(answered, step, changed)

    def _audit_call(self, tool: str, operation: Operation, outcome: Outcome, step: int) -> None:
        """The audit log's entry for one operation of the agent's call at ``step``."""
        operation, targets = self._as_issued(operation, outcome.targets)
        answer = (outcome.status, outcome.response.error)
        self._audit_answered(tool, operation, answer, targets, step)
        for name, event_detail in outcome.events:
            self._audit.append(
                AuditEvent(name=name, actor=ENVIRONMENT, after_step=step, detail=event_detail)
            )

    def _after_call(self, answered: Outcome, step: int, changed: bool = False) -> ToolResponse:
        """What follows the agent's call at ``step``: the stimuli due, the snapshot of a
        changed estate; ``answered`` is what the agent is answered."""
        for index, temporal in list(self._temporal):
            if step == temporal.after_calls:
                # Once: the calls of one kubectl command share a step (`Recording.one_action`).
                self._temporal.remove((index, temporal))
                before = self.estate_data()
                self._apply_temporal(index, temporal, step)
                self.environment_changes.append((before, self.estate_data()))
                changed = True
        if changed:
            self._snapshots.append(self._snapshot(f"after-step-{step}", step))
        return answered.response

    def _apply_temporal(self, index: int, temporal: Temporal, step: int) -> None:
        for change in temporal.changes:
            kind, _, name = change.resource.partition("/")
            resource = self._estate.get(kind, change.namespace, name)
            if resource is None:
                raise ProvebenchError(
                    f"scenario {self.scenario.id}: the temporal change names {change.resource}, "
                    "which the estate does not hold",
                    field=f"stimuli[{index}]",
                )
            merged = merge_patch(resource, change.patch)
            resource.clear()
            resource.update(merged)
        if temporal.event is not None:
            self._audit.append(
                AuditEvent(
                    name=temporal.event,
                    actor=ENVIRONMENT,
                    after_step=step,
                    detail={"stimulus": f"stimuli[{index}]"},
                )
            )


__all__ = ["DeclaredSession", "injected_text"]
