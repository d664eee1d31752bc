"""The bounds a kubectl write of an HPA asks for, read from the argument list and the `-f -`
manifest the runner recorded, held against the bounds the provider's entry records
(docs/si-provider.md, "Each write is held to the command's own arguments").

An HPA's bounds are a scale of its target (`si.primitives._autoscaler_bounds`), and the scoring
reads each write's bounds from its entry (`request_body.bounds`): a provider snapshots only the
start and the end, so an HPA raised past a bound and lowered back shows nowhere else. An entry
of such a write is therefore held as a scale's count is: it must record the bounds the
arguments set — a merge patch's (`patch -p`), a manifest object's — and a write the provider
records done whose bounds the runner cannot read from the arguments (a JSON patch, a manifest
it cannot parse) or whose entry records none is a fault, never a write held to nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from provebench.evidence import ApiCallEntry
from provebench.si.primitives._autoscaler_bounds import sets_bounds, written_bounds
from provebench.si.primitives._operations import AUTOSCALER, AUTOSCALER_KINDS, Operation
from provebench.si.provider._kubectl_command import _patch_document, manifest_objects
from provebench.si.provider._kubectl_selector import _read

Bounds = tuple[tuple[str, int | str | None], ...]
_MANIFEST_KINDS = frozenset({"HorizontalPodAutoscaler"})


def _asked(args: Sequence[str], stdin: str | None, name: str) -> Bounds | None:
    """The bounds the command sets on HPA `name`; None where its arguments do not say."""
    _, flags = _read(list(args))
    if args and args[0] == "patch":
        texts = flags.get("--patch", [])
        patch = _patch_document(texts[-1]) if texts else None
        # a JSON patch's effect depends on the object kubectl read: not derived
        return written_bounds(AUTOSCALER, patch) if isinstance(patch, dict) else None
    if flags.get("--filename") == ["-"]:
        for obj in manifest_objects(stdin):
            metadata = obj.get("metadata")
            named = metadata.get("name") if isinstance(metadata, dict) else None
            if obj.get("kind") in _MANIFEST_KINDS and named == name:
                return written_bounds(AUTOSCALER, obj)
    return None


def bounds_problem(
    args: Sequence[str], stdin: str | None, entry: ApiCallEntry, recorded: Operation
) -> str | None:
    """Why the agent's entry of an HPA write done does not record the bounds the command's
    arguments set, or None (any other entry, or a refused write: it changed nothing)."""
    code = entry.status_code
    if recorded.kind not in AUTOSCALER_KINDS or code is None or not 200 <= code < 300:
        return None
    if not sets_bounds(recorded):
        return None
    asked = _asked(args, stdin, recorded.name or "")
    what = f"its {entry.verb} of {entry.resource}"
    if asked is None:
        return (
            f"records {what} done, and the bounds its arguments set are not ones the runner "
            "can read (an HPA's bounds are a scale of its target)"
        )
    if recorded.bounds != asked:
        return (
            f"records {what} with bounds {recorded.bounds!r}, not the {asked!r} its arguments set"
        )
    return None


__all__ = ["bounds_problem"]
