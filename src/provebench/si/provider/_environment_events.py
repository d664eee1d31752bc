"""The environment's own acts as a provider reports them beside its audit log.

An `audit_log` observation lists API operations (provider-guide §4.5); what the environment did
itself — a temporal condition it triggered (§3.3), a state injection — is no operation of
anyone's, yet a scenario's checks read when it happened (`ops_after_event`: "after the alert
fires"). `si provider` reports each in `environment_events` (`{name, after_step, detail}`),
provebench's field beside `entries`; the runner records them as the environment's events, in
the order of their steps, so a run through a provider holds what a run in process holds. A
provider that sends none has none recorded.

The events are the provider's word, so the runner holds them to its own record before any check
reads them (provider red team 44, G3-1 to G3-3: a provider that moved `ImagePullBackOff` to the
last step, dropped it or renamed it turned sc.partial-operation-001's forbidden second restart
into a PASS). `event_problem` names the events the runner can derive itself — each temporal
stimulus's event, at the step its reading gives (`Temporal.after_calls`), and an
`ImagePullBackOff` after each permitted restart of a deployment the preconditions give that
injected failure, as both estates report it — and a missing, extra, renamed or moved one is
the provider's fault. The run's evidence carries which names were so held
(`PROVIDER_EVENTS_READ`): `ops_after_event` over any other name is unverifiable, present or
absent, never a PASS on the provider's word (docs/si-provider.md, "Limits")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence import (
    AUDIT_LOG_READ,
    PROVIDER_ACTOR,
    PROVIDER_EVENTS_READ,
    ApiCallEntry,
    AuditEntry,
    AuditEvent,
)
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.provider._accounting import AGENT
from provebench.si.provider._client import ProviderFault
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._recording import ENVIRONMENT
from provebench.si.sim._route import open_session
from provebench.si.sim.declared._operate import IMAGE_PULL_FAILURE

# The event both estates record after a permitted restart of a deployment whose preconditions
# give it IMAGE_PULL_FAILURE (`_handlers._restart`, `_operate._orchestration_restart`).
PULL_BACKOFF: Final = "ImagePullBackOff"
# The names of the runner's own records in an audit log: an environment event so named would
# pass for one of them (provider red team 45, C8: a provider-sent `provider_audit_log` switched
# on the artifact-provider reading), so a provider that sends one is refused.
_RECORD_NAMES: Final = frozenset({AUDIT_LOG_READ, PROVIDER_EVENTS_READ})
# An agent write after which the deployment may no longer carry the injected failure (a
# recreated or replaced object has no hidden field; a merge patch cannot name one): its later
# restarts' events are then not the runner's to say.
_REMAKES: Final = frozenset({"delete", "create", "replace"})


def environment_events_of(
    events: object, what: str, *, last_step: int | None = None
) -> list[AuditEvent]:
    """The `environment_events` of an `audit_log` observation as the evidence's events of the
    environment; a malformed one is the provider's fault naming it."""
    if events is None:
        return []
    if not isinstance(events, list):
        raise ProviderFault(f"{what}: `environment_events` is not a list")
    out: list[AuditEvent] = []
    for index, event in enumerate(events):
        where = f"{what}: environment_events[{index}]"
        if not isinstance(event, dict):
            raise ProviderFault(f"{where} is not an object")
        name, step, detail = event.get("name"), event.get("after_step"), event.get("detail", {})
        if not isinstance(name, str) or not name:
            raise ProviderFault(f"{where}.name is not a non-empty string")
        if name in _RECORD_NAMES:
            raise ProviderFault(f"{where}.name {name!r} is a name of the runner's own records")
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ProviderFault(f"{where}.after_step is not a step count")
        if last_step is not None and step > last_step:
            raise ProviderFault(
                f"{where}.after_step {step} is past the {last_step} call(s) the runner made"
            )
        if not isinstance(detail, dict):
            raise ProviderFault(f"{where}.detail is not an object")
        out.append(AuditEvent(name=name, actor=ENVIRONMENT, after_step=step, detail=detail))
    return out


def with_environment_events(
    audit: Sequence[AuditEntry], events: Sequence[AuditEvent]
) -> list[AuditEntry]:
    """`audit` with each event placed after every entry of its step or an earlier one (the
    environment acts once the request that made its change due was served), events of one
    step in the provider's order."""
    merged: list[AuditEntry] = []
    pending = sorted(events, key=lambda event: event.after_step or 0)
    for entry in audit:
        step = entry.after_step or 0
        while pending and (pending[0].after_step or 0) < step:
            merged.append(pending.pop(0))
        merged.append(entry)
    return merged + pending


Expected = tuple[str, int, str | None]  # (name, after_step, the resource its detail names)


def _shown(expected: Expected) -> str:
    name, step, resource = expected
    return f"{name} after step {step}" + (f" ({resource})" if resource else "")


def _pull_failures(scenario: Scenario) -> set[tuple[str, str]]:
    """(namespace, name) of each deployment the preconditions give the image-pull failure."""
    found = set()
    for entry in scenario.preconditions.environment.state:
        resource = entry.get("resource")
        if entry.get("injected_failure") != IMAGE_PULL_FAILURE or not isinstance(resource, str):
            continue
        kind, _, name = resource.partition("/")
        namespace = entry.get("namespace")
        if kind.lower() == "deployment" and name:
            found.add((namespace if isinstance(namespace, str) else "default", name))
    return found


