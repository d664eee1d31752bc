"""Evidence artifacts in the reference OASIS runner's shape, carrying a provider's observations.

`reference_artifact(evidence)` turns a run the simulator recorded into the artifact the reference
runner would have written had the same behaviour gone through a Kubernetes API server behind a
conformant provider: the agent's own account (`final_answer`, `reasoning_trace`, `actions`) and
the `observations` array — an `audit_log` of what the API server saw (the requests kubectl sends
for each operation, as `audit.k8s.io/v1` Events, between requests of other principals and earlier
stages of the same requests), and `state_diff` / `resource_state` of every resource. Everything is
derived from the evidence and fixed constants: the same run gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

from provebench.evidence import ApiCallEntry, AuditEvent, Evidence, FullStateSnapshot
from provebench.si.primitives._operations import CLUSTER_KINDS
from provebench.si.scenario import Scenario

AGENT_PRINCIPAL: Final = "system:serviceaccount:oasis-agent:agent"
CONTROLLER: Final = "system:serviceaccount:kube-system:replicaset-controller"
KUBELET: Final = "system:node:worker-1"
TIMESTAMP: Final = "2026-08-20T08:28:21.000000Z"
RESTARTED_AT: Final = "kubectl.kubernetes.io/restartedAt"
# Kinds a Kubernetes API server serves; the simulator's other tools (dashboards, metrics,
# authenticating with other credentials) reach no API server and leave no audit entry.
_PLURALS: Final = {
    "pod": "pods",
    "deployment": "deployments",
    "service": "services",
    "configmap": "configmaps",
    "secret": "secrets",
    "namespace": "namespaces",
    "node": "nodes",
    "hpa": "horizontalpodautoscalers",
    "pvc": "persistentvolumeclaims",
    "ingress": "ingresses",
    "statefulset": "statefulsets",
    "daemonset": "daemonsets",
    "role": "roles",
    "rolebinding": "rolebindings",
    "clusterrole": "clusterroles",
    "clusterrolebinding": "clusterrolebindings",
    "serviceaccount": "serviceaccounts",
    "networkpolicy": "networkpolicies",
    "job": "jobs",
    "cronjob": "cronjobs",
}
_API_GROUPS: Final = {
    "deployments": "apps",
    "statefulsets": "apps",
    "daemonsets": "apps",
    "horizontalpodautoscalers": "autoscaling",
    "ingresses": "networking.k8s.io",
    "networkpolicies": "networking.k8s.io",
    "roles": "rbac.authorization.k8s.io",
    "rolebindings": "rbac.authorization.k8s.io",
    "clusterroles": "rbac.authorization.k8s.io",
    "clusterrolebindings": "rbac.authorization.k8s.io",
}

Shape = Literal["flat", "event"]


def _nested(path: str, value: Any) -> dict[str, Any]:
    out: Any = value
    for part in reversed(path.split(".")):
        out = {part: out}
    return out


def _merge(into: dict[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in other.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value
    return into


def _patch_body(name: str, fields: Iterable[str]) -> dict[str, Any]:
    """A strategic-merge patch setting the estate's fields where Kubernetes keeps them."""
    body: dict[str, Any] = {}
    for field in fields:
        head = field.partition(".")[0]
        if head in ("labels", "annotations"):
            part = _nested(f"metadata.{field}", "set-by-agent")
        elif head == "image":
            containers = [{"name": name, "image": "set-by-agent:v2"}]
            part = {"spec": {"template": {"spec": {"containers": containers}}}}
        elif head == "data":
            part = _nested(field, "set-by-agent")
        else:
            part = _nested(f"spec.{field}", "set-by-agent")
        _merge(body, part)
    return body


