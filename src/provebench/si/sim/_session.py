"""One scenario run in the simulator: the injected estate, its tools, and the recording.

Every call is a step (SI §3.4), whether it succeeded or not, and is recorded three ways: the
action with its verbatim body (what the agent saw), an audit-log entry (what the environment
observed), and a full state snapshot whenever the call changed the estate. Nothing depends on
the wall clock, so the same calls give the same evidence bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

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
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._derive import Observation, observe
from provebench.si.sim._endpoints import check_declared_endpoints
from provebench.si.sim._estate import DEFAULT_NAMESPACE, Estate, resource_key
from provebench.si.sim._handlers import UNSUPPORTED, Handled, failure, manifest_of, perform
from provebench.si.sim._held import HeldObjects, held_entries
from provebench.si.sim._inject import build_scene
from provebench.si.sim._issued import SelectorWrites
from provebench.si.sim._recording import ENVIRONMENT, recordable_arguments
from provebench.si.sim._status_word import reported_state
from provebench.si.sim._stimuli import (
    INJECTED,
    apply_temporal,
    injection_namespace,
    place_injections,
    placed_here,
    temporal_stimuli,
)
from provebench.si.sim._tools import ToolResponse, ToolSpec
from provebench.si.sim.declared._kube_write import EstateCall, all_or_nothing, as_estate_calls
from provebench.si.sim.declared._operate import plan as declared_operation
from provebench.si.sim.declared._tools import INTERFACE_TYPES as DECLARED_INTERFACE_TYPES
from provebench.si.sim.declared._tools import MODES as DECLARED_MODES
from provebench.si.sim.declared._tools import Tool, argument_problem, tools_for

SNAPSHOT_SOURCE = "provebench.si.sim"
ACTOR = "agent"
# The interface types the physical estate answers: every declared one — those whose objects it
# holds no model of (dashboards, GitOps applications, database migrations) answered about the
# objects it holds as the declared estate does (`si.sim._held`).
INTERFACE_TYPES = tuple(DECLARED_INTERFACE_TYPES)
# The one mode that grants changes; in the others a write is refused when it is attempted,
# as in the declared estate (the tools are the same in every mode).
WRITE_MODES = frozenset({"autonomous"})


def check_interfaces(scenario: Scenario) -> None:
    """The scenario's interface types are ones the physical estate provides, and its mode one
    the simulator enforces (as the declared estate checks it), or an error naming the field."""
    mode = scenario.preconditions.agent.mode
    if mode not in DECLARED_MODES:
        raise ProvebenchError(
            f"mode {mode!r} is not one the simulator enforces ({', '.join(DECLARED_MODES)})",
            field="preconditions.agent.mode",
        )
    for index, interface in enumerate(scenario.preconditions.agent.tools):
        if interface not in INTERFACE_TYPES:
            raise ProvebenchError(
                f"interface type {interface!r} is not provided by the simulator "
                f"(provided: {', '.join(INTERFACE_TYPES)})",
                field=f"preconditions.agent.tools[{index}]",
            )


def check_stimuli(scenario: Scenario) -> None:
    """The scenario's stimuli are ones the physical estate places, or an error naming the
    first that is not: operator prompts, a temporal condition, and text injected into a
    workload's logs (`si.sim._stimuli`), each as the declared estate places it. Earlier
    conversation and text injected into a resource are placed by the declared estate only
    (`si.sim.declared._session`), and a scenario that ran without one would test nothing it
    says (a prompt injection never read passes vacuously: docs/si-profile.md, "Do the two
    estates agree?")."""
    for index, stimulus in enumerate(scenario.stimuli):
        if not placed_here(stimulus.type, stimulus.target):
            where = f" aimed at {stimulus.target!r}" if stimulus.type in INJECTED else ""
            raise ProvebenchError(
                f"stimulus type {stimulus.type!r}{where} is not placed by the physical estate, "
                "which places operator prompts, temporal conditions and text injected into a "
                "workload's logs",
                field=f"stimuli[{index}]",
            )


def _scope_names(scope: Mapping[str, Any], part: str) -> frozenset[str] | None:
    """``scope.namespaces`` or ``scope.zones``: None when not declared (no limit)."""
    names = scope.get(part)
    if names is None:
        return None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ProvebenchError(
            f"must be a list of {part[:-1]} names", field=f"preconditions.agent.scope.{part}"
        )
    return frozenset(names)


class Session(SelectorWrites):
    """One scenario run in the simulator: the injected estate, its tools, the recording."""

    def __init__(
        self, scenario: Scenario, estate: Estate, readings: ReadingBook | None = None
    ) -> None:
        agent = scenario.preconditions.agent
        self.scenario = scenario
        self.prompt = "\n".join(
            s.value for s in scenario.stimuli if s.type == "operator_prompt" and s.value
        )
        self.mode = agent.mode
        self.scope: dict[str, JsonValue] = dict(agent.scope or {})
        offered = tools_for(agent.tools)
        self.tools: tuple[ToolSpec, ...] = tuple(tool.spec for tool in offered)
        self._namespaces = _scope_names(self.scope, "namespaces")
        self._zones = _scope_names(self.scope, "zones")
        permissions = self.scope.get("permissions")
        # node maintenance granted by name, as the declared estate grants it
        self._node_permission = isinstance(permissions, list) and any(
            isinstance(p, str) and "node" in p for p in permissions
        )
        # the objects of kinds the model does not simulate, held as the declared estate holds
        # them (`si.sim._held`)
        self._held = HeldObjects(held_entries(scenario.preconditions.environment.state or []))
        self._by_name = {tool.spec.name: tool for tool in offered}
        # the temporal stimuli still due, each with its reading (`si.sim._stimuli`)
        self._temporal = temporal_stimuli(scenario, estate, readings or ReadingBook())
        # The state just before and just after each temporal change, in order: the
        # environment's own acts, which a provider's `state_diff` never charges to the agent.
        self.environment_changes: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self._estate = estate
        self._observation: Observation = observe(estate)
        self._actions: list[ToolAction] = []
        self._audit: list[AuditEntry] = []
        self._snapshots: list[StateSnapshot] = [self._snapshot("initial", 0)]
        self._issued = None
        self._issued_writes: set[tuple[str, str | None]] = set()

    @classmethod
    def start(cls, scenario: Scenario, readings: ReadingBook | None = None) -> Session:
        """Build the injected estate of ``scenario``, with the text its stimuli inject (in the
        logs of a workload of the agent's first namespace, as the declared estate places it);
        bad input names the scenario field."""
        check_interfaces(scenario)
        check_stimuli(scenario)
        scene = build_scene(scenario)
        _scope_names(dict(scenario.preconditions.agent.scope or {}), "namespaces")  # checked
        namespace = injection_namespace(scenario)
        session = cls(scenario, place_injections(scenario, scene.injected, namespace), readings)
        # a service's declared endpoints are the author's note of what the estate derives
        check_declared_endpoints(
            scenario.preconditions.environment.state or [],
            session.observation,
            field="preconditions.environment.state",
        )
        return session

    def inject_state(self, entries: list[Mapping[str, Any]]) -> list[str]:
        """Create or replace objects in the running estate (an OASIS provider's
        ``/inject-state``, provider-guide §4.4: the state a runner places for a stimulus), as
        the declared estate's `inject_state` does: each entry in the shape of
        ``preconditions.environment.state`` and validated as there — a resource the estate
        derives from (a ConfigMap, a Secret, a deployment, a pod …), a declared observation
        (``alert/…``, ``logs/…``, ``events/…`` …), a held object — after which what the tools
        show is derived again (a deployment's pods, their states, events and endpoints).

        Recorded as the environment's event after the current step, with a snapshot, so no
        change it makes is read as the agent's (SI §3.4). The keys written. A malformed entry
        (or a service whose declared endpoints its pods do not agree with) is an error naming
        ``state[i]…``, and nothing of the request is applied."""
        over = Estate.from_entries(entries, field="state")
        held, held_written = self._held.injected(entries, field="state")
        estate = self._estate.injected(over)
        observation = observe(estate)
        check_declared_endpoints(entries, observation, field="state")
        # nothing above changed the session: the request is applied whole, or not at all
        self._estate, self._observation, self._held = estate, observation, held
        written = [*over.stated_keys(), *held_written]
        self._record_injected(written, self._snapshot)
        return written

    @property
    def observation(self) -> Observation:
        """What the tools currently show (for tests and checks; agents only see tool bodies)."""
        return self._observation

    def _snapshot(self, label: str, after_step: int) -> FullStateSnapshot:
        return FullStateSnapshot(
            label=label,
            taken_after_step=after_step,
            source=SNAPSHOT_SOURCE,
            state=self.estate_data(),
        )

    def default_namespace(self) -> str:
        """The agent's first namespace in scope (``default`` when its scope names none)."""
        return sorted(self._namespaces)[0] if self._namespaces else DEFAULT_NAMESPACE

    def estate_data(self) -> dict[str, Any]:
        """The whole current estate (the state an environment reports), each deployment with
        its status word (`reported_state`), and the held objects under the declared estate's
        keys (`si.sim._held`), as its snapshots hold it."""
        return {**reported_state(self._observation), **self._held.data()}

    def resource(self, kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        """One object's Kubernetes manifest as the estate derives it, or None; reads nothing
        into the record (the Kubernetes face reads back what a recorded call answered). A held
        object is its declared fields, as the declared estate answers it."""
        if self._held.answers("", kind):
            return self._held.resource(kind, namespace, name)
        return manifest_of(self._observation, kind, namespace or DEFAULT_NAMESPACE, name)

    def refusal(self, name: str, arguments: Mapping[str, Any]) -> str | None:
        """Why the agent's mode or scope (or the tool's schema) refuses the call, or None: the
        check `call` makes, for a face that must authorise before it reads the object."""
        tool = self._by_name.get(name)
        if tool is None:
            return f"unknown tool {name!r}"
        refused = self._refusal(declared_operation(tool, arguments))
        return refused if refused is not None else argument_problem(tool, arguments)

    def _refusal(self, operation: Operation) -> str | None:
        """Why the agent's mode or scope refuses ``operation``, or None."""
        if operation.verb == "authenticate":
            return None  # answered by its handler: only the configured credentials count
        writes = operation.verb in WRITE_VERBS
        if writes and self.mode not in WRITE_MODES:
            return f"the agent's mode is {self.mode}: no write is permitted"
        namespace = operation.namespace
        if namespace is None:
            # a GitOps sync, and node maintenance the scope names, as the declared estate
            # permits them
            granted = operation.kind == "gitops-application" or (
                operation.kind == "node" and self._node_permission
            )
            if not writes or granted:
                return None
            return f"a cluster-scoped write ({operation.kind}) is outside the agent's scope"
        if self._namespaces is not None and namespace not in self._namespaces:
            return f"namespace {namespace!r} is outside the agent's scope"
        # a namespace's declared zone outside `scope.zones`, as the declared estate refuses it
        # (Execution §2.2: the environment enforces the scope, reads included)
        zone = self._estate.namespace(namespace).zone
        if self._zones is not None and zone is not None and zone not in self._zones:
            return f"namespace {namespace!r} is in zone {zone!r}, outside the agent's zones"
        return None

    def _dispatch(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        unsupported: str | None = None,
        refused: str | None = None,
        orphans: bool = False,
    ) -> Handled:
        chosen: Tool | None = self._by_name.get(tool)
        if chosen is None:
            offered = ", ".join(spec.name for spec in self.tools)
            message = f"unknown tool {tool!r} (offered: {offered})"
            unknown = Operation(verb="get", kind="tool", name=tool)
            return Handled(failure("unknown_tool", message), unknown)
        operation = declared_operation(chosen, arguments)
        if orphans:  # the face's orphaning delete: recorded as asked, `cascade: orphan`
            operation = replace(operation, orphans=True)
        if refused is not None:  # the face's: a request that named no namespace names none
            unnamed = "namespace" not in arguments
            refused_operation = replace(operation, namespace=None) if unnamed else operation
            return Handled(failure("forbidden", refused), refused_operation)
        refusal = self._refusal(operation)
        if refusal is not None:
            return Handled(failure("forbidden", refusal), operation)
        problem = argument_problem(chosen, arguments)
        if problem is not None:
            return Handled(failure("invalid_arguments", problem), operation)
        if unsupported is not None:
            return Handled(failure(UNSUPPORTED, unsupported), operation)
        if self._held.answers(tool, operation.kind):
            return self._held_call(chosen, arguments, operation)
        handled = perform(self._observation, tool, chosen.verb, arguments)
        if operation.kind == "namespace" and operation.verb == "delete" and handled.changed:
            self._held.delete_namespace(operation.name or "")  # what it holds goes with it
        return self._drifted(operation, handled)

    def _drifted(self, operation: Operation, handled: Handled) -> Handled:
        """A performed write of a deployment GitOps manages puts its application
        ``OutOfSync``, the environment's ``GitOpsDrift`` after it (`HeldObjects.drifted`, the
        declared estate's rule: a write that changed the deployment, a delete or a restart
        aside)."""
        if handled.changed is None or operation.kind != "deployment":
            return handled
        if operation.verb in ("delete", "restart") or operation.name is None:
            return handled
        key = resource_key("deployment", operation.namespace or DEFAULT_NAMESPACE, operation.name)
        if key not in self._estate or self._estate.raw(key).get("managed_by") != "gitops":
            return handled
        drift = self._held.drifted(operation.name)
        return handled if drift is None else replace(handled, events=(*handled.events, drift))

    def _held_call(self, tool: Tool, arguments: Mapping[str, Any], operation: Operation) -> Handled:
        """A call about held objects, performed as the declared estate performs it: its
        answer, status, the objects it reached and what the environment did; a change of them
        is a change of the estate (snapshotted)."""
        outcome = self._held.perform(tool, arguments, operation)
        changed = self._estate if outcome.changed else None
        if outcome.changed and operation.kind == "hpa" and operation.verb != "delete":
            changed = self._autoscaled(operation.name or "", operation.namespace) or changed
        return Handled(
            outcome.response,
            operation,
            changed,
            outcome.targets,
            outcome.events,
            outcome.status,
        )

    def _autoscaled(self, name: str, namespace: str | None) -> Estate | None:
        """The estate after the autoscaler ``name``'s controller brought its target
        deployment within its bounds, or None when it changed nothing (`HeldObjects.bounded`,
        the declared estate's rule: a written autoscaler bounds its target as a scale does)."""
        target = self._held.target_of(name, namespace)
        if target is None:
            return None
        key = resource_key("deployment", namespace or DEFAULT_NAMESPACE, target)
        if key not in self._estate:
            return None
        held = self._held.bounded(name, namespace, self._estate.deployment(key).replicas)
        if held is None:
            return None
        data = self._estate.copy_data()
        data[key]["replicas"] = held
        return self._estate.written(data)

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
        recorded with `cascade: orphan`, as asked.

        ``unsupported`` (a Kubernetes write that sets a field the estate cannot hold): the call
        is checked and recorded as the attempt it is, but answered 422 and not performed.
        ``refused`` (a request the Kubernetes face refuses before any call, a list across all
        namespaces): the call is recorded as the agent's refused attempt, answered 403.

        ``translated`` (the Kubernetes face, whose calls are its own translation of a request
        already): the arguments are read as they are. Otherwise an ``orchestration_patch`` of
        the Kubernetes object a read shows is first turned into the estate's own call, by the
        face's translation (`si.sim.declared._kube_write.as_estate_calls`). ``then`` (the
        face's): the calls the same translated write makes besides (a restart beside other
        changes). A call that is several estate calls is one step with one operation each,
        performed all or none (`si.sim.declared._kube_write.all_or_nothing`).

        A tool name that is not text (a lone surrogate; not a string) cannot be recorded at all
        and raises `ValueError`: the caller's misuse of the interface, not a step.
        """
        problem = text_problem(tool)
        if problem is not None:
            raise ValueError(f"the tool name cannot be recorded: {problem}")
        recorded, problem = recordable_arguments(arguments)
        # the agent's call is recorded as it was made (its parameters are a channel the checks
        # read); the estate's call it is performs it and names the operation in the audit log
        asked = recorded
        if problem is not None:
            unknown = Operation(verb="get", kind="tool", name=tool)
            handled = Handled(failure("invalid_arguments", problem), unknown)
            step = self._record_call(tool, asked, handled.response)
            self._audit_handled(tool, handled, handled.operation, (), step)
            if self._temporal_due(step):
                self._snapshots.append(self._snapshot(f"after-step-{step}", step))
            return handled.response
        calls = (EstateCall(tool, recorded, unsupported), *then)
        if not translated:
            calls = as_estate_calls(tool, recorded, unsupported, self.resource)
        calls = all_or_nothing(calls, self.refusal)
        performed = []
        changed = False
        for call in calls:
            handled = self._dispatch(call.tool, call.arguments, call.unsupported, refused, orphans)
            # the face's entries name the tool each of its calls is (a restart's, beside a
            # patch's); the tools' name the agent's tool, whose call the step records
            named_tool = call.tool if translated else tool
            performed.append(
                (named_tool, handled, *self._as_issued(handled.operation, handled.targets))
            )
            if handled.changed is not None:  # the next call is made on the estate this one left
                self._estate = handled.changed
                self._observation = observe(handled.changed)
                changed = True
        # one call of the agent, one step: answered with the first error, or the first call's
        handled_calls = [handled for _, handled, _, _ in performed]
        answered = next((h for h in handled_calls if h.response.error), handled_calls[0])
        step = self._record_call(tool, asked, answered.response)
        for named_tool, handled, operation, targets in performed:
            self._audit_handled(named_tool, handled, operation, targets, step)
        if self._temporal_due(step) or changed:
            self._snapshots.append(self._snapshot(f"after-step-{step}", step))
        return answered.response

    def _temporal_due(self, step: int) -> bool:
        """Apply each temporal stimulus due after the call at ``step`` — once: the calls of
        one kubectl command share a step — and record its event, as the declared estate does;
        whether any was."""
        due = [(index, t) for index, t in self._temporal if t.after_calls == step]
        for index, temporal in due:
            self._temporal.remove((index, temporal))
            before = self.estate_data()
            self._estate = apply_temporal(self._estate, temporal)
            self._observation = observe(self._estate)
            self.environment_changes.append((before, self.estate_data()))
            if temporal.event is not None:
                detail: dict[str, JsonValue] = {"stimulus": f"stimuli[{index}]"}
                self._audit.append(
                    AuditEvent(
                        name=temporal.event, actor=ENVIRONMENT, after_step=step, detail=detail
                    )
                )
        return bool(due)

    def _audit_handled(
        self,
        tool: str,
        handled: Handled,
        operation: Operation,
        targets: tuple[str, ...],
        step: int,
    ) -> None:
        """The audit log's entry for one operation of the agent's call at ``step``."""
        answer = (handled.status_code, handled.response.error)
        self._audit_answered(tool, operation, answer, targets, step)
        for name, detail in handled.events:  # what the environment did, as it records it
            self._audit.append(
                AuditEvent(name=name, actor=ENVIRONMENT, after_step=step, detail=detail)
            )


__all__ = ["INTERFACE_TYPES", "Session", "check_interfaces", "check_stimuli"]
