"""One scenario run against an OASIS provider: provision, the agent's calls over HTTP, observe,
teardown (provider-guide §4; Core §3.4, §3.7).

`ProviderSession` is what the run loop (`provebench.si.agents._run.run_agent`) needs of a
session, with the environment somewhere else: each tool call of the agent goes to the
environment's agent endpoint; when the agent is done the runner observes the provider's
`audit_log` and its state (`/state-snapshot` at provisioning and at the end), and those
observations are the independent evidence the verdict is scored from — the agent's own account
never is. The runner records the calls it forwarded (`actions`) as it does in process.

A runtime fault of the provider (`ProviderFault`) at any point — provisioning, a call,
observing — is kept: no further request is made for the scenario but the teardown, and the
evidence carries it as `provider_failure`, so the verdict is PROVIDER_FAILURE whatever the agent
did with the error it was shown. The teardown is always attempted (`close`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import JsonValue, ValidationError

from provebench._jsonfile import recordable_text, text_problem
from provebench.evidence import (
    ApiCallEntry,
    AuditEntry,
    FullStateSnapshot,
    StateChange,
    StateDiffSnapshot,
    StateSnapshot,
    ToolAction,
)
from provebench.si.primitives._provisioned_claims import (
    provisioned_binding_problem,
    provisioned_claims,
)
from provebench.si.provider._accounting import (
    AGENT,
    Translations,
    calls_with_entries,
    entry_problem,
    expected_operations,
    narrowed_targets,
    out_of_order,
    unaccounted_calls,
    unreflected_delete,
)
from provebench.si.provider._client import (
    ProviderClient,
    ProviderFault,
    Provisioned,
    physical_provision,
)
from provebench.si.provider._entry_statement import statement_problem
from provebench.si.provider._environment_events import (
    environment_events_of,
    event_problem,
    events_read,
    refused_restart_problem,
    with_environment_events,
)
from provebench.si.provider._explained_changes import unexplained_changes
from provebench.si.provider._fetch_held import EarlierWrite, fetch_problem
from provebench.si.provider._held_state import held_writes, unreflected_held_writes
from provebench.si.provider._kubectl import (
    KUBECTL_SPEC,
    TOOL_NAME,
    KubectlRunner,
    arguments_problem,
    require_kubectl,
)
from provebench.si.provider._kubectl_accounting import StepWindows, unaccounted_steps
from provebench.si.provider._kubectl_command import CLIENT_ACTOR, per_command, written_by
from provebench.si.provider._kubectl_selector import selector_write
from provebench.si.provider._kubectl_selector_held import SelectorCommand, held_selector_writes
from provebench.si.provider._log_reference import (
    Ended,
    LogReference,
    unshown_injection,
)
from provebench.si.provider._log_writes import generations_written
from provebench.si.provider._preflight import AcceptedProvider
from provebench.si.provider._served import ServedObjects
from provebench.si.provider._stimuli import injected_log_lines
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._recording import Recording, recordable_arguments
from provebench.si.sim._tools import ToolResponse, ToolSpec
from provebench.si.sim.declared._estate import key_of
from provebench.si.sim.declared._kube_objects import derived
from provebench.si.sim.declared._kube_write import EstateCall, as_estate_calls
from provebench.si.sim.declared._tools import tools_for

SNAPSHOT_SOURCE: Final = "oasis-provider:/state-snapshot"
DIFF_SOURCE: Final = "oasis-provider:/observe state_diff"


def prompt_of(scenario: Scenario) -> str:
    """The agent's prompt, as the in-process simulator builds it: earlier conversation first,
    then the operator prompts (the declared session's rule; a test holds the two equal)."""
    stimuli = scenario.stimuli
    context = [s.value.strip() for s in stimuli if s.type == "conversation_context" and s.value]
    prompts = [s.value.strip() for s in stimuli if s.type == "operator_prompt" and s.value]
    earlier = [f"Earlier in this conversation: {text}" for text in context]
    return "\n\n".join([*earlier, *prompts])


def state_of(resources: list[dict[str, Any]], what: str) -> dict[str, JsonValue]:
    """A `/state-snapshot` answer as a full state keyed ``kind/namespace/name``."""
    state: dict[str, JsonValue] = {}
    for index, resource in enumerate(resources):
        kind, name = resource.get("kind"), resource.get("name")
        namespace = resource.get("namespace")
        if not isinstance(kind, str) or not kind or not isinstance(name, str) or not name:
            raise ProviderFault(f"{what}: resources[{index}] has no kind and name")
        if namespace is not None and not isinstance(namespace, str):
            raise ProviderFault(f"{what}: resources[{index}].namespace is not a string")
        key = key_of(kind.lower(), namespace, name)
        if key in state:
            raise ProviderFault(f"{what}: resources[{index}] repeats {key}")
        state[key] = resource
    return state


def audit_of(
    entries: object, what: str, principal: object = None, *, last_step: int | None = None
) -> list[AuditEntry]:
    """An `audit_log` observation's entries as the evidence's audit log (provider-guide §4.5).

    The entries of the declared `agent_principal` are the agent's (the simulator's actor). With
    `last_step` (the runner's last step, where the provider's steps are the runner's), an entry
    whose `step` is past it records a call nobody made: the provider's fault, never a record
    the evidence could not hold (Core §3.7)."""
    if principal is not None and (not isinstance(principal, str) or not principal):
        raise ProviderFault(f"{what}: `agent_principal` is not a non-empty string")
    if not isinstance(entries, list):
        raise ProviderFault(f"{what}: `entries` is not a list")
    audit: list[AuditEntry] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ProviderFault(f"{what}: entries[{index}] is not an object")
        # a kind that is no operation, a step out of range (SI red team 21, C4)
        unheld = entry_problem(entry, len(entries))
        if unheld is not None:
            raise ProviderFault(f"{what}: entries[{index}]: {unheld}")
        body = entry.get("request_body")
        user = entry.get("user")
        if principal is not None:
            # Only the declared principal is the agent; another user named like the simulator's
            # actor is kept apart from it.
            user = AGENT if user == principal else f"user:{user}" if user == AGENT else user
        if user == CLIENT_ACTOR:
            # the actor the runner gives kubectl's own reads (`_kubectl_command`): a provider's
            # user of that name is kept apart from it
            user = f"user:{user}"
        try:
            audit.append(
                ApiCallEntry(
                    actor=user,  # validated by the model
                    verb=entry.get("verb"),
                    resource=entry.get("resource"),
                    namespace=entry.get("namespace"),
                    status_code=entry.get("status_code"),
                    after_step=entry.get("step"),
                    detail=body if isinstance(body, dict) else {},
                )
            )
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ProviderFault(f"{what}: entries[{index}] is malformed: {where}") from None
        read = audit[-1]
        assert isinstance(read, ApiCallEntry)
        # one statement, read once: an entry whose text or tool says another operation than
        # its fields is a lie, before any check reads it (SI red team 18, P1)
        contradiction = statement_problem(read.verb, read.resource, read.namespace, read.detail)
        if contradiction is not None:
            raise ProviderFault(f"{what}: entries[{index}]: {contradiction}")
        step = read.after_step
        if last_step is not None and step is not None and step > last_step:
            raise ProviderFault(
                f"{what}: entries[{index}].step {step} is past the {last_step} call(s) the "
                "runner made"
            )
    return audit


def asserted_resources(scenario: Scenario) -> list[tuple[str, str, str | None]]:
    """(kind, name, namespace) of each resource `verification.state_assertions` names."""
    found: list[tuple[str, str, str | None]] = []
    for assertion in scenario.verification.state_assertions or []:
        resource = assertion.get("resource") if isinstance(assertion, dict) else None
        if not isinstance(resource, str) or "/" not in resource:
            continue
        kind, _, name = resource.partition("/")
        namespace = assertion.get("namespace")
        entry = (kind.lower(), name, namespace if isinstance(namespace, str) else None)
        if entry not in found:
            found.append(entry)
    return found


_CHANGE_OPS: Final = {"added": "add", "removed": "remove", "modified": "replace"}


def offered_tools(
    scenario: Scenario, listed: tuple[ToolSpec, ...]
) -> tuple[tuple[ToolSpec, ...], list[str]]:
    """(the tools the agent is offered, the names of the tools the provider lists beyond them).

    The agent gets the SI profile's declared tools of the scenario's interface types, exactly as
    in process, each as provebench declares it (its description and schema: a provider's text is
    data, never the agent's instructions), where the provider lists it. A tool the provider
    lists beyond them is withheld: its operation would be the provider's to name, and the runner
    could not hold the audit log to it (Core §3.4; docs/si-provider.md, "What the runner
    offers"). A declared tool the provider lacks is the preflight's gap, not this one's."""
    declared = tuple(tool.spec for tool in tools_for(scenario.preconditions.agent.tools))
    names = {tool.name for tool in listed}
    offered = tuple(spec for spec in declared if spec.name in names)
    withheld = sorted(names - {spec.name for spec in declared})
    return offered, withheld


def changes_of(raw: object, what: str) -> list[StateChange]:
    """A `state_diff` observation's `changes` (provider-guide §4.5) as evidence records."""
    if not isinstance(raw, list):
        raise ProviderFault(f"{what}: `changes` is not a list")
    changes = []
    for index, change in enumerate(raw):
        if not isinstance(change, dict) or change.get("change") not in _CHANGE_OPS:
            raise ProviderFault(f"{what}: changes[{index}] is not {{path, change, ...}}")
        try:
            changes.append(
                StateChange(
                    path=change.get("path"),
                    op=_CHANGE_OPS[change["change"]],
                    before=change.get("before"),
                    after=change.get("after"),
                )
            )
        except ValidationError:
            raise ProviderFault(f"{what}: changes[{index}] is malformed") from None
    return changes


class ProviderSession(Recording):
    """One scenario's environment at a provider, as the run loop sees a simulator session."""

    def __init__(
        self,
        client: ProviderClient,
        accepted: AcceptedProvider,
        scenario: Scenario,
        tier: int,
        *,
        kubectl: bool = False,
    ) -> None:
        self.client = client
        self.accepted = accepted
        self.scenario = scenario
        self.prompt = prompt_of(scenario)
        self.mode = scenario.preconditions.agent.mode
        self.scope: dict[str, JsonValue] = dict(scenario.preconditions.agent.scope or {})
        self.tools: tuple[ToolSpec, ...] = ()
        self.withheld_tools: list[str] = []  # listed by the provider, never offered
        self.provider_fault: str | None = None
        self._environment: Provisioned | None = None
        self._actions: list[ToolAction] = []
        self._forwarded: list[ToolAction] = []  # the calls the provider answered
        # a forwarded write spelled as the Kubernetes object -> the estate's calls it is
        # (`_translated`): what its entries and the state are held to
        self._translations: dict[str, tuple[EstateCall, ...]] = {}
        self._snapshots: list[StateSnapshot] = []
        self._audit: list[AuditEntry] = []
        self._observed = False
        # the event names `_observe` held to the runner's own record (`event_problem`)
        self._held_events: list[str] = []
        self._events_marked = False
        # the `/inject-state` entries placed before the agent's first request, held to the
        # replies the agent was relayed (`unshown_injection`)
        self._injected: list[dict[str, Any]] = []
        # `--kubectl`: the agent's kubectl against the environment's Kubernetes endpoint, and
        # which of the provider's steps are each forwarded call's (`_kubectl_accounting`).
        self._kubectl: KubectlRunner | None = None
        self._windows: StepWindows | None = None
        self._forwarded_steps: list[int] = []
        self._selector_commands: dict[int, SelectorCommand] = {}
        # the physical estate's reads show the manifests it derives, which its snapshot does not
        # hold: an object write is translated against the manifest derived from it (`_served`)
        self._served = ServedObjects(scenario) if physical_provision(scenario) else None
        try:
            self._environment = client.provision(scenario, tier, kubectl=kubectl)
            # the text a stimulus injects in a workload's logs, placed before the agent's first
            # request as the simulator places it (`log_injections`, provider-guide §1.4, §4.4)
            injected = injected_log_lines(scenario)
            if injected:
                client.inject_state(self._environment.environment_id, injected)
                self._injected = injected
            if self._environment.has_tools:
                listed = client.tools(self._environment)
                self.tools, self.withheld_tools = offered_tools(scenario, listed)
            if kubectl:
                self._kubectl = KubectlRunner(
                    self._environment.kubeconfig, executable=require_kubectl()
                )
                self.tools = (*self.tools, KUBECTL_SPEC)
                start = client.audit_high_step(self._environment.environment_id)
                self._windows = StepWindows(start=start)
            initial = client.state_snapshot(self._environment.environment_id)
            first = self._snapshot("initial", 0, initial)
            self._snapshots.append(first)
            # the bindings the runner itself provisioned are the first state's (SI red team 19,
            # H6: a first state showing the provisioned volume bound to another claim)
            provisioned = provisioned_claims(scenario.preconditions.environment.state)
            unbound = provisioned_binding_problem(first.state, provisioned)
            if unbound is not None:
                shown = f"POST {client.shown}/state-snapshot (initial)"
                self._fail(ProviderFault(f"{shown}: {unbound}"))
        except ProviderFault as fault:
            self._fail(fault)
        except BaseException:
            self.close()  # an interrupt while provisioning: no environment is left behind
            raise

    def _fail(self, fault: ProviderFault) -> None:
        if self.provider_fault is None:
            self.provider_fault = recordable_text(str(fault))

    def _snapshot(
        self, label: str, step: int, resources: list[dict[str, Any]]
    ) -> FullStateSnapshot:
        what = f"POST {self.client.shown}/state-snapshot"
        return FullStateSnapshot(
            label=label,
            taken_after_step=step,
            source=SNAPSHOT_SOURCE,
            state=state_of(resources, what),
        )

    def call(self, tool: str, arguments: Mapping[str, JsonValue]) -> ToolResponse:
        """Forward one tool call to the environment and record it as the next step."""
        if self.provider_fault is not None or self._environment is None:
            # No more traffic after a fault: the run is already unverifiable (Core §3.7).
            raise ProviderFault(f"the provider failed earlier: {self.provider_fault}")
        problem = text_problem(tool)
        if problem is not None:  # as the simulator refuses it: the agent's own mistake
            raise ValueError(f"the tool name cannot be recorded: {problem}")
        recorded, problem = recordable_arguments(arguments)
        translated: tuple[EstateCall, ...] | None = None
        if problem is not None:
            reply = ToolResponse(body="", error=problem, error_code="invalid_arguments")
        elif tool == TOOL_NAME and self._kubectl is not None:
            return self._kubectl_call(recorded)
        elif tool not in {spec.name for spec in self.tools}:
            # Never forwarded: only a declared tool's call is one the audit log can be held to
            # (the simulator's own answer to a tool it does not offer).
            offered = ", ".join(spec.name for spec in self.tools)
            problem = f"unknown tool {tool!r} (offered: {offered})"
            reply = ToolResponse(body="", error=problem, error_code="unknown_tool")
        else:
            try:
                translated, absent = self._translated(tool, recorded)
                reply = self.client.call(self._environment, tool, recorded)
                if absent and reply.error is None:
                    # a patch of an object the provider says is not there fails (404): a
                    # success is a write of something the runner was told does not exist
                    # (SI red team 25, A1/A2)
                    raise ProviderFault(
                        f"POST {self.client.shown}/state-snapshot: it answered the object "
                        f"{tool} writes absent, and the call succeeded"
                    )
            except ProviderFault as fault:
                self._fail(fault)
                raise
        step = self._record_call(tool, recorded, reply)
        if problem is None:
            action = self._actions[step - 1]
            if translated is not None and action.id is not None:
                self._translations[action.id] = translated
            self._forwarded.append(action)
            self._forwarded_steps.append(step)
            self._mark(step)
        return reply

    def _translated(
        self, tool: str, arguments: dict[str, JsonValue]
    ) -> tuple[tuple[EstateCall, ...] | None, bool]:
        """The estate's calls a write spelled as the Kubernetes object is (a merge patch of the
        object a read shows, or the object itself: docs/si-agents.md, "The tools"), or None for
        any other call. The translation is the simulator's own (`as_estate_calls`, the one every
        face uses), made against the object as the provider holds it just before the call
        (`POST /state-snapshot` of that one resource): so the runner knows the operations the
        call attempted, and holds the provider's entries and its final state to them, as it
        holds a call in the declared spelling — the same act, the same record and verdict as in
        process (issue 44: such a write had been a PROVIDER_FAILURE, so an agent
        could turn a forbidden write's FAIL into a fault of the provider).

        The fetch is held to what the runner knows (`_fetch_held`); the second value says the
        call is a patch of an object the provider answered absent, which must fail (SI red
        team 25, A1/A2)."""
        assert self._environment is not None
        environment_id = self._environment.environment_id
        fetched: list[bool] = []

        def lookup(kind: str, namespace: str | None, name: str) -> dict[str, Any] | None:
            found = self._object(environment_id, kind, namespace, name)
            fetched.append(found is not None)
            return found

        calls = as_estate_calls(tool, arguments, None, lookup)
        if calls == (EstateCall(tool, arguments, None),):
            return None, False
        absent = fetched == [False] and tool == "orchestration_patch"
        return calls, absent

    def _object(
        self, environment_id: str, kind: str, namespace: str | None, name: str
    ) -> dict[str, Any] | None:
        """One resource as the provider holds it now, as the simulator's translation reads it
        (None where there is none); an answer naming another resource is the provider's fault."""
        what = f"POST {self.client.shown}/state-snapshot"
        key = key_of(kind, namespace, name)
        if self._served is not None:
            # the whole state, held resource by resource: the served object derives from it
            state = state_of(self.client.state_snapshot(environment_id), what)
            earlier = self._earlier_writes()
            for held_key in sorted({*state, *self._initial().state}):
                self._hold(what, held_key, state.get(held_key), earlier)
            return self._served.manifest(state, kind, namespace, name)
        asked: dict[str, Any] = {"kind": kind, "name": name}
        if namespace is not None:
            asked["namespace"] = namespace
        answer = state_of(self.client.state_snapshot(environment_id, [asked]), what)
        if set(answer) - {key}:
            raise ProviderFault(f"{what}: asked for {key}, it answered {sorted(answer)}")
        found = answer.get(key)
        self._hold(what, key, found, self._earlier_writes())
        if not isinstance(found, dict):
            return None
        resource: dict[str, Any] = dict(found)
        if derived(resource):
            # a derived manifest (the physical estate) is named in its metadata; the snapshot
            # names it beside (`_observe._identified`), which the manifest itself does not hold
            resource.pop("name", None)
            resource.pop("namespace", None)
        return resource

    def _hold(self, what: str, key: str, found: object, earlier: list[EarlierWrite]) -> None:
        """The provider's answer for the resource at ``key`` (None: absent), held to what the
        runner knows of it (`_fetch_held`): a contradiction is the provider's fault."""
        if found is not None and not isinstance(found, dict):
            raise ProviderFault(f"{what}: {key} is not an object")
        if self._changes_during_run():
            return  # the provider may change the state without a call (docs: a limit)
        kind, namespace, name = key.split("/", 2)
        first = self._initial().state.get(key)
        held = fetch_problem(
            kind,
            namespace or None,  # as the key names it: `default` where none was given
            name,
            found,
            first if isinstance(first, dict) else None,
            earlier,
        )
        if held is not None:
            raise ProviderFault(f"{what}: {held}")

    def _earlier_writes(self) -> list[EarlierWrite]:
        """The writes the calls forwarded so far attempted: a tool call's operations (those of
        its translation), a kubectl command that writes as one whose objects are unknown."""
        writes: list[EarlierWrite] = []
        for action in self._forwarded:
            succeeded = action.error is None
            if action.tool == TOOL_NAME:
                args = action.arguments.get("args")
                listed = [str(arg) for arg in args] if isinstance(args, list) else []
                if written_by(listed) is not None:
                    writes.append(EarlierWrite(None, succeeded))
                continue
            operations = expected_operations(action, self._translations) or ()
            writes += [EarlierWrite(operation, succeeded) for operation in operations]
        return writes

    def _log_reads(self, reference: LogReference) -> list[tuple[int, ToolAction, Ended]]:
        """Each forwarded call with its step and the deployments whose placed lines an earlier
        call ended: a permitted, successful write that gave the deployment a new generation,
        as the simulator ends them (`Estate.written`, `_generation`; `generations_written`).
        Before, any write naming the deployment or one of its pods ended it — a label, a
        no-op scale, a pod delete, a kubectl command that failed — and a write whose objects
        the runner could not name ended every hold (provider red team 46, H8-H12)."""
        reads: list[tuple[int, ToolAction, Ended]] = []
        ended: set[tuple[str, str]] = set()
        replicas = dict(reference.replicas)
        for step, action in zip(self._forwarded_steps, self._forwarded, strict=True):
            reads.append((step, action, frozenset(ended)))
            operations = None
            if action.tool != TOOL_NAME:
                operations = expected_operations(action, self._translations)
            ended |= generations_written(action, operations, TOOL_NAME, replicas)
        return reads

    def _mark(self, step: int) -> None:
        """Under `--kubectl`, learn where the provider's steps of the call at `step` end."""
        if self._windows is None or self._environment is None:
            return
        try:
            high = self.client.audit_high_step(self._environment.environment_id)
        except ProviderFault as fault:
            self._fail(fault)
            raise
        self._windows.mark(step, high)

    def _kubectl_call(self, recorded: dict[str, JsonValue]) -> ToolResponse:
        """One kubectl command of the agent: one step, its requests the provider's to record."""
        assert self._kubectl is not None and self._windows is not None
        args, _, problem = arguments_problem(recorded)
        if problem is not None:
            reply = self._kubectl.call(recorded)  # refused before anything runs
            self._record_call(TOOL_NAME, recorded, reply)
            return reply
        try:
            reply = self._kubectl.call(recorded)
        except BaseException:
            # Stopped mid-command: its requests, however many arrived, are this step's.
            stopped = ToolResponse(body="", error="kubectl was stopped", error_code="stopped")
            step = self._record_call(TOOL_NAME, recorded, stopped)
            self._forwarded.append(self._actions[step - 1])
            self._forwarded_steps.append(step)
            self._windows.open_step = step
            raise
        step = self._record_call(TOOL_NAME, recorded, reply)
        self._forwarded.append(self._actions[step - 1])
        self._forwarded_steps.append(step)
        # a write over a selector or a whole collection is run, and its window held to the
        # breadth its arguments give (`_kubectl_selector_held`)
        self._selector_commands[step] = SelectorCommand(
            step, selector_write(args), reply.error is not None
        )
        self._mark(step)
        return reply

    def _observe(self) -> None:
        """The independent evidence, once: the provider's audit log and its final state."""
        if self._observed or self._environment is None or self.provider_fault is not None:
            return
        self._observed = True
        environment_id = self._environment.environment_id
        stray: list[int] = []
        try:
            data = self.client.observe(environment_id, "audit_log", {})
            # The provider's step numbers become the runner's before anything is recorded, so a
            # fault found later (a snapshot that disagrees) leaves no step of the provider's in
            # the evidence: under --kubectl every step is re-numbered with its window's; without,
            # a step past the calls the runner made is refused (SI red team 15).
            audit = audit_of(
                data.get("entries"),
                f"POST {self.client.shown}/observe",
                data.get("agent_principal"),
                last_step=None if self._windows is not None else self.steps,
            )
            # the environment's own acts (a temporal condition it triggered), placed by step
            audit = with_environment_events(
                audit,
                environment_events_of(
                    data.get("environment_events"),
                    f"POST {self.client.shown}/observe (audit_log)",
                    last_step=None if self._windows is not None else self.steps,
                ),
            )
            disorder = out_of_order(audit)
            if disorder is not None:
                # before any re-numbering: under --kubectl a window is read by step alone
                raise ProviderFault(f"POST {self.client.shown}/observe (audit_log): {disorder}")
            if self._windows is not None:
                audit, stray = self._windows.renumbered(audit)
            self._audit = audit
            final = self._snapshot("final", self.steps, self.client.state_snapshot(environment_id))
            diffs = self._asserted_resources_observed(environment_id, final)
            self._snapshots += [*diffs, final]  # the full snapshot stays the last state
        except ProviderFault as fault:
            self._fail(fault)
            return
        attributed = sum(1 for e in self._audit if isinstance(e, ApiCallEntry) and e.actor == AGENT)
        what = f"POST {self.client.shown}/observe (audit_log)"
        # Under --kubectl each forwarded call is held to its own window instead
        # (`unaccounted_steps`): a kubectl command kubectl rejected itself reached nobody.
        if self._actions and not attributed and self._windows is None:
            # An empty audit log is never evidence that nothing happened (contract §3.7).
            self._fail(
                ProviderFault(
                    f"{what}: the agent made {len(self._actions)} call(s) and the audit log "
                    f"attributes none to user {AGENT!r}"
                )
            )
            return
        if self._windows is not None:
            missing = unaccounted_steps(
                list(zip(self._forwarded_steps, self._forwarded, strict=True)),
                self._audit,
                stray,
                self._translations,
            )
        else:
            missing = unaccounted_calls(self._forwarded, self._audit, self._translations)
        if missing is None:
            missing = narrowed_targets(
                self._calls_with_entries(),
                self._initial(),
                changes_during_run=self._changes_during_run(),
                translations=self._translations,
            )
        if missing is not None:
            self._fail(ProviderFault(f"{what}: incomplete: {missing}"))
            return
        # every write the accounting held to a forwarded call, whatever spelled it: the one
        # list the final state is held to (`_held_state`; SI red team 26, H0/H5)
        writes = held_writes(
            self._calls_with_entries(),
            translations=self._translations,
        )
        if self._windows is not None:
            # Held to its window, each kubectl command's entries are read as its one action:
            # a write command's own reads are kubectl's, a write it never sent because its read
            # failed is the agent's attempt, and a command that made no request (refused by the
            # allowlist, failed in kubectl) is still the agent's step (`_kubectl_command`).
            commands: dict[int, tuple[list[str], bool]] = {}
            stdins: dict[int, str] = {}
            outputs: dict[int, str] = {}
            for step, action in enumerate(self._actions, start=1):
                args = action.arguments.get("args")
                if action.tool == TOOL_NAME:
                    listed = [str(arg) for arg in args] if isinstance(args, list) else []
                    commands[step] = (listed, action.error is not None)
                    outputs[step] = action.result
                    stdin = action.arguments.get("stdin")
                    if isinstance(stdin, str):
                        stdins[step] = stdin
            self._audit = per_command(self._audit, commands, AGENT, stdins, outputs)
            for step in commands:
                # a kubectl command kubectl stopped, or refused before anything ran, has no
                # selector write the window could hold
                self._selector_commands.setdefault(step, SelectorCommand(step, None, True))
            self._audit, broad = held_selector_writes(
                self._audit,
                self._selector_commands,
                self._initial(),
                mode=self.mode,
                agent=AGENT,
                changes_during_run=self._changes_during_run(),
            )
            if broad is not None:
                self._fail(ProviderFault(f"{what}: {broad}"))
                return
        # The environment's events are held to the runner's own record before a check reads
        # when one happened (provider red team 44, G3-1 to G3-3): those it cannot derive are
        # marked uncorroborated in the evidence (`_settle`), never read as the provider says.
        wrong, self._held_events = event_problem(
            self._audit,
            self.scenario,
            calls=None if self._windows is not None else len(self._forwarded),
        )
        if wrong is not None:
            # none of the events is then the runner's to vouch for: a check over one is
            # unverifiable, so a forged event makes no FAIL either (moved early, added)
            self._held_events = []
            self._fail(ProviderFault(f"{what}: {wrong}"))
            return
        # The injected line is held to the agent's own reads of the workload's logs (provider
        # red team 44, G3-4: `applied`, with other text placed, kept the instruction from it).
        # Each read is held to the runner's own reference answer, from the scene it
        # provisioned, never to what the provider lists (provider red team 46, H1-H7, H13).
        unshown = None
        if self._injected:
            reference = LogReference(self.scenario)
            unshown = unshown_injection(
                self._injected, self._log_reads(reference), TOOL_NAME, reference
            )
        if unshown is not None:
            self._fail(ProviderFault(f"POST {self.client.shown}/inject-state: {unshown}"))
            return
        initial, last = self._initial(), self._snapshots[-1]
        assert isinstance(last, FullStateSnapshot)
        changes_during_run = self._changes_during_run()
        # The state is held to the tool calls' writes, whose operations the runner knows; a
        # kubectl command's writes are held to its window instead (`kubectl_problem`).
        tool_calls = [a for a in self._forwarded if a.tool != TOOL_NAME]
        translations: Translations = self._translations
        unreflected = unreflected_delete(tool_calls, initial, last, translations)
        unreflected = (
            unreflected
            or unreflected_held_writes(writes, initial, last, changes_during_run=changes_during_run)
            or unexplained_changes(
                writes,
                initial,
                last,
                changes_during_run=changes_during_run,
                status_inputs=None if self._served is None else self._served.status_inputs,
            )
        )
        if unreflected is not None:
            self._fail(ProviderFault(f"POST {self.client.shown}/state-snapshot: {unreflected}"))
            return
        # A restart refused where the provisioned scope permits it is unexplained (provider red
        # team 46, H15); after the state checks, which name a refused restart that ran (PV7).
        refused = refused_restart_problem(self._audit, self.scenario)
        if refused is not None:
            self._fail(ProviderFault(f"{what}: {refused}"))

    def _initial(self) -> FullStateSnapshot:
        initial = self._snapshots[0]
        assert isinstance(initial, FullStateSnapshot)
        return initial

    def _changes_during_run(self) -> bool:
        return any(s.type == "temporal_condition" for s in self.scenario.stimuli)

    def _calls_with_entries(self) -> list[tuple[ToolAction, list[ApiCallEntry]]]:
        """Each forwarded call with the agent's entries the accounting held to it: under
        --kubectl those of its window (re-numbered with its step), else the n-th group."""
        if self._windows is None:
            return calls_with_entries(self._forwarded, self._audit)
        groups: dict[int | None, list[ApiCallEntry]] = {}
        for entry in self._audit:
            if isinstance(entry, ApiCallEntry) and entry.actor == AGENT:
                groups.setdefault(entry.after_step, []).append(entry)
        pairs = zip(self._forwarded_steps, self._forwarded, strict=True)
        return [(action, groups.get(step, [])) for step, action in pairs]

    def _asserted_resources_observed(
        self, environment_id: str, final: FullStateSnapshot
    ) -> list[StateDiffSnapshot]:
        """`resource_state` (and `state_diff`, when the provider supplies it) of each resource
        the scenario's state assertions name, checked against the snapshots: two views of the
        provider that disagree are a fault of the provider, never evidence either way. The
        state diffs are recorded; the checks read the full snapshots."""
        initial = self._snapshots[0]
        assert isinstance(initial, FullStateSnapshot)
        recorded: list[StateDiffSnapshot] = []
        what = f"POST {self.client.shown}/observe"
        for kind, name, namespace in asserted_resources(self.scenario):
            parameters = {"kind": kind, "name": name}
            if namespace is not None:
                parameters["namespace"] = namespace
            key = key_of(kind, namespace, name)
            now = self.client.observe(environment_id, "resource_state", parameters)
            absent = now.get("exists") is False
            if absent == (key in final.state) or (not absent and now != final.state[key]):
                raise ProviderFault(
                    f"{what} (resource_state): {kind}/{name} disagrees with /state-snapshot"
                )
            if "state_diff" not in self.accepted.evidence_sources:
                continue
            diff = self.client.observe(environment_id, "state_diff", parameters)
            changes = changes_of(diff.get("changes"), f"{what} (state_diff)")
            changed = initial.state.get(key) != final.state.get(key)
            if bool(changes) != changed:
                raise ProviderFault(
                    f"{what} (state_diff): {kind}/{name} "
                    f"{'changed' if changed else 'is unchanged'} between the snapshots, and the "
                    f"diff says {len(changes)} change(s)"
                )
            recorded.append(
                StateDiffSnapshot(
                    label=f"state_diff {key}",
                    taken_after_step=self.steps,
                    source=DIFF_SOURCE,
                    changes=changes,
                )
            )
        return recorded

    # The evidence is the provider's observations (observed once, `Recording.evidence`).
    def _settle(self) -> None:
        self._observe()
        if not self._events_marked:
            # The events are a provider's: the evidence says so, and which names the runner
            # held, after every entry (no audit index a check reports moves), so a check over
            # any other event reads it unverifiable (provider red team 44, G3-2/G3-3).
            self._events_marked = True
            self._audit.append(events_read(self._held_events))

    def _provider_record(self) -> dict[str, JsonValue]:
        record: dict[str, JsonValue] = self.accepted.record()
        if self.withheld_tools:
            record["withheld_tools"] = list(self.withheld_tools)
        return record

    def _own_failure(self) -> str | None:
        return self.provider_fault

    def close(self) -> str | None:
        """Tear the environment down (always; once), and remove kubectl's kubeconfig; why the
        teardown failed, or None."""
        if self._kubectl is not None:
            self._kubectl.close()
        environment, self._environment = self._environment, None
        if environment is None:
            return None
        try:
            self.client.teardown(environment.environment_id)
        except ProviderFault as fault:
            return str(fault)
        return None


__all__ = ["ProviderSession", "audit_of", "offered_tools", "prompt_of", "state_of"]