def _temporal_events(scenario: Scenario) -> list[tuple[str, int]] | None:
    """(event, after_calls) of each temporal stimulus, as the readings `si provider` schedules
    from give them; None where a reading cannot be found (then none is the runner's to say)."""
    book = ReadingBook()
    found = []
    for index, stimulus in enumerate(scenario.stimuli):
        if stimulus.type != "temporal_condition":
            continue
        try:
            reading = book.find(scenario.id, f"stimuli[{index}]", stimulus.description or "")
        except ProvebenchError:
            return None
        if reading.temporal is None:
            return None
        if reading.temporal.event is not None:
            found.append((reading.temporal.event, reading.temporal.after_calls))
    return found


def event_problem(
    audit: Sequence[AuditEntry], scenario: Scenario, *, calls: int | None
) -> tuple[str | None, list[str]]:
    """(why the environment's events in `audit` are not those the runner's own record gives, or
    None; the event names the runner held them to).

    `calls`: how many calls the provider was sent, where its steps are the runner's (the tools'
    path); None under --kubectl, whose windows place a temporal event by the provider's requests,
    so a temporal event's name is then not held (and a check over it is unverifiable). An
    `ImagePullBackOff` is held on both paths: it follows the restart's own entry, whose step the
    windows re-number with it."""
    expected: list[Expected] = []
    held: set[str] = set()
    temporal = None if calls is None else _temporal_events(scenario)
    if temporal is not None:
        for name, after_calls in temporal:
            held.add(name)
            if calls is not None and calls >= after_calls:
                expected.append((name, after_calls, None))
    failing = _pull_failures(scenario)
    remade = {
        (entry.namespace or "default", entry.resource.partition("/")[2])
        for entry in audit
        if isinstance(entry, ApiCallEntry)
        and entry.verb in _REMAKES
        and entry.resource.startswith("deployment/")
        and entry.status_code is not None
        and entry.status_code < 400
    }
    if not failing & remade:
        held.add(PULL_BACKOFF)
        for entry in audit:
            if not isinstance(entry, ApiCallEntry) or entry.actor != AGENT:
                continue
            kind, _, name = entry.resource.partition("/")
            permitted = entry.status_code is not None and 200 <= entry.status_code < 300
            where = (entry.namespace or "default", name)
            if entry.verb == "restart" and kind == "deployment" and permitted and where in failing:
                expected.append((PULL_BACKOFF, entry.after_step or 0, entry.resource))
    reported: list[Expected] = []
    for event in audit:
        if isinstance(event, AuditEvent) and event.actor == ENVIRONMENT and event.name in held:
            resource: JsonValue = event.detail.get("resource")
            reported.append(
                (
                    event.name,
                    event.after_step or 0,
                    resource if isinstance(resource, str) and event.name == PULL_BACKOFF else None,
                )
            )
    missing = Counter(expected) - Counter(reported)
    extra = Counter(reported) - Counter(expected)
    if missing or extra:
        parts = []
        if missing:
            parts.append("no " + ", ".join(_shown(e) for e in sorted(missing.elements())))
        if extra:
            parts.append("unexplained " + ", ".join(_shown(e) for e in sorted(extra.elements())))
        return (
            "environment_events are not the runner's record of the run: "
            + "; ".join(parts)
            + " (a temporal stimulus fires after the call its reading names; ImagePullBackOff "
            "follows each permitted restart of a deployment given that failure)",
            sorted(held),
        )
    return None, sorted(held)


def refused_restart_problem(audit: Sequence[AuditEntry], scenario: Scenario) -> str | None:
    """Why a restart of a deployment the audit log records as refused (403) is not explained by
    the runner's own record, or None: the scope the runner provisioned (the agent's mode, its
    namespaces and zones: the in-process session's `refusal`) permits it, so in process it runs
    — and, of a deployment given IMAGE_PULL_FAILURE, is followed by the ImagePullBackOff that
    `ops_after_event` reads. A provider that refused every restart, and recorded each refusal,
    owed no event, and a forbidden second restart scored PASS (provider red team 46, H15); the
    stance `unshown_injection` takes on a failed read (PV1)."""
    refused = [
        entry
        for entry in audit
        if isinstance(entry, ApiCallEntry)
        and entry.actor == AGENT
        and entry.verb == "restart"
        and entry.resource.startswith("deployment/")
        and entry.status_code == 403
    ]
    if not refused:
        return None
    try:
        session = open_session(scenario)
    except ProvebenchError:
        return None  # the runner cannot say what its scope permits: the refusal stands
    for entry in refused:
        name = entry.resource.partition("/")[2]
        arguments = {"name": name, "namespace": entry.namespace or "default"}
        if session.refusal("orchestration_restart", arguments) is None:
            return (
                f"the audit log records the restart of {entry.resource} in "
                f"{arguments['namespace']} (step {entry.after_step}) as refused (403), which "
                "the scope the runner provisioned permits: nothing in its record explains it"
            )
    return None


def events_read(held: Sequence[str]) -> AuditEvent:
    """The record that the run's events were a provider's, and which names the runner held."""
    return AuditEvent(
        name=PROVIDER_EVENTS_READ, actor=PROVIDER_ACTOR, detail={"corroborated": list(held)}
    )
