"""A provider's observations, read as provebench's independent evidence (Core §3.4, §3.7).

The reference OASIS runner persists, beside the agent's own account (`final_answer`, `actions`),
the `observations` array of the provider's `/observe` answers: each `{environment_id, timestamp,
observation_type, data, evidence_source{type, status}}` (provider-guide §2, §4.5). They — not the
agent's transcript — are the evidence an action or state verdict rests on:

- `audit_log` → the audit log: the entries the API server attributed to the declared
  `agent_principal`, each read as an operation of the abstract vocabulary (`_k8s_audit`); the
  requests that may be the agent's but cannot be attributed to it — another principal's that
  is not a Kubernetes component's, or one that never finished — as `UNATTRIBUTED_ACTOR`'s; and
  the Event objects anyone wrote (what happened to a workload, `_reported_events`), in the log's
  order, after an `event` record that says the provider's log was read (and for whom);
- `resource_state`, `state_diff` → two state snapshots, `baseline` (each diff's `before`) and
  `final` (each diff's `after`, then each resource state), both listing the resources they
  observed (`observed_resources`): a resource the provider was not asked about is unknown, never
  absent or unchanged.

An observation whose `evidence_source.status` is not `available` (Reporting §1.1: `unreachable`,
and the reserved `partial` and `empty_window`) is a provider failure; its data is not read.
Anything malformed is a one-line error naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench.evidence._k8s_audit import UNATTRIBUTED_ACTOR, AuditRecord, read_audit_entry
from provebench.evidence._records import AuditEntry, AuditEvent, FullStateSnapshot

OBSERVATION_TYPES: Final = ("audit_log", "resource_state", "state_diff")
AVAILABLE: Final = "available"
PROVIDER_ACTOR: Final = "provider"
AUDIT_LOG_READ: Final = "provider_audit_log"
# A live run through a provider (`si run --provider`): the environment's events were the
# provider's to report, and the runner held to its own record only those whose names this
# event's `detail.corroborated` lists; a check over any other event name is unverifiable
# (provider red team 44, G3-2/G3-3; `si.provider._environment_events`).
PROVIDER_EVENTS_READ: Final = "provider_environment_events"
STATE_SOURCE: Final = "provider_observations"
_ERROR_PREFIX: Final = "Error:"
_SERVICE_ACCOUNT: Final = "system:serviceaccount:"
# Kubernetes kinds the simulator and the scenarios write short.
_KIND_ALIASES: Final = {
    "horizontalpodautoscaler": "hpa",
    "persistentvolumeclaim": "pvc",
    "persistentvolume": "pv",
}


@dataclass
class Observed:
    """What an artifact's observations give: audit records, snapshots, a provider failure."""

    audit_log: list[AuditEntry] = field(default_factory=list)
    state_snapshots: list[FullStateSnapshot] = field(default_factory=list)
    provider_failure: str | None = None


def _problem(source: str, where: str, message: str) -> ProvebenchError:
    return ProvebenchError(message, path=source, field=where)


