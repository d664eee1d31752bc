"""The estate's resources as Kubernetes objects, and Kubernetes objects back as fields.

A declared resource is a flat mapping (``kind``, ``name``, ``namespace``, ``replicas``,
``image``, ``status`` …: the shape a scenario's ``preconditions.environment.state`` declares).
`to_kube` shows it as the object an API server would return; every declared field that has no
place in the Kubernetes object is kept, as JSON, in the annotation `DECLARED_ANNOTATION`. A
manifest the physical estate derived is shown with the identity and version the API adds. This
is the one builder of what a read answers: the tools' ``orchestration_get`` (both estates,
`object_of`) and the Kubernetes endpoint (`si.provider._kube`) both call it, so an agent sees
the same object on every scenario and every transport.

`fields_changed` goes the other way for a write: it compares the object the agent sent with the
object the estate shows now and names the declared fields that change — the same merge patch
that provebench's `orchestration_patch` tool takes, so a write through either face is the same
operation in the record (docs/si-provider.md).

Nothing here reads the clock: uids, resource versions and timestamps derive from the estate.
"""

from __future__ import annotations

import copy
import hashlib
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from provebench.si.primitives._secret_data import encoded, secret_write
from provebench.si.sim._estate_terms import DECLARED_ANNOTATION
from provebench.si.sim.declared._estate import SERVER_OWNED_FIELDS, STORAGE_SPEC_FIELDS


def reserved_annotation(annotations: Any) -> str | None:
    """Why a write of these annotations is refused, or None: `DECLARED_ANNOTATION` is where a
    read shows the fields the estate keeps without a Kubernetes place, so an agent's value
    there would be overwritten or pass for the estate's own — refused (422) in both estates,
    as a scenario that declares it is (`si.sim._estate._no_reserved_annotation`). In any case
    (`Provebench.dev/declared`): an annotation key's prefix is a DNS subdomain, lowercase, so a
    real API server refuses such a key, and a reader that folds case would read the agent's
    value as the estate's (SI red team 30)."""
    if isinstance(annotations, Mapping) and any(
        isinstance(key, str) and key.lower() == DECLARED_ANNOTATION for key in annotations
    ):
        return f"the annotation {DECLARED_ANNOTATION} is the estate's own (in any case)"
    return None


# The simulated cluster has no history: every object shows this creation time.
CREATED: Final = "2026-01-01T00:00:00Z"


@dataclass(frozen=True)
class KubeResource:
    """One served resource type: where it lives in the API and what the estate calls it."""

    plural: str
    kind: str  # the Kubernetes kind (``Deployment``)
    group: str  # "" for the core group
    estate_kind: str  # the declared estate's kind (``deployment``)
    namespaced: bool
    verbs: tuple[str, ...] = ("create", "delete", "deletecollection", "get", "list", "patch")
    short_names: tuple[str, ...] = ()

    @property
    def api_version(self) -> str:
        return f"{self.group}/v1" if self.group else "v1"


