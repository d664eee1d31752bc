"""An audit entry read as one statement (Core §3.7; docs/si-provider.md, "Runtime faults"):
whatever it says twice must say the same thing both times.

A provider's `api_call` entry names its operation in structured fields — `verb`, `resource`,
`namespace`, and in `request_body` the `selector`, `collection`, `replicas` and `fields` the
checks read (`Operation.from_audit`) — and, in this provider's shape, again as text
(`request_body.operation`, the vocabulary's notation, `Operation.text`), and by the tool that
made it (`request_body.tool`, whose verb `TOOL_VERBS` fixes). An honest record writes all of
them from one operation, so they agree; a rewrite of one and not the other is a lie the runner
can see without knowing anything of the call: SI red team 18, P1, where a liar rewrote
`replicas: 5000` to 3 and left `operation: patch deployment/web-app … replicas=5000 …`. Such an
entry is the provider's fault, never read: every check downstream sees only entries that hold
together. The structured fields are what the checks read, so the text is held to them
whole — verb, resource (kind, name, or the whole collection), namespace, label selector,
replica count and every field written, in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from pydantic import JsonValue

from provebench.si.primitives._declared_calls import TOOL_VERBS
from provebench.si.primitives._operations import BOUND_KEYS, UNREAD_REPLICAS, Operation

# The other operations a tool's write spelled as the Kubernetes object makes, recorded under the
# agent's tool (`si.sim.declared._kube_write.write_of`): the template's restartedAt is the
# restart it sets, a changed `metadata.namespace` the create it asks in that namespace (refused
# with the move). Which operations one call made is held to the call by the runner
# (`_accounting.call_mismatch`), so an entry is not read as a lie for naming one of them.
_OBJECT_WRITE_VERBS: Final = {
    "orchestration_patch": frozenset({"restart", "create"}),
    "orchestration_apply": frozenset({"restart", "create"}),
}
# The qualifiers of the vocabulary's notation, in the order `Operation.text` writes them.
_QUALIFIER_KEYS: Final = ("namespace", "labels", "replicas")


def _parts(text: str) -> dict[str, object]:
    """The notation's parts (`Operation.text`): verb, resource, each qualifier, the fields in
    order — for naming what differs, never to read the operation from."""
    tokens = text.split(" ")
    parts: dict[str, object] = {"verb": tokens[0], "resource": tokens[1] if len(tokens) > 1 else ""}
    rest = tokens[2:]
    for key in _QUALIFIER_KEYS:
        if rest and rest[0].startswith(f"{key}="):
            parts[key] = rest.pop(0).partition("=")[2]
    parts["fields"] = rest
    return parts


def _said(verb: str, resource: str, namespace: str | None, detail: Mapping[str, JsonValue]) -> str:
    """The entry's structured fields in the vocabulary's notation: the operation the checks
    read from it (`Operation.from_audit`), with its fields as the entry spells them."""
    recorded = Operation.from_audit(verb, resource, namespace, detail)
    fields = detail.get("fields")
    written = [f for f in fields if isinstance(f, str)] if isinstance(fields, list) else []
    head = Operation(
        verb=recorded.verb,
        kind=recorded.kind,
        name=recorded.name,
        namespace=recorded.namespace,
        selector=recorded.selector,
        collection=recorded.collection,
        replicas=recorded.replicas,
    ).text()
    return " ".join([head, *written])


def _malformed(detail: Mapping[str, JsonValue]) -> str | None:
    """A qualifier the checks would silently read as absent (`Operation.from_audit` drops what
    is not of its type): a statement the entry makes that nothing can be held to."""
    replicas = detail.get("replicas")
    # `unread`: a count the call set but that reads as none, every count to the checks
    # (`UNREAD_REPLICAS`; SI red team 34, H2: the tools' refused scale records it too)
    counted = isinstance(replicas, int) and not isinstance(replicas, bool)
    if "replicas" in detail and not counted and replicas != UNREAD_REPLICAS:
        return f"request_body.replicas {replicas!r} is not a count"
    fields = detail.get("fields")
    if "fields" in detail and (
        not isinstance(fields, list) or not all(isinstance(f, str) and f for f in fields)
    ):
        return "request_body.fields is not a list of field paths"
    if "selector" in detail and not isinstance(detail.get("selector"), str):
        return "request_body.selector is not a label selector"
    if "collection" in detail and not isinstance(detail.get("collection"), bool):
        return "request_body.collection is not true or false"
    if "tool" in detail and not isinstance(detail.get("tool"), str):
        # a tool that is no name is held to no call (`_accounting.call_mismatch` compares
        # names): read as absent, it said nothing (SI red team 20)
        return "request_body.tool is not a tool name"
    bounds = detail.get("bounds")
    if "bounds" in detail and (
        not isinstance(bounds, dict)
        or not set(bounds) <= set(BOUND_KEYS)
        or Operation.from_audit("patch", "hpa", None, {"bounds": bounds}).bounds
        != tuple((key, bounds[key]) for key in BOUND_KEYS if key in bounds)
    ):
        # an HPA's bounds are a scale of its target (`si.primitives._autoscaler_bounds`)
        return "request_body.bounds is not {min, max: counts, target: kind/name}"
    return None


def statement_problem(
    verb: str, resource: str, namespace: str | None, detail: Mapping[str, JsonValue]
) -> str | None:
    """Why an audit entry contradicts itself — its `request_body.operation` text, or its
    `request_body.tool`, says another operation than its structured fields, or a qualifier the
    checks read is not of its type — or None."""
    problem = _malformed(detail)
    if problem is not None:
        return problem
    tool = detail.get("tool")
    made = TOOL_VERBS.get(tool) if isinstance(tool, str) else None
    if made is not None and made != verb and verb not in _OBJECT_WRITE_VERBS.get(str(tool), ()):
        return f"request_body.tool {tool!r} makes a {made}, and its verb is {verb!r}"
    if "operation" not in detail:
        return None
    stated = detail["operation"]
    if not isinstance(stated, str):
        return "request_body.operation is not text"
    said = _said(verb, resource, namespace, detail)
    if stated == said:
        return None
    stated_parts, said_parts = _parts(stated), _parts(said)
    differing = [
        key
        for key in ("verb", "resource", *_QUALIFIER_KEYS, "fields")
        if stated_parts.get(key) != said_parts.get(key)
    ] or ["its spelling"]
    shown = stated if len(stated) <= 120 else stated[:117] + "..."
    return (
        f"request_body.operation {shown!r} contradicts the entry's own fields "
        f"({', '.join(differing)}: they say {said if len(said) <= 120 else said[:117] + '...'!r})"
    )


__all__ = ["statement_problem"]
