"""`/state-snapshot` and `/observe` (provider-guide §2, §4.2, §4.5): what the simulator saw.

Every observation carries `evidence_source` (Reporting §1.1): ``available`` is only ever said of
the simulator's own record, read at that moment. The source types name that record —
``simulator_audit_log`` and ``simulator_state`` — rather than the ``audit_log_file`` and
``kube_api`` of a provider backed by a cluster, so that nobody mistakes a simulation for one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from provebench.evidence import ApiCallEntry, AuditEvent
from provebench.si.provider._accounting import ENTRY_KIND
from provebench.si.provider._environment import Environment, RequestError, now_iso
from provebench.si.provider._kube import AGENT_USER
from provebench.si.sim._recording import ENVIRONMENT
from provebench.si.sim.declared._estate import CLUSTER_KINDS, HIDDEN_FIELDS, key_of

OBSERVATION_TYPES: Final = ("audit_log", "resource_state", "state_diff")
# Each entry is provebench's own `api_call` record (`ENTRY_KIND`), an operation of the abstract
# vocabulary: the `kind` says so to any reader, and the runner refuses another (docs/si-provider.md,
# "The audit log").
# The simulator records the agent's operations under this actor; the observation names the agent
# by the identity it authenticates as on both faces (the Kubernetes endpoint's user and the tool
# endpoint's bearer token holder), declared as `agent_principal` so that an artifact reader can
# attribute entries without guessing (docs/evidence.md).
SIMULATOR_AGENT: Final = "agent"
AUDIT_SOURCE: Final = {"type": "simulator_audit_log", "status": "available"}
STATE_SOURCE: Final = {"type": "simulator_state", "status": "available"}


def _shown(resource: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in resource.items() if k not in HIDDEN_FIELDS}


def _optional_text(parameters: Mapping[str, Any], name: str) -> str | None:
    value = parameters.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise RequestError("must be a non-empty string", field=f"parameters.{name}")
    return value


def _resource_key(parameters: Mapping[str, Any], prefix: str) -> tuple[str, str, str | None]:
    kind = parameters.get("kind")
    name = parameters.get("name")
    if not isinstance(kind, str) or not kind:
        raise RequestError("must be a resource kind, e.g. deployment", field=f"{prefix}.kind")
    if not isinstance(name, str) or not name:
        raise RequestError("must be a resource name", field=f"{prefix}.name")
    namespace = parameters.get("namespace")
    if namespace is not None and (not isinstance(namespace, str) or not namespace):
        raise RequestError("must be a namespace name", field=f"{prefix}.namespace")
    return kind.lower(), name, namespace


def _identified(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state with each resource naming its `kind`, `name` and `namespace`, as the contract's
    snapshot does: the physical estate keeps them only in its keys (`kind/namespace/name`)."""
    named: dict[str, Any] = {}
    for key, resource in state.items():
        if "kind" in resource and "name" in resource:
            named[key] = resource
            continue
        kind, namespace, name = key.split("/", 2)
        named[key] = {"kind": kind, "name": name, "namespace": namespace or None, **resource}
    return named


def state_snapshot(environment: Environment, body: Mapping[str, Any]) -> dict[str, Any]:
    """The resources asked for (all of the environment's when none is named), full state."""
    wanted = body.get("resources") or []
    if not isinstance(wanted, list):
        raise RequestError("must be a list of {kind, name, namespace}", field="resources")
    state = _identified(environment.state())
    if wanted:
        keys = []
        for index, item in enumerate(wanted):
            if not isinstance(item, dict):
                raise RequestError("must be {kind, name, namespace}", field=f"resources[{index}]")
            kind, name, namespace = _resource_key(item, f"resources[{index}]")
            keys.append(key_of(kind, namespace, name))
        resources = [_shown(state[key]) for key in keys if key in state]
    else:
        resources = [_shown(resource) for resource in state.values()]
    return {
        "environment_id": environment.environment_id,
        "timestamp": now_iso(),
        "resources": resources,
    }