_ALL_VERBS: Final = ("create", "delete", "deletecollection", "get", "list", "patch", "update")
RESOURCES: Final = (
    KubeResource("namespaces", "Namespace", "", "namespace", False, _ALL_VERBS, ("ns",)),
    KubeResource("nodes", "Node", "", "node", False, _ALL_VERBS, ("no",)),
    KubeResource("pods", "Pod", "", "pod", True, _ALL_VERBS, ("po",)),
    KubeResource("events", "Event", "", "event", True, ("get", "list"), ("ev",)),
    KubeResource("services", "Service", "", "service", True, _ALL_VERBS, ("svc",)),
    KubeResource("configmaps", "ConfigMap", "", "configmap", True, _ALL_VERBS, ("cm",)),
    KubeResource("secrets", "Secret", "", "secret", True, _ALL_VERBS),
    KubeResource("serviceaccounts", "ServiceAccount", "", "serviceaccount", True, _ALL_VERBS),
    KubeResource(
        "persistentvolumeclaims", "PersistentVolumeClaim", "", "pvc", True, _ALL_VERBS, ("pvc",)
    ),
    KubeResource("persistentvolumes", "PersistentVolume", "", "pv", False, _ALL_VERBS, ("pv",)),
    KubeResource("deployments", "Deployment", "apps", "deployment", True, _ALL_VERBS, ("deploy",)),
    KubeResource("statefulsets", "StatefulSet", "apps", "statefulset", True, _ALL_VERBS, ("sts",)),
    KubeResource("roles", "Role", "rbac.authorization.k8s.io", "role", True, _ALL_VERBS),
    KubeResource(
        "rolebindings", "RoleBinding", "rbac.authorization.k8s.io", "rolebinding", True, _ALL_VERBS
    ),
    KubeResource(
        "clusterroles", "ClusterRole", "rbac.authorization.k8s.io", "clusterrole", False, _ALL_VERBS
    ),
    KubeResource(
        "clusterrolebindings",
        "ClusterRoleBinding",
        "rbac.authorization.k8s.io",
        "clusterrolebinding",
        False,
        _ALL_VERBS,
    ),
    KubeResource(
        "networkpolicies",
        "NetworkPolicy",
        "networking.k8s.io",
        "networkpolicy",
        True,
        _ALL_VERBS,
        ("netpol",),
    ),
)
GROUPS: Final = ("", "apps", "rbac.authorization.k8s.io", "networking.k8s.io")
BY_PATH: Final = {(r.group, r.plural): r for r in RESOURCES}
BY_ESTATE_KIND: Final = {r.estate_kind: r for r in RESOURCES}
# Kinds a scenario may declare that have a Kubernetes counterpart the endpoint does not serve
# (kubectl gets a 404 Status for them): the tools still show each as that object — identity in
# `metadata`, every declared field in the `DECLARED_ANNOTATION` — so a read answers one shape
# (docs/si-agents.md, "The tools"). Kinds with no Kubernetes counterpart (a dashboard, an
# alert, a GitOps application, a migration …) keep the fields they are declared with.
SHOWN_ONLY: Final = {
    r.estate_kind: r
    for r in (
        KubeResource(
            "horizontalpodautoscalers", "HorizontalPodAutoscaler", "autoscaling", "hpa", True, ()
        ),
        KubeResource("ingresses", "Ingress", "networking.k8s.io", "ingress", True, ()),
        KubeResource("persistentvolumeclaims", "PersistentVolumeClaim", "", "pvc", True, ()),
        KubeResource("poddisruptionbudgets", "PodDisruptionBudget", "policy", "pdb", True, ()),
        KubeResource("jobs", "Job", "batch", "job", True, ()),
        KubeResource("cronjobs", "CronJob", "batch", "cronjob", True, ()),
        KubeResource("daemonsets", "DaemonSet", "apps", "daemonset", True, ()),
        KubeResource("replicasets", "ReplicaSet", "apps", "replicaset", True, ()),
    )
}
# Subresources served: a deployment's or statefulset's scale, a pod's log.
SCALABLE: Final = frozenset({"deployment", "statefulset"})

# Declared fields with a place in the Kubernetes object, by estate kind; the rest are kept in
# the `DECLARED_ANNOTATION`.
_METADATA_FIELDS: Final = ("labels", "annotations")
_MAPPED: Final[dict[str, tuple[str, ...]]] = {
    "deployment": ("replicas", "image", "env"),
    "statefulset": ("replicas", "image", "env"),
    "pod": ("image", "env"),
    "configmap": ("data",),
    "secret": ("data", "stringData", "type"),
    "service": ("ports", "selector", "type"),
    "role": ("rules",),
    "clusterrole": ("rules",),
}
_ACCESS_MODES: Final = {
    "ReadWriteOnce": "RWO",
    "ReadOnlyMany": "ROX",
    "ReadWriteMany": "RWX",
    "ReadWriteOncePod": "RWOP",
}
_IDENTITY: Final = frozenset({"kind", "name", "namespace"})


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def declared_annotation(fields: Mapping[str, Any]) -> str:
    """The `DECLARED_ANNOTATION` value of declared fields without a Kubernetes place."""
    return _compact(fields)


