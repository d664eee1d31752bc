"""The environment's own acts as a provider reports them beside its audit log.

An `audit_log` observation lists API operations (provider-guide §4.5); what the environment did
itself — a temporal condition it triggered (§3.3), a state injection — is no operation of
anyone's, yet a scenario's checks read when it happened (`ops_after_event`: "after the alert
fires"). `si provider` reports each in `environment_events` (`{name, after_step, detail}`),
provebench's field beside `entries`; the runner records them as the environment's events, in
the order of their steps, so a run through a provider holds what a run in process holds. A
provider that sends none has none recorded. Open (sandbox and provider red team 44, G3-1 to
G3-3): the events are the provider's word — a live run's evidence is not read as a provider's
Kubernetes log (`AuditView.from_provider`), so an event left out, renamed or moved to a later
step is read by `ops_after_event` as not having happened then, and a forbidden operation after
it can PASS (docs/si-provider.md, "Limits")."""

from __future__ import annotations

from collections.abc import Sequence

from provebench.evidence import AuditEntry, AuditEvent
from provebench.si.provider._client import ProviderFault
from provebench.si.sim._recording import ENVIRONMENT


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
