"""A write of an object's own labels and annotations in the physical estate: one rule for every
kind it holds, the declared estate's (docs/si-profile.md, "Do the two estates agree?").

``kubectl label`` / ``kubectl annotate``, a merge patch of ``metadata.labels`` or
``metadata.annotations`` through the Kubernetes face, and the tools' ``orchestration_patch``
of ``labels`` / ``annotations`` all reach the estate as one patch of those two fields (the
translation `si.sim.declared._kube_write.write_of` names them so for both estates), recorded by
the fields it names (``labels.tier``), as the declared estate records it. A merge patch
(RFC 7396): a key set to a string is set, to null removed. It is the object's metadata, no new
generation (`_estate._generation`): a deployment's pods keep their labels and names, its
declared status stays, and the pod template's labels are kept apart from the deployment's own
(`Deployment.template_labels`), as Kubernetes keeps a Deployment's labels apart from its
template's (SI red team 27, K5: an honest ``kubectl annotate`` was refused 422 here and
performed in the declared estate).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from provebench.si.sim._estate import METADATA_FIELDS, Estate, labels_of, parse_key
from provebench.si.sim.declared._kube_objects import reserved_annotation


class MetadataRefused(Exception):
    """A metadata write the estate refuses: ``code`` (the tools' error code) and why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _shown(estate: Estate, key: str, field: str) -> dict[str, str]:
    """The labels or annotations a read of the object shows: what the patch merges over (a
    deployment declared without labels shows ``app: NAME``, `labels_of`; a namespace no entry
    declared shows none)."""
    if key not in estate:
        return {}
    if field == "labels" and parse_key(key)[0] == "deployment":
        return labels_of(estate.deployment(key), parse_key(key)[2])
    held = estate.raw(key).get(field)
    return dict(held) if isinstance(held, Mapping) else {}


def _merged(current: dict[str, str], field: str, given: Any) -> dict[str, str]:
    if given is None:  # RFC 7396: null removes the whole field
        return {}
    if not isinstance(given, Mapping):
        raise MetadataRefused("bad_request", f"{field} must be an object")
    reserved = reserved_annotation(given) if field == "annotations" else None
    if reserved is not None:  # one refusal for both estates
        raise MetadataRefused("unsupported_field", reserved)
    merged = dict(current)
    for name, value in sorted(given.items()):
        if value is None:
            merged.pop(name, None)
        elif isinstance(value, str):
            merged[name] = value
        else:
            raise MetadataRefused("bad_request", f"{field}.{name} must be a string")
    return merged


def write_metadata(
    estate: Estate, key: str, patch: Mapping[str, Any], data: dict[str, dict[str, Any]]
) -> None:
    """Set in ``data`` (a copy of ``estate``'s resources) the labels and annotations ``patch``
    names of the object at ``key``; `MetadataRefused` when it asks what the estate refuses."""
    for field in METADATA_FIELDS:
        if field not in patch:
            continue
        current = _shown(estate, key, field)
        merged = _merged(current, field, patch[field])
        if merged == current:
            continue
        resource = data[key]
        if field == "labels" and parse_key(key)[0] == "deployment":
            # the pods and the selector keep the labels they had (Kubernetes keeps a
            # Deployment's metadata apart from its pod template's)
            resource.setdefault("template_labels", current)
        if merged or field == "labels":
            resource[field] = merged  # no labels at all is `{}`, never the implied `app`
        else:
            resource.pop(field, None)


__all__ = ["MetadataRefused", "write_metadata"]