def read_observations(value: Any, *, source: str) -> Observed:
    """The independent evidence of an artifact's `observations` array (see the module)."""
    if not isinstance(value, list):
        raise _problem(source, "observations", "expected an array of observations")
    observed = Observed()
    audit_seen = False
    baseline: dict[str, JsonValue] = {}
    final: dict[str, JsonValue] = {}
    diffed: list[str] = []
    stated: list[str] = []
    for index, item in enumerate(value):
        where = f"observations[{index}]"
        if not isinstance(item, dict):
            raise _problem(source, where, "expected an object (an observation)")
        kind = item.get("observation_type")
        if kind not in OBSERVATION_TYPES:
            raise _problem(
                source,
                f"{where}.observation_type",
                f"expected one of {', '.join(OBSERVATION_TYPES)}",
            )
        status, source_type = _evidence_source(item, where, source)
        if status != AVAILABLE:
            if observed.provider_failure is None:
                observed.provider_failure = (
                    f"{where} ({kind}): evidence_source.status {status!r} — independent "
                    "verification not possible (Core §3.7)"
                )
            continue
        if "data" not in item:
            raise _problem(source, f"{where}.data", "required field is missing")
        data = item["data"]
        if kind == "audit_log":
            if audit_seen:
                raise _problem(
                    source, where, "a second audit_log observation; an artifact carries one log"
                )
            audit_seen = True
            observed.audit_log.extend(_audit_log(data, f"{where}.data", source, source_type))
        elif kind == "resource_state":
            for key, resource in _resource_states(data, f"{where}.data", source):
                stated.append(key)
                _place(final, key, resource)
        else:
            for key, before, after in _state_diffs(data, f"{where}.data", source):
                diffed.append(key)
                _place(baseline, key, before)
                _place(final, key, after)
    if diffed or stated:
        observed.state_snapshots = [
            FullStateSnapshot(
                label="baseline",
                source=STATE_SOURCE,
                state=baseline,
                observed_resources=sorted(set(diffed)),
            ),
            FullStateSnapshot(
                label="final",
                source=STATE_SOURCE,
                state=final,
                observed_resources=sorted(set(diffed) | set(stated)),
            ),
        ]
    return observed


def _place(state: dict[str, JsonValue], key: str, resource: dict[str, JsonValue] | None) -> None:
    if resource is None:
        state.pop(key, None)
    else:
        state[key] = resource


def _evidence_source(item: Mapping[str, Any], where: str, source: str) -> tuple[str, str]:
    block = item.get("evidence_source")
    if not isinstance(block, dict):
        raise _problem(
            source,
            f"{where}.evidence_source",
            "required: an object with `type` and `status` (provider-guide §4.5)",
        )
    status, source_type = block.get("status"), block.get("type")
    if not isinstance(status, str) or not status:
        raise _problem(source, f"{where}.evidence_source.status", "expected a non-empty string")
    if not isinstance(source_type, str) or not source_type:
        raise _problem(source, f"{where}.evidence_source.type", "expected a non-empty string")
    return status, source_type


def _audit_log(data: Any, where: str, source: str, source_type: str) -> list[AuditEntry]:
    if not isinstance(data, dict):
        raise _problem(source, where, "expected an object with `entries`")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise _problem(source, f"{where}.entries", "expected an array of audit entries")
    principal = data.get("agent_principal")
    if not isinstance(principal, str) or not principal:
        # Without it no entry can be attributed, and matching every principal on the cluster
        # would score the controllers' work as the agent's.
        raise _problem(
            source,
            f"{where}.agent_principal",
            "required: the identity the agent authenticated as (no entry can be attributed "
            "to the agent without it)",
        )
    records = [
        (index, record)
        for index, entry in enumerate(entries)
        if (record := read_audit_entry(entry, where=f"{where}.entries[{index}]", source=source))
        is not None
    ]
    done = {record.request_key() for _, record in records if record.finished}
    disagreeing = _disagreeing_stages(records)
    carried: list[AuditEntry] = []
    stopping: set[tuple[str | None, str | None]] = set()  # pods someone began to delete
    finished = agent_requests = 0
    for index, record in records:
        if record.audit_id in disagreeing:
            # Stages of one request that name different objects: which one was made is not
            # known, so each is carried as a request that may be the agent's.
            finished += record.finished
            carried.append(
                record.entry(
                    f"{where}.entries[{index}]: the stages of auditID {record.audit_id!r} name "
                    "different requests"
                )
            )
            continue
        if not record.finished:
            if record.request_key() in done:
                continue  # an earlier stage of a request the log also records finished
            # A request that never finished may have acted: not the agent's operation, but no
            # evidence either that nothing was done (Core §3.4).
            carried.append(
                record.entry(
                    f"{where}.entries[{index}] was recorded only at stage {record.stage} "
                    "(the request never finished)"
                )
            )
            continue
        finished += 1
        if record.user == principal:
            agent_requests += 1
            carried.append(record.entry())
        elif record.resource != "events" and not _control_plane(record, stopping):
            # Another principal's request may be the agent's, made with other credentials (a
            # forwarded kubeconfig): never its operation, never proof it did nothing.
            carried.append(
                record.entry(
                    f"{where}.entries[{index}] was made by user {record.user!r}, not the "
                    f"agent's principal {principal!r}"
                )
            )
        if _begins_pod_stop(record):
            stopping.add((record.namespace, record.name))
        carried.extend(_reported_events(record))
    read = AuditEvent(
        name=AUDIT_LOG_READ,
        actor=PROVIDER_ACTOR,
        detail={
            "agent_principal": principal,
            "evidence_source": source_type,
            "requests": finished,
            "agent_requests": agent_requests,
        },
    )
    return [read, *carried]


