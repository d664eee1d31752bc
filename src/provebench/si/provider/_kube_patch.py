"""The three patch forms kubectl sends (``kubectl patch --type``), applied to a Kubernetes object.

* ``application/json-patch+json`` — RFC 6902, by the `jsonpatch` library;
* ``application/merge-patch+json`` — RFC 7396 (the simulator's own merge patch);
* ``application/strategic-merge-patch+json`` — a merge patch in which the lists Kubernetes
  merges by key (containers, env, ports, volumes … by ``name``) are merged item by item, and
  the ``$patch: delete`` / ``$patch: replace`` directives and ``$setElementOrder`` /
  ``$retainKeys`` / ``$deleteFromPrimitiveList`` keys are honoured or dropped as the API server
  does for the lists it knows. Lists without a merge key are replaced, as in a merge patch.

Server-side apply (``application/apply-patch+yaml``) is not served: `PatchError` with 415.
"""

from __future__ import annotations

import copy
from typing import Any, Final

import jsonpatch

from provebench.si.sim.declared._operate import merge_patch

JSON_PATCH: Final = "application/json-patch+json"
MERGE_PATCH: Final = "application/merge-patch+json"
STRATEGIC_PATCH: Final = "application/strategic-merge-patch+json"
PATCH_TYPES: Final = (JSON_PATCH, MERGE_PATCH, STRATEGIC_PATCH)
# The lists of the served kinds that Kubernetes merges by a key (patchMergeKey).
_MERGE_KEYS: Final = {
    "containers": "name",
    "initContainers": "name",
    "env": "name",
    "volumes": "name",
    "volumeMounts": "mountPath",
    "ports": "containerPort",
    "imagePullSecrets": "name",
    "tolerations": "key",
}


class PatchError(ValueError):
    """A patch that cannot be applied: the HTTP status and why."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


def _strategic_list(key: str, target: Any, patch: list[Any]) -> list[Any]:
    merge_key = _MERGE_KEYS.get(key)
    if merge_key == "containerPort" and any(
        isinstance(item, dict) and "containerPort" not in item for item in patch
    ):
        merge_key = "port"  # a Service's ports merge by `port`
    if merge_key is None or not isinstance(target, list):
        return [_strip(item) for item in patch]
    if any(isinstance(item, dict) and item.get("$patch") == "replace" for item in patch):
        return [_strip(i) for i in patch if not (isinstance(i, dict) and "$patch" in i)]
    result = copy.deepcopy(target)
    for item in patch:
        if not isinstance(item, dict) or merge_key not in item:
            raise PatchError(f"an item of {key!r} needs its merge key {merge_key!r}")
        index = next(
            (
                i
                for i, present in enumerate(result)
                if isinstance(present, dict) and present.get(merge_key) == item[merge_key]
            ),
            None,
        )
        if item.get("$patch") == "delete":
            if index is not None:
                del result[index]
            continue
        if index is None:
            result.append(_strip(item))
        else:
            result[index] = strategic_merge(result[index], item)
    return result


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if not k.startswith("$")}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def strategic_merge(target: Any, patch: Any) -> Any:
    """A strategic merge patch over the lists Kubernetes merges by key (module doc)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return _strip(patch)
    if patch.get("$patch") == "delete":
        return None
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if key.startswith("$"):
            continue  # $setElementOrder, $retainKeys …: ordering hints, nothing to write
        if value is None:
            result.pop(key, None)
        elif isinstance(value, list):
            result[key] = _strategic_list(key, result.get(key), value)
        else:
            merged = strategic_merge(result.get(key), value)
            if merged is None:
                result.pop(key, None)
            else:
                result[key] = merged
    return result


def apply_patch(content_type: str, target: dict[str, Any], patch: Any) -> dict[str, Any]:
    """``target`` with ``patch`` applied, in the form the request's Content-Type names."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == JSON_PATCH:
        if not isinstance(patch, list):
            raise PatchError("a JSON patch is a list of operations", 400)
        result = target
        for index, operation in enumerate(patch):
            try:
                result = jsonpatch.apply_patch(result, [operation])
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, TypeError):
                # Never the library's text: it quotes the object's values (a failed `test`
                # shows what is there), and a refused request must reveal nothing.
                raise PatchError(
                    f"the JSON patch cannot be applied: operation {index} fails"
                ) from None
    elif media in (MERGE_PATCH, STRATEGIC_PATCH):
        if not isinstance(patch, dict):
            raise PatchError("a merge patch is a JSON object", 400)
        result = (
            merge_patch(target, patch) if media == MERGE_PATCH else strategic_merge(target, patch)
        )
    else:
        raise PatchError(
            f"the patch type {media or '(none)'!r} is not served (served: "
            f"{', '.join(PATCH_TYPES)}; no server-side apply)",
            415,
        )
    if not isinstance(result, dict):
        raise PatchError("the patched object is not an object")
    return result


__all__ = ["PATCH_TYPES", "PatchError", "apply_patch", "strategic_merge"]