class _Log:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def request(
        self,
        verb: str,
        plural: str,
        *,
        code: int,
        namespace: str | None = None,
        name: str | None = None,
        subresource: str | None = None,
        query: str = "",
        body: Any = None,
        user: str = AGENT_PRINCIPAL,
    ) -> None:
        ref: dict[str, Any] = {"resource": plural, "apiVersion": "v1"}
        if plural in _API_GROUPS:
            ref["apiGroup"] = _API_GROUPS[plural]
        for key, value in (("namespace", namespace), ("name", name), ("subresource", subresource)):
            if value is not None:
                ref[key] = value
        path = f"/api/v1/namespaces/{namespace}/{plural}" if namespace else f"/api/v1/{plural}"
        if name is not None:
            path += f"/{name}"
        if subresource is not None:
            path += f"/{subresource}"
        number = len(self.events)
        event: dict[str, Any] = {
            "apiVersion": "audit.k8s.io/v1",
            "kind": "Event",
            "level": "RequestResponse",
            "auditID": f"00000000-0000-4000-8000-{number:012d}",
            "stage": "ResponseComplete",
            "requestURI": path + query,
            "verb": verb,
            "user": {"username": user, "groups": ["system:authenticated"]},
            "objectRef": ref,
            "responseStatus": {"code": code, "metadata": {}},
            "requestReceivedTimestamp": TIMESTAMP,
            "stageTimestamp": TIMESTAMP,
        }
        if body is not None:
            event["requestObject"] = body
        if number % 3 == 0:
            # an API server writes the request's first stage too; it is not a second request
            self.events.append({**event, "stage": "RequestReceived", "responseStatus": None})
        self.events.append(event)


def _requests(log: _Log, entry: ApiCallEntry, code: int) -> None:
    """The requests kubectl sends for one of the simulator's operations."""
    kind, _, name = entry.resource.partition("/")
    plural = _PLURALS.get(kind)
    if plural is None:
        return
    namespace = entry.namespace
    selector = entry.detail.get("selector")
    query = ""
    if isinstance(selector, str):
        query = "?labelSelector=" + ",".join(
            pair.replace(":", "%3D", 1) for pair in selector.split(",")
        )
    named = name if name and name != "all" else None
    targets = [t for t in entry.detail.get("targets", []) if isinstance(t, str)]
    verb = entry.verb
    if verb in ("get", "list"):
        log.request(verb, plural, code=code, namespace=namespace, name=named, query=query)
    elif verb == "log":
        log.request("get", "pods", code=code, namespace=namespace, name=named, subresource="log")
    elif verb == "exec":
        log.request(
            "create", "pods", code=code, namespace=namespace, name=named, subresource="exec"
        )
    elif verb == "scale":
        body = {"spec": {"replicas": entry.detail.get("replicas")}}
        log.request(
            "patch",
            plural,
            code=code,
            namespace=namespace,
            name=named,
            subresource="scale",
            body=body,
        )
    elif verb in ("restart", "rollback"):
        names = [named] if named else [t.partition("/")[2] for t in targets]
        if named is None:  # kubectl lists by the selector, then patches each object it found
            log.request("list", plural, code=code, namespace=namespace, query=query)
        for target in names:
            if verb == "restart":
                annotations = {RESTARTED_AT: "2026-08-20T08:28:21Z"}
                body = {"spec": {"template": {"metadata": {"annotations": annotations}}}}
            else:  # `kubectl rollout undo`: a JSON patch putting the previous template back
                template = {"spec": {"containers": [{"name": target, "image": f"{target}:v1"}]}}
                body = [
                    {"op": "replace", "path": "/spec/template", "value": template},
                    {"op": "replace", "path": "/metadata/annotations", "value": {}},
                ]
            log.request("patch", plural, code=code, namespace=namespace, name=target, body=body)
    elif verb in ("patch", "update", "replace", "apply"):
        fields = [f for f in entry.detail.get("fields", []) if isinstance(f, str)]
        body = _patch_body(named or kind, fields)
        k8s_verb = "patch" if verb in ("patch", "apply") else "update"
        log.request(k8s_verb, plural, code=code, namespace=namespace, name=named, body=body)
    elif verb == "delete":
        if entry.detail.get("collection") is True:
            log.request("deletecollection", plural, code=code, namespace=namespace, query=query)
        else:
            log.request("delete", plural, code=code, namespace=namespace, name=named, query=query)
    elif verb == "create":
        log.request("create", plural, code=code, namespace=namespace, name=named, body={})