# Kubernetes' own components, by the exact identity each authenticates as: their requests are the
# environment's work, never one the agent could make with credentials it was handed. Any other
# user — `system:admin`, a kubeadm `kubernetes-admin`, another service account, even one in
# kube-system named like a controller — is whoever holds its credentials, and is carried
# unattributed (Core §3.4: the observations must attribute an operation before it counts for or
# against the agent). Each entry says why it is a component.
_COMPONENTS: Final = {
    "system:kube-controller-manager": "the controller manager's own identity",
    "system:kube-scheduler": "the scheduler: binds pods to nodes",
}
# kube-controller-manager's per-controller service accounts (its `--use-service-account-credentials`
# mode), by the controller each one runs as.
_CONTROLLER_ACCOUNTS: Final = {
    "replicaset-controller": "creates and deletes a ReplicaSet's pods",
    "deployment-controller": "rolls a Deployment's ReplicaSets",
    "statefulset-controller": "creates a StatefulSet's pods and claims",
    "daemon-set-controller": "runs a DaemonSet's pods",
    "job-controller": "runs a Job's pods",
    "cronjob-controller": "creates a CronJob's Jobs",
    "replication-controller": "runs a ReplicationController's pods",
    "horizontal-pod-autoscaler": "scales a workload to its autoscaler's target",
    "endpoint-controller": "keeps a Service's Endpoints",
    "endpointslice-controller": "keeps a Service's EndpointSlices",
    "endpointslicemirroring-controller": "mirrors Endpoints into EndpointSlices",
    "generic-garbage-collector": "deletes the objects whose owner is gone",
    "pod-garbage-collector": "deletes terminated and orphaned pods",
    "namespace-controller": "empties a namespace being deleted",
    "node-controller": "marks nodes and evicts their pods",
    "disruption-controller": "keeps a PodDisruptionBudget's status",
    "resourcequota-controller": "keeps a ResourceQuota's usage",
    "service-account-controller": "creates each namespace's default service account",
    "persistent-volume-binder": "binds claims to volumes",
    "pvc-protection-controller": "holds a claim in use",
    "pv-protection-controller": "holds a volume in use",
    "attachdetach-controller": "attaches volumes to nodes",
    "ttl-after-finished-controller": "deletes finished Jobs",
}
_CONTROLLER_NAMESPACE: Final = "kube-system"
_NODE: Final = "system:node:"
# What a kubelet (`system:node:<node>`) writes of its own: its Node and its lease, the status of
# the pods it runs, and the final delete of such a pod once it has stopped (the API server's
# NodeRestriction admission holds it to the pods bound to its node). Any other request under a
# node's name — a read of a Deployment, a write to a ConfigMap — is not a kubelet's work.
_KUBELET_OWNS: Final = frozenset({"nodes", "leases"})
_KUBELET_POD_WRITES: Final = frozenset(
    {("patch", "status"), ("update", "status"), ("delete", None)}
)


def _begins_pod_stop(record: AuditRecord) -> bool:
    """A finished delete or eviction of a pod by anyone but a kubelet: the pod is stopping."""
    if record.resource != "pods" or (record.user or "").startswith(_NODE):
        return False
    return record.verb == "delete" or (record.verb, record.subresource) == ("create", "eviction")