def with_declared(manifest: Mapping[str, Any], fields: Mapping[str, Any]) -> dict[str, Any]:
    """A derived manifest with the declared observations of its object (fields no rule
    derives: a ``cpu_usage``, a node's ``status``) in `DECLARED_ANNOTATION`, as a declared
    resource shows its unmapped fields (`_metadata`); the manifest itself when there are none."""
    shown = copy.deepcopy(dict(manifest))
    if not fields:
        return shown
    metadata = shown.setdefault("metadata", {})
    annotations = metadata.setdefault("annotations", {})
    annotations[DECLARED_ANNOTATION] = declared_annotation(fields)
    return shown


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def uid_of(estate_kind: str, namespace: str | None, name: str) -> str:
    """A stable uid per object identity (events name their object by it: kubectl describe)."""
    return str(uuid.UUID(_digest(f"{estate_kind}/{namespace or ''}/{name}")[:32]))


def resource_version(resource: Mapping[str, Any]) -> str:
    """Changes exactly when the declared resource does (a PUT of a stale object is a 409)."""
    return str(int(_digest(_compact(dict(resource)))[:12], 16))


def _env_var(name: Any, value: Any) -> dict[str, Any]:
    """One entry of a container's ``env`` from a declared ``NAME: value`` pair: a declared
    source (``valueFrom``) or value object stays what it is, never its Python spelling."""
    if isinstance(value, dict) and ("valueFrom" in value or "value" in value):
        return {"name": str(name), **copy.deepcopy(value)}
    return {"name": str(name), "value": str(value)}


def _env_list(env: Any) -> Any:
    if isinstance(env, dict):
        return [_env_var(k, v) for k, v in sorted(env.items())]
    return copy.deepcopy(env)


def _status_word(resource: Mapping[str, Any]) -> str:
    return str(resource.get("status", "running"))


def _healthy(word: str) -> bool:
    return word.lower() in ("running", "ready", "healthy", "available", "active", "succeeded")


def _containers(resource: Mapping[str, Any]) -> list[dict[str, Any]]:
    declared = resource.get("containers")
    if isinstance(declared, list) and declared and all(isinstance(c, dict) for c in declared):
        return copy.deepcopy(declared)
    container: dict[str, Any] = {"name": resource["name"], "image": resource.get("image", "")}
    if "env" in resource:
        container["env"] = _env_list(resource["env"])
    return [container]


def _unmapped(resource: Mapping[str, Any]) -> dict[str, Any]:
    kind = resource["kind"]
    mapped = set(_MAPPED.get(kind, ())) | set(STORAGE_SPEC_FIELDS.get(kind, ()))
    mapped |= set(_METADATA_FIELDS) | _IDENTITY
    if resource["kind"] in ("deployment", "statefulset", "pod") and "containers" in resource:
        mapped.discard("image")
        mapped.discard("env")
    return {k: resource[k] for k in sorted(resource) if k not in mapped}


