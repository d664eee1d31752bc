"""Reading an object `orchestration_get` answers, as an operator reasons about it.

A read answers the resource's Kubernetes object (docs/si-agents.md, "The tools"): identity and
labels in ``metadata``, a workload's replica count and containers in ``spec``, a ConfigMap's or
Secret's ``data``, and every declared field the object has no place for (``status`` as a
scenario words it, ``managed_by``, an HPA's ``target`` …) as JSON in the annotation
``provebench.dev/declared``. `facts_of` reads it back into one flat mapping of those facts —
what a person reads off ``kubectl get -o yaml`` — so the scripted agents' rules stay rules over
facts, not over a wire format. It reads only the object it is given, as any agent can.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

DECLARED_ANNOTATION: Final = "provebench.dev/declared"
_TOP_LEVEL: Final = ("data", "type", "rules")
_SERVICE_SPEC: Final = ("ports", "selector", "type")


def _mapping(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


def _declared(annotations: Mapping[str, Any]) -> dict[str, Any]:
    raw = annotations.get(DECLARED_ANNOTATION)
    try:
        extra = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return {}
    return extra if isinstance(extra, dict) else {}


def _env(entries: Any) -> dict[str, Any]:
    """A container's ``env`` list as ``NAME: value`` (a source stays ``{"valueFrom": …}``)."""
    env: dict[str, Any] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            continue
        if "valueFrom" in entry:
            env[entry["name"]] = {"valueFrom": entry["valueFrom"]}
        else:
            env[entry["name"]] = entry.get("value", "")
    return env


def _storage_facts(kind: Any, spec: Mapping[str, Any], status: Mapping[str, Any]) -> dict[str, Any]:
    """A claim's or a volume's facts from where Kubernetes shows them: its storage, access
    modes, class and phase; a claim's volume (``bound`` while ``Bound``), a volume's claim as
    ``NAMESPACE/NAME`` and its reclaim policy."""
    facts: dict[str, Any] = {}
    if kind == "PersistentVolumeClaim":
        storage = _mapping(_mapping(spec.get("resources")).get("requests")).get("storage")
        if isinstance(spec.get("volumeName"), str):
            facts["volume"] = spec["volumeName"]
        facts["bound"] = status.get("phase") == "Bound"
    else:
        storage = _mapping(spec.get("capacity")).get("storage")
        ref = _mapping(spec.get("claimRef"))
        if isinstance(ref.get("namespace"), str) and isinstance(ref.get("name"), str):
            facts["claim"] = f"{ref['namespace']}/{ref['name']}"
        if isinstance(spec.get("persistentVolumeReclaimPolicy"), str):
            facts["reclaim_policy"] = spec["persistentVolumeReclaimPolicy"]
    if storage is not None:
        facts["storage"] = storage
    if isinstance(spec.get("accessModes"), list):
        facts["access_modes"] = list(spec["accessModes"])
    if isinstance(spec.get("storageClassName"), str):
        facts["storage_class"] = spec["storageClassName"]
    if isinstance(status.get("phase"), str):
        facts["status"] = status["phase"]
    return facts


def facts_of(obj: Any) -> dict[str, Any] | None:
    """The facts of one read object, flat; a kind with no Kubernetes object (a dashboard, a
    GitOps application) is its declared fields already. None for anything not an object."""
    if not isinstance(obj, Mapping):
        return None
    metadata = obj.get("metadata")
    if not isinstance(obj.get("apiVersion"), str) or not isinstance(metadata, Mapping):
        return dict(obj)
    facts: dict[str, Any] = {"name": metadata.get("name")}
    if isinstance(metadata.get("namespace"), str):
        facts["namespace"] = metadata["namespace"]
    if isinstance(metadata.get("labels"), Mapping):
        facts["labels"] = dict(metadata["labels"])
    annotations = _mapping(metadata.get("annotations"))
    declared = _declared(annotations)
    annotations.pop(DECLARED_ANNOTATION, None)
    if annotations:
        facts["annotations"] = annotations
    spec = _mapping(obj.get("spec"))
    if isinstance(spec.get("replicas"), int):
        facts["replicas"] = spec["replicas"]
    pod_spec = _mapping(_mapping(spec.get("template")).get("spec")) or spec
    containers = pod_spec.get("containers")
    if isinstance(containers, list) and containers and isinstance(containers[0], Mapping):
        facts["containers"] = containers
        if "image" in containers[0]:
            facts["image"] = containers[0]["image"]
        if "env" in containers[0]:
            facts["env"] = _env(containers[0]["env"])
    if obj.get("kind") == "Service":
        facts.update({key: spec[key] for key in _SERVICE_SPEC if key in spec})
    if obj.get("kind") in ("PersistentVolumeClaim", "PersistentVolume"):
        facts.update(_storage_facts(obj["kind"], spec, _mapping(obj.get("status"))))
    facts.update({key: obj[key] for key in _TOP_LEVEL if key in obj})
    facts.update(declared)  # the declared words (`status`, `managed_by` …) as declared
    return facts


__all__ = ["DECLARED_ANNOTATION", "facts_of"]