def _control_plane(record: AuditRecord, stopping: set[tuple[str | None, str | None]]) -> bool:
    """Whether a request is the work of one of Kubernetes' own components (see
    `_COMPONENTS`, `_CONTROLLER_ACCOUNTS`, `_KUBELET_OWNS`). Anyone else (another service
    account, a person, `system:admin`, `system:anonymous`) could be the agent with a forwarded
    kubeconfig. A kubelet's pod delete is the final one of a pod someone else began to delete
    (`stopping`: an earlier finished delete or eviction); a kubelet deleting a running pod
    nobody deleted is not a kubelet's work (red-team finding: a stolen node credential)."""
    user = record.user
    if not user:
        return False
    if user in _COMPONENTS:
        return True
    if user.startswith(_SERVICE_ACCOUNT):
        namespace, _, name = user[len(_SERVICE_ACCOUNT) :].partition(":")
        return namespace == _CONTROLLER_NAMESPACE and name in _CONTROLLER_ACCOUNTS
    if user.startswith(_NODE):
        if record.resource in _KUBELET_OWNS:
            return True
        if record.resource != "pods" or (record.verb, record.subresource) not in (
            _KUBELET_POD_WRITES
        ):
            return False
        return record.verb != "delete" or (record.namespace, record.name) in stopping
    return False


def _object_of(record: AuditRecord) -> tuple[str | None, ...]:
    # the user too: a stage under the agent's user and another under a component's, with one
    # audit ID, would otherwise let the component's attribution cover the agent's request
    return (
        record.user,
        record.verb,
        record.resource,
        record.subresource,
        record.namespace,
        record.name,
    )


def _disagreeing_stages(records: list[tuple[int, AuditRecord]]) -> set[str]:
    """The audit IDs whose stages name different requests (user, verb or object): the log does not
    say which of them was made, so none is attributed."""
    named: dict[str, set[tuple[str | None, ...]]] = {}
    for _, record in records:
        if record.audit_id is not None:
            named.setdefault(record.audit_id, set()).add(_object_of(record))
    return {audit_id for audit_id, objects in named.items() if len(objects) > 1}


def _reported_events(record: AuditRecord) -> list[AuditEvent]:
    """What an Event object written to the API says happened, where it happened in the log.

    The kubelet and the controllers report what happens to a workload by writing Event objects:
    the `reason` names it, and the kubelet's failures say `Error: <what>` (`Error:
    ImagePullBackOff`). An event is what the environment did, so it is carried whoever wrote
    it — never as an operation of the agent."""
    if record.resource != "events" or record.verb not in ("create", "update", "patch"):
        return []
    body = record.body if isinstance(record.body, dict) else {}
    reason, message = body.get("reason"), body.get("message") or body.get("note")
    names = [reason] if isinstance(reason, str) and reason else []
    if isinstance(message, str) and message.startswith(_ERROR_PREFIX):
        named = message[len(_ERROR_PREFIX) :].strip()
        if named and named not in names:
            names.append(named)
    involved = body.get("involvedObject") or body.get("regarding")
    detail: dict[str, JsonValue] = {"reported_by": record.user, "reason": reason}
    if isinstance(message, str):
        detail["message"] = message
    if isinstance(involved, dict):
        detail["involved_object"] = involved
    return [AuditEvent(name=name, actor=PROVIDER_ACTOR, detail=detail) for name in names]


def _resource_states(
    data: Any, where: str, source: str
) -> list[tuple[str, dict[str, JsonValue] | None]]:
    if isinstance(data, dict) and isinstance(data.get("resources"), list):
        items = data["resources"]
        return [
            _resource(item, f"{where}.resources[{index}]", source)
            for index, item in enumerate(items)
        ]
    return [_resource(data, where, source)]


def _state_diffs(
    data: Any, where: str, source: str
) -> list[tuple[str, dict[str, JsonValue] | None, dict[str, JsonValue] | None]]:
    if isinstance(data, dict) and isinstance(data.get("resources"), list):
        return [
            _state_diff(item, f"{where}.resources[{index}]", source)
            for index, item in enumerate(data["resources"])
        ]
    return [_state_diff(data, where, source)]


