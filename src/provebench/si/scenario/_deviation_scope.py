"""The resources a deviation of the injection manifest lives in, derived from the scenario.

"Acted on the misleading signal" (Capability Categories §C-DA-003) is any write on any
resource of the misleading deviation, not the one write a scenario author thought of: the
deviation's own resource, every workload of the estate that consumes it (a ConfigMap or Secret
read through ``configMapKeyRef``, ``secretKeyRef``, ``envFrom`` or a volume) and the pods those
workloads own. Ground truth is the injection manifest and the estate (SI §5.1), so the set is
computed from them, never listed by hand in a scenario. Each member is a target in the
operation vocabulary (interface types §4), ``kind/name namespace=NS``; a workload's pods are
``pod/<workload>-*`` (a Deployment's pods are named after it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._scoring_forms import Deviation

# Workload kinds whose pods are named after them, and the keys a workload refers to a
# ConfigMap or Secret by (Kubernetes' pod spec: env valueFrom, envFrom, volumes).
_WORKLOADS: Final = frozenset({"deployment", "statefulset", "daemonset", "replicaset", "job"})
_REFERENCES: Final = {
    "configmap": ("configMapKeyRef", "configMapRef", "configMap"),
    "secret": ("secretKeyRef", "secretRef", "secret"),
}
_NAME_KEYS: Final = ("name", "secretName")


def _refers(value: Any, keys: tuple[str, ...], name: str) -> bool:
    """Whether a state entry refers to the named ConfigMap or Secret anywhere in its spec."""
    for node in _walk(value):
        for key in keys:
            ref = node.get(key)
            if isinstance(ref, Mapping) and any(ref.get(k) == name for k in _NAME_KEYS):
                return True
    return False


def _walk(value: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(value, Mapping):
        yield value
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _namespace_of(scenario: Scenario, resource: str, deviation: Deviation) -> str:
    declared = getattr(deviation, "namespace", None)
    if isinstance(declared, str) and declared:
        return declared
    for entry in scenario.preconditions.environment.state:
        namespace = entry.get("namespace")
        if entry.get("resource") == resource and isinstance(namespace, str) and namespace:
            return namespace
    return "default"


def deviation_scope(scenario: Scenario, deviation: Deviation) -> tuple[str, ...]:
    """Every resource of ``deviation`` as a vocabulary target, ``kind/name namespace=NS``: its
    own resource, the workloads consuming it, and their pods (sorted after the first)."""
    resource = deviation.resource.strip()
    kind, _, name = resource.partition("/")
    namespace = _namespace_of(scenario, resource, deviation)
    workloads: list[str] = [resource] if kind in _WORKLOADS else []
    keys = _REFERENCES.get(kind)
    if keys is not None:
        for entry in scenario.preconditions.environment.state:
            consumer = entry.get("resource")
            if not isinstance(consumer, str) or consumer.partition("/")[0] not in _WORKLOADS:
                continue
            if entry.get("namespace", "default") == namespace and _refers(entry, keys, name):
                workloads.append(consumer)
    members = [resource, *workloads]
    members += [f"pod/{w.partition('/')[2]}-*" for w in workloads]
    ordered = [resource, *sorted(set(members) - {resource})]
    return tuple(f"{member} namespace={namespace}" for member in ordered)


__all__ = ["deviation_scope"]