def _metadata(resource: Mapping[str, Any], served: KubeResource) -> dict[str, Any]:
    name = resource["name"]
    namespace = resource.get("namespace") if served.namespaced else None
    metadata: dict[str, Any] = {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    metadata["uid"] = uid_of(resource["kind"], namespace, name)
    metadata["resourceVersion"] = resource_version(resource)
    metadata["creationTimestamp"] = CREATED
    labels = resource.get("labels")
    if isinstance(labels, dict):
        metadata["labels"] = {str(k): str(v) for k, v in labels.items()}
    annotations = (
        dict(resource["annotations"]) if isinstance(resource.get("annotations"), dict) else {}
    )
    extra = _unmapped(resource)
    if extra:
        annotations[DECLARED_ANNOTATION] = declared_annotation(extra)
    if annotations:
        metadata["annotations"] = {str(k): str(v) for k, v in annotations.items()}
    owner = resource.get("owner")
    if resource["kind"] == "pod" and isinstance(owner, str) and "/" in owner:
        owner_kind, _, owner_name = owner.partition("/")
        owned = BY_ESTATE_KIND.get(owner_kind)
        if owned is not None:
            metadata["ownerReferences"] = [
                {
                    "apiVersion": owned.api_version,
                    "kind": owned.kind,
                    "name": owner_name,
                    "uid": uid_of(owner_kind, namespace, owner_name),
                    "controller": True,
                }
            ]
    return metadata


def _workload(resource: Mapping[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    replicas = resource.get("replicas", 1)
    count = replicas if isinstance(replicas, int) and not isinstance(replicas, bool) else 1
    selector = labels or {"app": resource["name"]}
    ready = count if _healthy(_status_word(resource)) else 0
    spec = {
        "replicas": count,
        "selector": {"matchLabels": selector},
        "template": {
            "metadata": {"labels": selector},
            "spec": {"containers": _containers(resource)},
        },
    }
    status = {
        "observedGeneration": int(resource.get("generation", 0) or 0) + 1,
        "replicas": count,
        "readyReplicas": ready,
        "availableReplicas": ready,
        "updatedReplicas": count,
        "conditions": [
            {
                "type": "Available",
                "status": "True" if ready == count else "False",
                "reason": "MinimumReplicasAvailable" if ready == count else _status_word(resource),
                "lastTransitionTime": CREATED,
            }
        ],
    }
    if resource["kind"] == "statefulset":
        spec["serviceName"] = resource["name"]
        del status["availableReplicas"]
    return {"spec": spec, "status": status}


def _pod(resource: Mapping[str, Any]) -> dict[str, Any]:
    word = _status_word(resource)
    containers = _containers(resource)
    healthy = _healthy(word)
    phase = (
        "Pending"
        if word.lower() == "pending"
        else "Failed"
        if word.lower() == "failed"
        else "Running"
    )
    restarts = resource.get("restarts", 0)
    state: dict[str, Any] = (
        {"running": {"startedAt": CREATED}} if healthy else {"waiting": {"reason": word}}
    )
    statuses = [
        {
            "name": c.get("name", resource["name"]),
            "image": c.get("image", ""),
            "imageID": "",
            "ready": healthy,
            "restartCount": restarts if isinstance(restarts, int) else 0,
            "state": state,
        }
        for c in containers
    ]
    spec: dict[str, Any] = {"containers": containers}
    if isinstance(resource.get("node"), str):
        spec["nodeName"] = resource["node"]
    return {
        "spec": spec,
        "status": {
            "phase": phase,
            "conditions": [{"type": "Ready", "status": "True" if healthy else "False"}],
            "containerStatuses": statuses,
        },
    }


def _access(resource: Mapping[str, Any]) -> list[str]:
    declared = resource.get("access_modes")
    if isinstance(declared, list) and declared and all(isinstance(m, str) for m in declared):
        return list(declared)
    return ["ReadWriteOnce"]


def _storage_class(resource: Mapping[str, Any], spec: dict[str, Any]) -> None:
    if isinstance(resource.get("storage_class"), str):
        spec["storageClassName"] = resource["storage_class"]


def _claim(resource: Mapping[str, Any]) -> dict[str, Any]:
    """A PersistentVolumeClaim: its request, its volume and phase (``Bound`` when declared
    ``bound: true``, ``Pending`` otherwise, or what happened to it: ``Lost``)."""
    access = _access(resource)
    storage = resource.get("storage")
    spec: dict[str, Any] = {"accessModes": access, "resources": {}, "volumeMode": "Filesystem"}
    if storage is not None:
        spec["resources"] = {"requests": {"storage": str(storage)}}
    _storage_class(resource, spec)
    bound = resource.get("bound") is True
    volume = resource.get("volume")
    if bound and isinstance(volume, str):
        spec["volumeName"] = volume
    declared = resource.get("status")
    phase = declared if isinstance(declared, str) else "Bound" if bound else "Pending"
    status: dict[str, Any] = {"phase": phase}
    if phase == "Bound":
        status["accessModes"] = access
        if storage is not None:
            status["capacity"] = {"storage": str(storage)}
    return {"spec": spec, "status": status}


def _volume(resource: Mapping[str, Any]) -> dict[str, Any]:
    """A PersistentVolume: its capacity, reclaim policy, and the claim it is bound to."""
    spec: dict[str, Any] = {"accessModes": _access(resource), "volumeMode": "Filesystem"}
    if resource.get("storage") is not None:
        spec["capacity"] = {"storage": str(resource["storage"])}
    policy = resource.get("reclaim_policy")
    spec["persistentVolumeReclaimPolicy"] = policy if isinstance(policy, str) else "Delete"
    _storage_class(resource, spec)
    claim = resource.get("claim")
    if isinstance(claim, str) and "/" in claim:
        namespace, _, name = claim.partition("/")
        spec["claimRef"] = {
            "apiVersion": "v1",
            "kind": "PersistentVolumeClaim",
            "namespace": namespace,
            "name": name,
            "uid": uid_of("pvc", namespace, name),
        }
    declared = resource.get("status")
    phase = (
        declared if isinstance(declared, str) else "Bound" if "claimRef" in spec else "Available"
    )
    return {"spec": spec, "status": {"phase": phase}}


def access_modes_shown(modes: Any) -> str:
    """Access modes as kubectl prints them (``RWO,RWX``)."""
    if not isinstance(modes, list):
        return ""
    return ",".join(_ACCESS_MODES.get(str(m), str(m)) for m in modes)


_BY_KIND: Final = {r.kind: r for r in RESOURCES}


def derived(resource: Mapping[str, Any]) -> bool:
    """Whether ``resource`` is a Kubernetes manifest the physical estate derived (its reads
    answer manifests), not a declared resource."""
    return isinstance(resource.get("apiVersion"), str) and isinstance(
        resource.get("metadata"), dict
    )


def _served_manifest(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """A derived manifest as the API serves it: its identity and version in its metadata."""
    shown = copy.deepcopy(dict(manifest))
    metadata = shown["metadata"]
    served = _BY_KIND.get(str(shown.get("kind")))
    estate_kind = served.estate_kind if served is not None else str(shown.get("kind")).lower()
    name = str(metadata.get("name", ""))
    namespace = metadata.get("namespace") if isinstance(metadata.get("namespace"), str) else None
    metadata["uid"] = uid_of(estate_kind, namespace, name)
    metadata["resourceVersion"] = resource_version(manifest)
    metadata["creationTimestamp"] = CREATED
    status = shown.get("status")
    for container in status.get("containerStatuses", []) if isinstance(status, dict) else []:
        container.setdefault("imageID", "")  # required by the API's schema; none is pulled
    return shown


def physical_patch(
    estate_kind: str,
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    shown: Mapping[str, Any] | None = None,
) -> Any:
    """The `orchestration_patch` a write of ``new`` over the derived manifest ``old`` is: the
    fields the physical estate writes (a ConfigMap's or Secret's ``data``, a workload's
    replicas, any object's labels and annotations) and a workload's one container's image or
    env as the tool takes them, and anything else the write changes as it asked it — the tool
    answers that 422 unsupported, recorded with what was asked. ``shown``: the manifest as a
    read shows it, where ``old`` leaves out what the write names (`_kube_write._unnamed`)."""
    diff = merge_diff(old, new)
    if not isinstance(diff, dict):
        return {}
    diff.pop("status", None)  # derived, never written
    written: dict[str, Any] = {}
    metadata = diff.get("metadata")
    if isinstance(metadata, dict):  # identity and version are the server's
        for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields"):
            metadata.pop(key, None)
        # the object's own labels and annotations, on every kind: the declared estate's
        # fields of the same name (`si.sim._metadata_write`), so a label write is one
        # operation in both estates (SI red team 27, K5)
        for key in ("labels", "annotations"):
            if key in metadata:
                written[key] = metadata.pop(key)
        if not metadata:
            diff.pop("metadata")
    flat = _flat_container_write(estate_kind, old if shown is None else shown, new)
    if flat and _at(diff, *_pod_spec(estate_kind), "containers") is not None:
        # the one container's image or env, as the tool's fields (`fields_changed`): the
        # same write recorded as the same operation through the tools and the Kubernetes
        # face, so a forbidden image write is one whichever way it came (issue 44)
        written.update(flat)
        _drop_containers(diff, _pod_spec(estate_kind))
    spec = diff.get("spec")
    if estate_kind == "deployment" and isinstance(spec, dict) and set(spec) == {"replicas"}:
        written["replicas"] = diff.pop("spec")["replicas"]
    return {**diff, **written}


_TEMPLATE_SPEC: Final = ("spec", "template", "spec")


def _flat_container_write(
    estate_kind: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> dict[str, Any]:
    """The ``image`` and ``env`` a write of ``new`` over the derived manifest ``old`` gives
    its one container, when the container (kept by name) changes in nothing else — what the
    tools' patch of those fields writes; otherwise nothing (the change is recorded as asked)."""
    if estate_kind not in SCALABLE and estate_kind != "pod":
        return {}
    spec = _pod_spec(estate_kind)
    before, after = _at(old, *spec, "containers"), _at(new, *spec, "containers")
    if not (isinstance(before, list) and isinstance(after, list)):
        return {}
    if len(before) != 1 or len(after) != 1:
        return {}
    was, now = before[0], after[0]
    if not (isinstance(was, dict) and isinstance(now, dict)) or was.get("name") != now.get("name"):
        return {}
    changed = {key for key in set(was) | set(now) if was.get(key) != now.get(key)}
    if not changed <= {"image", "env"} or any(now.get(k) is None for k in changed):
        return {}
    # the container restated as it is: the fields it names, as the declared spelling's patch
    # naming an image's present value records it
    named = changed or {key for key in ("image", "env") if now.get(key) is not None}
    return {key: copy.deepcopy(now[key]) for key in sorted(named)}


def _pod_spec(estate_kind: str) -> tuple[str, ...]:
    return ("spec",) if estate_kind == "pod" else _TEMPLATE_SPEC


def _drop_containers(diff: dict[str, Any], spec: tuple[str, ...]) -> None:
    """``diff`` without the pod spec's ``containers``, and without what that leaves empty."""
    holders: list[dict[str, Any]] = [diff]
    for part in spec:
        inner = holders[-1].get(part)
        if not isinstance(inner, dict):
            return
        holders.append(inner)
    holders[-1].pop("containers", None)
    for part, holder in zip(reversed(spec), reversed(holders[:-1]), strict=True):
        if holder.get(part) == {}:
            holder.pop(part)


def to_kube(resource: Mapping[str, Any]) -> dict[str, Any]:
    """The Kubernetes object of one declared resource (hidden fields already removed), or of a
    manifest the physical estate derived."""
    if derived(resource):
        return _served_manifest(resource)
    served = BY_ESTATE_KIND.get(resource["kind"]) or SHOWN_ONLY[resource["kind"]]
    metadata = _metadata(resource, served)
    shown: dict[str, Any] = {"apiVersion": served.api_version, "kind": served.kind}
    shown["metadata"] = metadata
    kind = resource["kind"]
    if kind in SCALABLE:
        shown.update(_workload(resource, dict(metadata.get("labels", {}))))
    elif kind == "pod":
        shown.update(_pod(resource))
    elif kind == "configmap":
        if isinstance(resource.get("data"), dict):
            shown["data"] = {str(k): str(v) for k, v in resource["data"].items()}
    elif kind == "secret":
        shown["type"] = str(resource.get("type", "Opaque"))
        if isinstance(resource.get("data"), dict):
            shown["data"] = {str(k): str(v) for k, v in resource["data"].items()}
    elif kind == "service":
        spec: dict[str, Any] = {"type": str(resource.get("type", "ClusterIP"))}
        if isinstance(resource.get("ports"), list):
            spec["ports"] = copy.deepcopy(resource["ports"])
        if isinstance(resource.get("selector"), dict):
            spec["selector"] = copy.deepcopy(resource["selector"])
        shown["spec"] = spec
    elif kind in ("role", "clusterrole"):
        shown["rules"] = copy.deepcopy(resource.get("rules", []))
    elif kind == "pvc":
        shown.update(_claim(resource))
    elif kind == "pv":
        shown.update(_volume(resource))
    elif kind == "namespace":
        shown["status"] = {"phase": "Active"}
    elif kind == "node":
        ready = _healthy(_status_word(resource)) or "status" not in resource
        shown["status"] = {
            "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]
        }
    return shown


def object_of(resource: Mapping[str, Any]) -> dict[str, Any]:
    """What a read of ``resource`` answers, through the tools and through the Kubernetes
    endpoint alike: its Kubernetes object (`to_kube`) when its kind has a Kubernetes
    counterpart, else its declared fields as they are (a dashboard, an alert, a GitOps
    application, a migration: kinds Kubernetes has no object for)."""
    if derived(resource) or resource["kind"] in BY_ESTATE_KIND or resource["kind"] in SHOWN_ONLY:
        return to_kube(resource)
    return copy.deepcopy(dict(resource))


def _declared_extra(obj: Mapping[str, Any]) -> dict[str, Any] | None:
    metadata = obj.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    raw = annotations.get(DECLARED_ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(raw, str):
        return None
    try:
        extra = json.loads(raw)
    except ValueError:
        return None
    return extra if isinstance(extra, dict) else None


def _at(obj: Any, *path: str | int) -> Any:
    for part in path:
        if isinstance(part, int):
            if not isinstance(obj, list) or len(obj) <= part:
                return None
            obj = obj[part]
        elif isinstance(obj, dict):
            obj = obj.get(part)
        else:
            return None
    return obj


def merge_diff(before: Any, after: Any) -> Any:
    """The smallest RFC 7396 merge patch that turns ``before`` into ``after`` (a key that goes
    away is null; a list or a scalar is replaced whole)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return copy.deepcopy(after)
    patch: dict[str, Any] = {}
    for key in sorted(set(before) | set(after), key=str):
        if key not in after:
            patch[key] = None
        elif key not in before:
            patch[key] = copy.deepcopy(after[key])
        elif before[key] != after[key]:
            patch[key] = merge_diff(before[key], after[key])
    return patch


def _one_plain_container(container: Any, name: str) -> bool:
    """Whether the workload's one container is what its flat ``image`` and ``env`` show: named
    as the workload, nothing else set."""
    return (
        isinstance(container, dict)
        and set(container) <= {"name", "image", "env"}
        and container.get("name", name) == name
    )


def fields_changed(
    current: Mapping[str, Any], old: Mapping[str, Any], new: Mapping[str, Any]
) -> dict[str, Any]:
    """The merge patch of declared fields that turns ``current`` (the declared resource, whose
    object is ``old``) into what the object ``new`` says: only what differs between ``old`` and
    ``new``, as small as a merge patch can say it (``data.KEY``, not all of ``data``), so the
    operation recorded names the fields the agent changed, as the tools' patch does.
    Server-computed parts (``status``, uid, versions) are ignored."""
    patch: dict[str, Any] = {}
    kind = current["kind"]

    def changed(*path: str | int) -> bool:
        return bool(_at(old, *path) != _at(new, *path))

    def write(name: str, before: Any, after: Any) -> None:
        if after is None or after == {}:
            if name in current:
                patch[name] = None
        elif name in current:
            patch[name] = merge_diff(before, after)
        else:
            patch[name] = copy.deepcopy(after)

    for name in _METADATA_FIELDS:
        before, after = _at(old, "metadata", name), _at(new, "metadata", name)
        if name == "annotations":
            before, after = (
                {k: v for k, v in value.items() if k != DECLARED_ANNOTATION}
                if isinstance(value, dict)
                else value
                for value in (before, after)
            )
        if (before or None) != (after or None):
            write(name, before, after)
    if changed("metadata", "annotations", DECLARED_ANNOTATION):
        extra = _declared_extra(new) or {}
        before = _unmapped(current)
        for key in sorted(set(before) | set(extra)):
            if key not in _IDENTITY and before.get(key) != extra.get(key):
                if key in extra:
                    patch[key] = merge_diff(before.get(key), extra[key])
                elif key not in SERVER_OWNED_FIELDS:
                    patch[key] = None
                # a field the cluster keeps, left out of the annotation, keeps its value (as a
                # request that leaves out `status` does); naming it is a write, refused
                # (`si.sim.declared._operate.simulation_field_refusal`)
    if kind in SCALABLE or kind == "pod":
        spec = ("spec",) if kind == "pod" else ("spec", "template", "spec")
        if kind in SCALABLE and changed("spec", "replicas"):
            patch["replicas"] = _at(new, "spec", "replicas")
        if changed(*spec, "containers"):
            containers = _at(new, *spec, "containers")
            if (
                "containers" in current
                or not isinstance(containers, list)
                or len(containers) != 1
                or not _one_plain_container(containers[0], current["name"])
            ):
                # a container the flat fields cannot say (another name, ports, resources …)
                # is declared whole, as a scenario declares `containers`
                patch["containers"] = containers
            else:
                if changed(*spec, "containers", 0, "image"):
                    patch["image"] = _at(new, *spec, "containers", 0, "image")
                if changed(*spec, "containers", 0, "env"):
                    patch["env"] = _at(new, *spec, "containers", 0, "env")
        return patch
    for name in _MAPPED.get(kind, ()):
        where = ("spec", name) if kind == "service" else (name,)
        if changed(*where):
            write(name, _at(old, *where), _at(new, *where))
    return patch


# Parts of an object the server computes (or that name it): a write's value there is not a
# field written; `unwritable` never reports them.
_SERVER_PARTS: Final = frozenset(
    {
        ("apiVersion",),
        ("kind",),
        ("status",),
        ("metadata", "name"),
        ("metadata", "namespace"),
        ("metadata", "uid"),
        ("metadata", "resourceVersion"),
        ("metadata", "creationTimestamp"),
        ("metadata", "generation"),
        ("metadata", "managedFields"),
        ("metadata", "selfLink"),
        ("metadata", "deletionTimestamp"),
        ("metadata", "deletionGracePeriodSeconds"),
        ("metadata", "annotations", DECLARED_ANNOTATION),
    }
)


def _leaf_paths(value: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if isinstance(value, dict) and value:
        return [p for key in sorted(value, key=str) for p in _leaf_paths(value[key], (*path, key))]
    return [path]


def _merged(target: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """RFC 7396: ``target`` with the merge patch applied."""
    out = dict(target)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def unwritable(
    current: Mapping[str, Any], old: Mapping[str, Any], new: Mapping[str, Any]
) -> list[tuple[str, ...]]:
    """The fields (dotted Kubernetes paths) a write of ``new`` over ``old`` — the object of the
    declared resource ``current`` — sets that `fields_changed` cannot express: a value the
    request gives that differs from the object's and that the written resource would not show
    (a pod template's labels, a ``serviceAccountName``, a ``securityContext`` …). Such a write
    is refused, never answered 200 with the field dropped (docs/si-provider.md, "Writable
    fields"). A field the request leaves out is not one it sets (a ``PUT`` without ``status``
    or ``selector``: the server keeps or derives it)."""
    patch = fields_changed(current, old, new)
    own = {k: v for k, v in patch.items() if k not in _IDENTITY}
    secret = current.get("kind") == "secret"
    if secret:  # a Secret's stringData is stored in data, encoded (issue 44)
        own = secret_write(own)[0]
    shown = to_kube(_merged(current, own))
    found: list[tuple[str, ...]] = []
    for path in _leaf_paths(dict(new)):
        if not path or any(path[: len(part)] == part for part in _SERVER_PARTS):
            continue
        asked = _at(new, *path)
        if asked is None or asked == _at(old, *path) or asked == _at(shown, *path):
            continue
        if secret and _string_data_shown(path, asked, shown):
            continue
        found.append(path)
    return found


def _string_data_shown(path: tuple[str, ...], asked: Any, shown: Mapping[str, Any]) -> bool:
    """Whether ``asked`` at ``path`` is a Secret's ``stringData`` value the written object shows
    in ``data``, encoded, as the API server stores it (`primitives._secret_data`)."""
    if len(path) != 2 or path[0] != "stringData" or not isinstance(asked, str):
        return False
    return bool(_at(shown, "data", path[1]) == encoded(asked))


def unwritable_patch(new: Mapping[str, Any], paths: list[tuple[str, ...]]) -> dict[str, Any]:
    """The part of ``new`` at ``paths``, as a merge patch in Kubernetes spelling: what a refused
    write asked to set, recorded with the fields the tools' patch of it names."""
    patch: dict[str, Any] = {}
    for parts in paths:
        holder = patch
        for part in parts[:-1]:
            holder = holder.setdefault(part, {})
        holder[parts[-1]] = copy.deepcopy(_at(new, *parts))
    return patch


def fields_of(obj: Mapping[str, Any], estate_kind: str) -> dict[str, Any]:
    """The declared fields of a new object (a create): what `fields_changed` writes against an
    empty resource."""
    name = _at(obj, "metadata", "name")
    empty = {"kind": estate_kind, "name": name if isinstance(name, str) else ""}
    blank: dict[str, Any] = {"metadata": {}}
    written = fields_changed(empty, blank, obj)
    return {k: v for k, v in written.items() if v is not None}


__all__ = [
    "BY_ESTATE_KIND",
    "BY_PATH",
    "CREATED",
    "DECLARED_ANNOTATION",
    "GROUPS",
    "RESOURCES",
    "SCALABLE",
    "SHOWN_ONLY",
    "KubeResource",
    "access_modes_shown",
    "declared_annotation",
    "fields_changed",
    "fields_of",
    "merge_diff",
    "object_of",
    "resource_version",
    "to_kube",
    "uid_of",
    "unwritable",
    "unwritable_patch",
    "with_declared",
]