def _state_diff(
    data: Any, where: str, source: str
) -> tuple[str, dict[str, JsonValue] | None, dict[str, JsonValue] | None]:
    if not isinstance(data, dict) or "before" not in data or "after" not in data:
        raise _problem(source, where, "expected an object with `before` and `after`")
    sides: dict[str, tuple[str, dict[str, JsonValue] | None] | None] = {}
    for side in ("before", "after"):
        value = data[side]
        sides[side] = None if value is None else _resource(value, f"{where}.{side}", source)
    before, after = sides["before"], sides["after"]
    if before is None and after is None:
        raise _problem(source, where, "`before` and `after` are both null: no resource is named")
    if before is not None and after is not None and before[0] != after[0]:
        raise _problem(source, f"{where}.after", f"names {after[0]}, but `before` {before[0]}")
    key = (before or after or ("", None))[0]
    return key, before[1] if before else None, after[1] if after else None


def _resource(value: Any, where: str, source: str) -> tuple[str, dict[str, JsonValue] | None]:
    """A resource's state key (`kind/namespace/name`) and its fields, or None when the provider
    says it does not exist (`exists: false`)."""
    if not isinstance(value, dict):
        raise _problem(source, where, "expected an object (a resource)")
    if isinstance(value.get("metadata"), dict):
        value = _declared_spelling(value, where, source)
    kind, name, namespace = value.get("kind"), value.get("name"), value.get("namespace")
    for label, text in (("kind", kind), ("name", name)):
        if not isinstance(text, str) or not text:
            raise _problem(source, f"{where}.{label}", "required: a non-empty string")
    if namespace is not None and (not isinstance(namespace, str) or not namespace):
        raise _problem(source, f"{where}.namespace", "expected a non-empty string")
    assert isinstance(kind, str) and isinstance(name, str)
    kind = kind.lower()
    kind = _KIND_ALIASES.get(kind, kind)
    key = f"{kind}/{namespace or ''}/{name}"
    exists = value.get("exists", True)
    if exists is False:
        return key, None
    if exists is not True:
        raise _problem(source, f"{where}.exists", "expected true or false")
    return key, {k: v for k, v in value.items() if k != "exists"} | {"kind": kind}


def _declared_spelling(obj: Mapping[str, Any], where: str, source: str) -> dict[str, Any]:
    """A Kubernetes object in the spelling scenarios declare state in: `metadata`'s name,
    namespace, labels and annotations and `spec`'s own fields at the top (`spec.replicas` is
    `replicas`), and a single container's `image` as `image`; everything else as it is."""
    metadata = obj["metadata"]
    kind = obj.get("kind")
    if not isinstance(kind, str) or not kind:
        raise _problem(source, f"{where}.kind", "required: a non-empty string")
    flat: dict[str, Any] = {"kind": kind, "name": metadata.get("name")}
    if metadata.get("namespace") is not None:
        flat["namespace"] = metadata["namespace"]
    for key in ("labels", "annotations"):
        if key in metadata:
            flat[key] = metadata[key]
    for key, item in obj.items():
        if key not in ("apiVersion", "kind", "metadata", "spec"):
            flat[key] = item
    spec = obj.get("spec")
    if isinstance(spec, dict):
        flat["spec"] = spec
        for key, item in spec.items():
            flat.setdefault(key, item)
        template = spec.get("template")
        pod = template.get("spec") if isinstance(template, dict) else None
        containers = pod.get("containers") if isinstance(pod, dict) else None
        if (
            isinstance(containers, list)
            and len(containers) == 1
            and isinstance(containers[0], dict)
            and "image" in containers[0]
        ):
            flat.setdefault("image", containers[0]["image"])
    return flat


__all__ = [
    "AUDIT_LOG_READ",
    "OBSERVATION_TYPES",
    "PROVIDER_ACTOR",
    "PROVIDER_EVENTS_READ",
    "STATE_SOURCE",
    "UNATTRIBUTED_ACTOR",
    "Observed",
    "read_observations",
]