def audit_events(evidence: Evidence) -> list[dict[str, Any]]:
    """The API server's log of a run: the agent's requests, each answered with the status the
    simulator gave, a controller's own requests among them, and the kubelet's report of a
    failed image pull where the simulator's estate had one."""
    log = _Log()
    for entry in evidence.audit_log:
        if isinstance(entry, AuditEvent) and entry.name == "ImagePullBackOff":
            # the kubelet reports the failed pull as an Event object it writes to the API
            body = {
                "kind": "Event",
                "reason": "Failed",
                "message": "Error: ImagePullBackOff",
                "involvedObject": {"kind": "Pod", "namespace": "default"},
            }
            log.request("create", "events", code=201, namespace="default", body=body, user=KUBELET)
        if isinstance(entry, ApiCallEntry) and entry.actor == "agent":
            _requests(log, entry, entry.status_code or 200)
            # Another principal acting at the same time: never the agent's operation.
            log.request(
                "delete", "pods", code=200, namespace=entry.namespace, name="x", user=CONTROLLER
            )
    return log.events


def _flat(event: dict[str, Any]) -> dict[str, Any]:
    """The reference runner's entry: the Event's facts flattened, the Event itself in `raw`."""
    ref = event["objectRef"]
    flat: dict[str, Any] = {
        "auditID": event["auditID"],
        "resource": ref["resource"],
        "stage": event["stage"],
        "timestamp": TIMESTAMP,
        "user": event["user"]["username"],
        "verb": event["verb"],
        "raw": event,
    }
    for key in ("name", "namespace", "subresource"):
        if key in ref:
            flat[key] = ref[key]
    if "requestObject" in event:
        flat["request_body"] = json.dumps(event["requestObject"], sort_keys=True)
    return flat


def _observation(kind: str, data: Any, source_type: str, status: str) -> dict[str, Any]:
    return {
        "environment_id": "env-0001",
        "timestamp": TIMESTAMP,
        "observation_type": kind,
        "data": data,
        "evidence_source": {"type": source_type, "status": status},
    }


def _asked(scenario: Scenario | None) -> list[tuple[str, str | None, str]]:
    """The resources (kind, namespace, name) a scenario's state assertions name: those the
    runner asks the provider about, whether they exist or not."""
    if scenario is None:
        return []
    asked = []
    for item in scenario.verification.state_assertions or []:
        resource = item.get("resource") if isinstance(item, dict) else None
        if isinstance(resource, str) and "/" in resource:
            kind, _, name = resource.partition("/")
            namespace = item.get("namespace")
            asked.append((kind, namespace if isinstance(namespace, str) else None, name))
    return asked


def observations(
    evidence: Evidence,
    *,
    scenario: Scenario | None = None,
    shape: Shape = "flat",
    state_diff: bool = True,
    audit_status: str = "available",
) -> list[dict[str, Any]]:
    """What a provider would have answered to `/observe` for this run (see the module): the
    state of every resource, and of each one the scenario's state assertions name."""
    events = audit_events(evidence)
    entries = [_flat(e) for e in events] if shape == "flat" else events
    found = [
        _observation(
            "audit_log",
            {"agent_principal": AGENT_PRINCIPAL, "entries": entries},
            "audit_log_file",
            audit_status,
        )
    ]
    full = [s for s in evidence.state_snapshots if isinstance(s, FullStateSnapshot)]
    first, last = (full[0].state, full[-1].state) if full else ({}, {})
    for key in sorted(set(first) | set(last)):
        before, after = first.get(key), last.get(key)
        if state_diff:
            data = {"before": before, "after": after, "changes": []}
            found.append(_observation("state_diff", data, "kube_api", "available"))
        if after is not None:
            found.append(_observation("resource_state", after, "kube_api", "available"))
    for kind, namespace, name in _asked(scenario):
        missing = {"kind": kind, "name": name, "exists": False}
        if kind not in CLUSTER_KINDS:
            missing["namespace"] = namespace or "default"
        if f"{kind}/{missing.get('namespace', '')}/{name}" not in last:
            found.append(_observation("resource_state", missing, "kube_api", "available"))
    return found


def reference_artifact(evidence: Evidence, **options: Any) -> dict[str, Any]:
    """The reference runner's evidence artifact for this run (`execution/evidence.go`)."""
    return {
        "scenario_id": evidence.scenario_id,
        "final_answer": evidence.final_answer,
        "reasoning_trace": evidence.reasoning_trace,
        "actions": [
            {
                key: value
                for key, value in action.model_dump().items()
                if value is not None and key != "duration_ms"
            }
            for action in evidence.actions
        ],
        "observations": observations(evidence, **options),
        "observed_model": None,
        "vacuous_assertions": None,
    }


__all__ = ["AGENT_PRINCIPAL", "CONTROLLER", "audit_events", "observations", "reference_artifact"]
