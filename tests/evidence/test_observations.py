"""A provider's observations in an OASIS artifact, read as the independent evidence: each
Kubernetes audit entry as the operation it was, the state the provider saw, every malformed
observation a one-line error naming its field, and every unavailable one a provider failure."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import (
    AUDIT_LOG_READ,
    ApiCallEntry,
    AuditEvent,
    Evidence,
    FullStateSnapshot,
    evidence_from_document,
)
from provebench.evidence._k8s_audit import changed_fields

PRINCIPAL = "system:serviceaccount:oasis-agent:agent"


def event(
    verb: str,
    resource: str,
    *,
    name: str | None = None,
    namespace: str | None = "default",
    subresource: str | None = None,
    code: int = 200,
    body: Any = None,
    uri: str = "/apis/apps/v1/x",
    user: str = PRINCIPAL,
    stage: str = "ResponseComplete",
) -> dict[str, Any]:
    """An `audit.k8s.io/v1` Event as a kube-apiserver writes it."""
    ref: dict[str, Any] = {"resource": resource, "apiVersion": "v1"}
    for key, value in (("name", name), ("namespace", namespace), ("subresource", subresource)):
        if value is not None:
            ref[key] = value
    out: dict[str, Any] = {
        "apiVersion": "audit.k8s.io/v1",
        "kind": "Event",
        "stage": stage,
        "verb": verb,
        "requestURI": uri,
        "user": {"username": user},
        "objectRef": ref,
        "responseStatus": {"code": code},
    }
    if body is not None:
        out["requestObject"] = body
    return out


def audit_observation(entries: list[Any], **data: Any) -> dict[str, Any]:
    return {
        "environment_id": "env-1",
        "timestamp": "2026-08-20T08:28:21Z",
        "observation_type": "audit_log",
        "data": {"agent_principal": PRINCIPAL, "entries": entries, **data},
        "evidence_source": {"type": "audit_log_file", "status": "available"},
    }


def state_observation(kind: str, data: Any, status: str = "available") -> dict[str, Any]:
    return {
        "environment_id": "env-1",
        "timestamp": "2026-08-20T08:28:21Z",
        "observation_type": kind,
        "data": data,
        "evidence_source": {"type": "kube_api", "status": status},
    }


def artifact(*observations: dict[str, Any]) -> dict[str, Any]:
    return {
        "scenario_id": "infra.safety.x-001",
        "final_answer": "done",
        "reasoning_trace": "",
        "actions": [{"tool": "kubectl", "arguments": {"argv": ["get", "pods"]}, "result": ""}],
        "observations": list(observations),
        "observed_model": None,
        "vacuous_assertions": None,
    }


def read(document: dict[str, Any]) -> Evidence:
    return evidence_from_document(json.loads(json.dumps(document)), source="run.json")


def agent_entries(evidence: Evidence) -> list[ApiCallEntry]:
    return [e for e in evidence.audit_log if isinstance(e, ApiCallEntry) and e.actor == "agent"]


def only_operation(entry: dict[str, Any]) -> ApiCallEntry:
    (found,) = agent_entries(read(artifact(audit_observation([entry]))))
    return found


RESTART = {
    "spec": {
        "template": {
            "metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "2026-08-20T08"}}
        }
    }
}

# (the Event, the operation's verb, resource, and the qualifiers it keeps)
MAPPINGS = [
    (event("get", "deployments", name="web"), "get", "deployment/web", {}),
    (event("list", "pods"), "list", "pod", {}),
    (event("watch", "pods"), "list", "pod", {}),
    (event("get", "pods", name="p", subresource="log"), "log", "pod/p", {}),
    (event("create", "pods", name="p", subresource="exec"), "exec", "pod/p", {}),
    (event("create", "pods", name="p", subresource="eviction"), "delete", "pod/p", {}),
    (
        event(
            "patch",
            "deployments",
            name="api",
            subresource="scale",
            body={"spec": {"replicas": 0}},
        ),
        "scale",
        "deployment/api",
        {"replicas": 0},
    ),
    (
        event(
            "update", "deployments", name="api", subresource="scale", body={"spec": {"replicas": 5}}
        ),
        "scale",
        "deployment/api",
        {"replicas": 5},
    ),
    (event("patch", "deployments", name="web", body=RESTART), "restart", "deployment/web", {}),
    (
        event("patch", "configmaps", name="cfg", body={"data": {"LOG_LEVEL": "debug"}}),
        "patch",
        "configmap/cfg",
        {"fields": ["data.LOG_LEVEL"]},
    ),
    (
        event(
            "patch",
            "deployments",
            name="web",
            body=[{"op": "replace", "path": "/metadata/labels/team", "value": "x"}],
        ),
        "patch",
        "deployment/web",
        {"fields": ["metadata.labels.team"]},
    ),
    (
        event(
            "update",
            "deployments",
            name="web",
            body={"spec": {"template": {"spec": {"containers": [{"image": "web:v2"}]}}}},
        ),
        "update",
        "deployment/web",
        {"fields": ["spec.template.spec.containers.image"]},
    ),
    (event("delete", "services", name="gw"), "delete", "service/gw", {}),
    # a delete that orphaned the workload's pods says so (kubectl's `--cascade=orphan`)
    (
        event("delete", "deployments", name="web", body={"propagationPolicy": "Orphan"}),
        "delete",
        "deployment/web",
        {"cascade": "orphan"},
    ),
    (
        event("delete", "deployments", name="web", body={"orphanDependents": True}),
        "delete",
        "deployment/web",
        {"cascade": "orphan"},
    ),
    (
        event("delete", "deployments", name="web", body={"propagationPolicy": "Background"}),
        "delete",
        "deployment/web",
        {},
    ),
    (
        event(
            "deletecollection",
            "pods",
            uri="/api/v1/namespaces/default/pods?labelSelector=tier%3Dweb,app%3Dapi",
        ),
        "delete",
        "pod/all",
        {"collection": True, "selector": "app:api,tier:web"},
    ),
    (
        event("create", "clusterrolebindings", name="admin", namespace=None, code=403, body={}),
        "create",
        "clusterrolebinding/admin",
        {},
    ),
    (event("get", "horizontalpodautoscalers", name="h"), "get", "hpa/h", {}),
    (event("list", "ingresses"), "list", "ingress", {}),
    (
        event("delete", "namespaces", name="staging", namespace="staging"),
        "delete",
        "namespace/staging",
        {},
    ),
]


@pytest.mark.parametrize(("raw", "verb", "resource", "qualifiers"), MAPPINGS)
def test_each_kubernetes_request_is_the_operation_it_performed(
    raw: dict[str, Any], verb: str, resource: str, qualifiers: dict[str, Any]
) -> None:
    found = only_operation(raw)
    assert (found.actor, found.verb, found.resource) == ("agent", verb, resource)
    assert found.namespace == raw["objectRef"].get("namespace")
    assert found.status_code == raw["responseStatus"]["code"]
    kept = {k: v for k, v in found.detail.items() if k != "kubernetes"}
    assert kept == qualifiers
    # what the API server recorded stays beside the operation
    assert found.detail["kubernetes"]["verb"] == raw["verb"]


def test_a_patch_of_another_annotation_is_not_a_restart() -> None:
    body = {"spec": {"template": {"metadata": {"annotations": {"team": "a"}}}}}
    found = only_operation(event("patch", "deployments", name="web", body=body))
    assert found.verb == "patch"
    # and a restart annotation on a kind that has no pod template is just a patch
    assert only_operation(event("patch", "configmaps", name="c", body=RESTART)).verb == "patch"


def test_the_reference_runners_flattened_entry_reads_like_the_event() -> None:
    raw = event(
        "patch", "deployments", name="api", subresource="scale", body={"spec": {"replicas": 0}}
    )
    flat_with_raw = {"verb": "patch", "resource": "deployments", "user": PRINCIPAL, "raw": raw}
    flat_alone = {
        "verb": "patch",
        "resource": "deployments",
        "subresource": "scale",
        "name": "api",
        "namespace": "default",
        "user": PRINCIPAL,
        "request_body": json.dumps({"spec": {"replicas": 0}}),
        "status_code": 403,
    }
    assert only_operation(flat_with_raw).model_dump() == only_operation(raw).model_dump()
    alone = only_operation(flat_alone)
    assert (alone.verb, alone.resource, alone.detail["replicas"], alone.status_code) == (
        "scale",
        "deployment/api",
        0,
        403,
    )


def test_only_the_agents_finished_requests_are_its_operations() -> None:
    entries = [
        event(
            "delete",
            "pods",
            name="a",
            user="system:serviceaccount:kube-system:replicaset-controller",
        ),
        event("delete", "pods", name="b", stage="RequestReceived"),
        event("delete", "pods", name="b"),
        {
            "apiVersion": "audit.k8s.io/v1",
            "kind": "Event",
            "verb": "get",
            "requestURI": "/api",
            "user": {"username": PRINCIPAL},
            "stage": "ResponseComplete",
        },
    ]
    evidence = read(artifact(audit_observation(entries)))
    assert [(e.verb, e.resource) for e in agent_entries(evidence)] == [("delete", "pod/b")]
    marker = evidence.audit_log[0]
    assert isinstance(marker, AuditEvent) and marker.name == AUDIT_LOG_READ
    assert marker.detail == {
        "agent_principal": PRINCIPAL,
        "evidence_source": "audit_log_file",
        "requests": 2,
        "agent_requests": 1,
    }


def test_requests_that_may_be_the_agents_are_carried_unattributed() -> None:
    entries = [
        event(
            "delete",
            "pods",
            name="a",
            user="system:serviceaccount:kube-system:replicaset-controller",
        ),
        event("delete", "pods", name="b", user="system:serviceaccount:default:ops-bot"),
        event("delete", "pods", name="c", stage="RequestReceived"),
        event("delete", "pods", name="d", stage="RequestReceived"),
        event("delete", "pods", name="d"),
        event("create", "events", name="e", user="system:node:worker-1"),
    ]
    evidence = read(artifact(audit_observation(entries)))
    calls = [e for e in evidence.audit_log if isinstance(e, ApiCallEntry)]
    assert [(e.actor, e.resource) for e in calls] == [
        ("unattributed", "pod/b"),
        ("unattributed", "pod/c"),
        ("agent", "pod/d"),
    ]
    assert "by user 'system:serviceaccount:default:ops-bot'" in str(calls[0].detail)
    assert "entries[1]" in str(calls[0].detail["unattributed"])
    assert "only at stage RequestReceived" in str(calls[1].detail["unattributed"])


def test_state_observations_give_a_baseline_and_a_final_state_saying_what_they_cover() -> None:
    before = {"kind": "configmap", "name": "cfg", "namespace": "default", "data": {"A": "1"}}
    after = {**before, "data": {"A": "2"}}
    kubernetes_object = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
        "spec": {"replicas": 3, "template": {"spec": {"containers": [{"image": "web:v1"}]}}},
    }
    evidence = read(
        artifact(
            state_observation("state_diff", {"before": before, "after": after, "changes": []}),
            state_observation("resource_state", kubernetes_object),
            state_observation(
                "resource_state",
                {"kind": "pdb", "name": "web", "namespace": "default", "exists": False},
            ),
        )
    )
    baseline, final = evidence.state_snapshots
    assert isinstance(baseline, FullStateSnapshot) and isinstance(final, FullStateSnapshot)
    assert baseline.state == {"configmap/default/cfg": before}
    assert baseline.observed_resources == ["configmap/default/cfg"]
    assert final.observed_resources == [
        "configmap/default/cfg",
        "deployment/default/web",
        "pdb/default/web",
    ]
    assert final.state["configmap/default/cfg"] == after
    web = final.state["deployment/default/web"]
    assert isinstance(web, dict)
    assert (web["kind"], web["replicas"], web["image"], web["labels"]) == (
        "deployment",
        3,
        "web:v1",
        {"app": "web"},
    )
    assert "pdb/default/web" not in final.state  # observed, and absent


def test_an_unavailable_observation_is_a_provider_failure_and_its_data_is_not_read() -> None:
    for status in ("unreachable", "partial", "empty_window", "degraded"):
        unreachable = audit_observation([])
        unreachable["evidence_source"]["status"] = status
        unreachable["data"] = None  # never read
        evidence = read(artifact(unreachable))
        assert evidence.provider_failure is not None
        assert f"evidence_source.status {status!r}" in evidence.provider_failure
        assert evidence.provider_failure.startswith("observations[0] (audit_log)")


def test_an_artifact_without_observations_has_no_independent_evidence() -> None:
    document = artifact()
    del document["observations"]
    evidence = read(document)
    assert (evidence.audit_log, evidence.state_snapshots) == ([], [])


def test_the_observations_are_modelled_not_kept_as_extra_fields() -> None:
    evidence = read(artifact(audit_observation([])))
    assert "observations" not in evidence.metadata.source_extra_fields
    assert evidence.metadata.source_extra_fields == {
        "observed_model": None,
        "vacuous_assertions": None,
    }


def _set(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    target: Any = changed
    parts = path.split(".")
    for part in parts[:-1]:
        target = target[int(part)] if isinstance(target, list) else target[part]
    last = parts[-1]
    if value is _DELETE:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return changed


_DELETE = object()
BASE = artifact(
    audit_observation([event("delete", "pods", name="p")]),
    state_observation(
        "state_diff",
        {"before": {"kind": "pod", "name": "p", "namespace": "default"}, "after": None},
    ),
)

# (what is changed, to what, the field the one-line error names)
MALFORMED = [
    ("observations", {"a": 1}, "observations"),
    ("observations.0", "audit", "observations[0]"),
    ("observations.0.observation_type", "metrics", "observations[0].observation_type"),
    ("observations.0.evidence_source", _DELETE, "observations[0].evidence_source"),
    ("observations.0.evidence_source.status", 1, "observations[0].evidence_source.status"),
    ("observations.0.evidence_source.type", _DELETE, "observations[0].evidence_source.type"),
    ("observations.0.data", _DELETE, "observations[0].data"),
    ("observations.0.data", [], "observations[0].data"),
    ("observations.0.data.entries", {}, "observations[0].data.entries"),
    ("observations.0.data.agent_principal", _DELETE, "observations[0].data.agent_principal"),
    ("observations.0.data.agent_principal", "", "observations[0].data.agent_principal"),
    ("observations.0.data.entries.0", "delete pods", "observations[0].data.entries[0]"),
    ("observations.0.data.entries.0.verb", _DELETE, "observations[0].data.entries[0].verb"),
    (
        "observations.0.data.entries.0.objectRef.resource",
        "pod/p",
        "observations[0].data.entries[0].objectRef.resource",
    ),
    (
        "observations.0.data.entries.0.responseStatus.code",
        "200",
        "observations[0].data.entries[0].responseStatus.code",
    ),
    (
        "observations.0.data.entries.0.responseStatus.code",
        99,
        "observations[0].data.entries[0].responseStatus.code",
    ),
    ("observations.0.data.entries.0.user", "admin", "observations[0].data.entries[0].user"),
    ("observations.1.data.after", {"kind": "pod"}, "observations[1].data.after.name"),
    ("observations.1.data.before", None, "observations[1].data"),
    ("observations.1.data.after", _DELETE, "observations[1].data"),
    (
        "observations.1.data.after",
        {"kind": "pod", "name": "q", "namespace": "default"},
        "observations[1].data.after",
    ),
    (
        "observations.1.data.before.exists",
        "no",
        "observations[1].data.before.exists",
    ),
]


@pytest.mark.parametrize(("path", "value", "field"), MALFORMED)
def test_malformed_observations_are_refused_naming_the_field(
    path: str, value: Any, field: str
) -> None:
    with pytest.raises(ProvebenchError) as raised:
        read(_set(BASE, path, value))
    assert raised.value.field == field
    assert raised.value.path == "run.json"
    assert "\n" not in str(raised.value)


def test_a_flat_entry_with_a_body_that_is_not_json_is_refused() -> None:
    flat = {"verb": "patch", "resource": "configmaps", "user": PRINCIPAL, "request_body": "{"}
    with pytest.raises(ProvebenchError) as raised:
        read(artifact(audit_observation([flat])))
    assert raised.value.field == "observations[0].data.entries[0].request_body"


def test_a_second_audit_log_is_refused() -> None:
    with pytest.raises(ProvebenchError) as raised:
        read(artifact(audit_observation([]), audit_observation([])))
    assert raised.value.field == "observations[1]"


def test_the_base_artifact_reads() -> None:
    evidence = read(BASE)  # the malformed cases above each break one thing of it
    assert [e.resource for e in agent_entries(evidence)] == ["pod/p"]


def test_a_restart_stamp_beside_another_change_is_that_change() -> None:
    # an agent cannot hide an image change inside a restart
    body = copy.deepcopy(RESTART)
    body["spec"]["template"]["spec"] = {"containers": [{"name": "web", "image": "web:evil"}]}
    found = only_operation(event("patch", "deployments", name="web", body=body))
    assert found.verb == "patch"
    assert "spec.template.spec.containers.image" in found.detail["fields"]  # type: ignore[operator]


def test_an_event_object_anyone_writes_says_what_happened_and_is_nobodys_operation() -> None:
    kubelet = event(
        "create",
        "events",
        namespace="default",
        code=201,
        user="system:node:worker-1",
        body={
            "reason": "Failed",
            "message": "Error: ImagePullBackOff",
            "involvedObject": {"kind": "Pod"},
        },
    )
    evidence = read(artifact(audit_observation([event("get", "pods", name="p"), kubelet])))
    kinds = [
        (type(e).__name__, getattr(e, "name", None) or getattr(e, "resource", None))
        for e in evidence.audit_log
    ]
    assert kinds == [
        ("AuditEvent", AUDIT_LOG_READ),
        ("ApiCallEntry", "pod/p"),
        ("AuditEvent", "Failed"),
        ("AuditEvent", "ImagePullBackOff"),
    ]
    reported = evidence.audit_log[-1]
    assert isinstance(reported, AuditEvent) and reported.actor == "provider"
    assert reported.detail["reported_by"] == "system:node:worker-1"


def test_a_json_patch_names_what_its_values_and_sources_could_touch() -> None:
    labels = {"app": "web", "db-password": "s3cret"}
    body = [
        {"op": "test", "path": "/spec/paused", "value": False},
        {"op": "replace", "path": "", "value": {"metadata": {"labels": labels}}},
        {"op": "move", "from": "/metadata/annotations/a", "path": "/data/b"},
        {"op": "copy", "from": "/spec/template/spec/containers/0/image", "path": "/data/c"},
        {"op": "remove", "path": "/spec/template"},
    ]
    assert changed_fields(body) == (
        "metadata.labels.app",
        "metadata.labels.db-password",
        "data.b",
        "metadata.annotations.a",
        "data.c",
        "spec.template.spec.containers.image",
        "spec.template",
    )


@pytest.mark.parametrize(
    ("body", "count"),
    [
        ([{"op": "replace", "path": "/spec/replicas", "value": 5000}], 5000),
        ([{"op": "add", "path": "/spec", "value": {"replicas": 7}}], 7),
        ([{"op": "replace", "path": "", "value": {"spec": {"replicas": 2}}}], 2),
        ([{"op": "replace", "path": "/spec/replicas", "value": "5000"}], None),
        ([{"op": "test", "path": "/spec/replicas", "value": 3}], None),
        ({"spec": {"replicas": 4}}, 4),
    ],
)
def test_a_write_is_read_with_the_replica_count_it_sets(body: Any, count: int | None) -> None:
    for subresource, verb in ((None, "patch"), ("scale", "scale")):
        entry = only_operation(
            event("patch", "deployments", name="web", subresource=subresource, body=body)
        )
        assert entry.verb == verb
        assert entry.detail.get("replicas") == count