def _audit_entries(environment: Environment, parameters: Mapping[str, Any]) -> dict[str, Any]:
    namespace = _optional_text(parameters, "namespace")
    resource_type = _optional_text(parameters, "resource_type")
    verb = _optional_text(parameters, "verb")
    time_from = _optional_text(parameters, "time_from")
    time_to = _optional_text(parameters, "time_to")
    with environment.lock:
        log = environment.session.evidence(final_answer="").audit_log
    entries = []
    # The environment's own acts (an injection, a temporal condition it triggered): no API
    # operation of anyone's, yet part of what happened, so a runner can tell a change the agent
    # did not make from one it did (red team SB-42, G3-4: a triggered condition appeared in no
    # observation).
    acts: list[dict[str, Any]] = []
    for entry in log:
        if isinstance(entry, AuditEvent) and entry.actor == ENVIRONMENT:
            acts.append(
                {
                    "name": entry.name,
                    "timestamp": environment.time_of(entry.after_step),
                    "after_step": entry.after_step,
                    "detail": entry.detail,
                }
            )
        if not isinstance(entry, ApiCallEntry):
            continue  # environment events (a state injection) are not API operations
        timestamp = environment.time_of(entry.after_step)
        kind = entry.resource.partition("/")[0]
        if namespace is not None and entry.namespace != namespace:
            continue
        if resource_type is not None and kind != resource_type.lower():
            continue
        if verb is not None and entry.verb != verb.lower():
            continue
        # ISO 8601 in UTC with the same precision throughout compares as text.
        if time_from is not None and timestamp < time_from:
            continue
        if time_to is not None and timestamp > time_to:
            continue
        entries.append(
            {
                "kind": ENTRY_KIND,
                "timestamp": timestamp,
                "step": entry.after_step,
                "verb": entry.verb,
                "resource": entry.resource,
                "namespace": entry.namespace,
                "user": AGENT_USER if entry.actor == SIMULATOR_AGENT else entry.actor,
                "status_code": entry.status_code,
                "request_body": entry.detail,
            }
        )
    events = [
        event
        for event in list(environment.kube_audit)
        if _event_matches(event, namespace, resource_type, verb, time_from, time_to)
    ]
    return {
        "agent_principal": AGENT_USER,
        "entries": entries,
        "events": events,
        "environment_events": acts,
    }


def _event_matches(
    event: Mapping[str, Any],
    namespace: str | None,
    resource_type: str | None,
    verb: str | None,
    time_from: str | None,
    time_to: str | None,
) -> bool:
    """The `audit_log` parameters applied to one audit.k8s.io/v1 Event (a resource type is
    matched by its plural or its singular, as kubectl accepts either)."""
    ref = event.get("objectRef") or {}
    if namespace is not None and ref.get("namespace") != namespace:
        return False
    if resource_type is not None:
        plural = str(ref.get("resource", ""))
        if resource_type.lower() not in (plural, plural.removesuffix("s"), plural[:-3] + "y"):
            return False
    if verb is not None and event.get("verb") != verb.lower():
        return False
    received = str(event.get("requestReceivedTimestamp", ""))
    if time_from is not None and received < time_from:
        return False
    return time_to is None or received <= time_to


def _changes(before: Any, after: Any, path: str) -> list[dict[str, Any]]:
    """Field-level differences, depth first, in key order (a list is compared whole)."""
    if isinstance(before, dict) and isinstance(after, dict):
        found: list[dict[str, Any]] = []
        for key in sorted(set(before) | set(after)):
            where = f"{path}.{key}" if path else key
            if key not in after:
                found.append({"path": where, "change": "removed", "before": before[key]})
            elif key not in before:
                found.append({"path": where, "change": "added", "after": after[key]})
            else:
                found += _changes(before[key], after[key], where)
        return found
    if before == after:
        return []
    return [{"path": path, "change": "modified", "before": before, "after": after}]


def observe(environment: Environment, body: Mapping[str, Any]) -> dict[str, Any]:
    """One `/observe` answer: `audit_log`, `resource_state` or `state_diff`."""
    kind = body.get("observation_type")
    if kind not in OBSERVATION_TYPES:
        raise RequestError(
            f"must be one of {', '.join(OBSERVATION_TYPES)} (value_containment is not served "
            "through /observe: provider-guide §4.5)",
            field="observation_type",
        )
    parameters = body.get("parameters") or {}
    if not isinstance(parameters, dict):
        raise RequestError("must be a JSON object", field="parameters")
    source = STATE_SOURCE
    if kind == "audit_log":
        data, source = _audit_entries(environment, parameters), AUDIT_SOURCE
    else:
        resource_kind, name, namespace = _resource_key(parameters, "parameters")
        key = key_of(resource_kind, namespace, name)
        now = _identified(environment.state()).get(key)
        if kind == "resource_state":
            where = {"kind": resource_kind, "name": name}
            if resource_kind not in CLUSTER_KINDS:
                where["namespace"] = namespace or "default"
            data = {**where, "exists": False} if now is None else _shown(now)
        else:
            # at provisioning, with what the environment changed since (`inject_state`)
            with environment.lock:
                before = _identified(environment.baseline).get(key)
            before_shown = None if before is None else _shown(before)
            after_shown = None if now is None else _shown(now)
            data = {
                "before": before_shown,
                "after": after_shown,
                "changes": _changes(before_shown or {}, after_shown or {}, ""),
            }
    return {
        "environment_id": environment.environment_id,
        "timestamp": now_iso(),
        "observation_type": kind,
        "data": data,
        "evidence_source": dict(source),
    }


__all__ = ["ENTRY_KIND", "OBSERVATION_TYPES", "observe", "state_snapshot"]
