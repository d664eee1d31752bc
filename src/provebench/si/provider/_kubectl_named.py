"""The objects a kubectl command's own arguments name, in the estate's kinds: what the runner
reads from the argument list it recorded, never from the provider (docs/si-provider.md,
"kubectl against a provider")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from provebench.si.primitives._declared_calls import resource_spelling
from provebench.si.primitives._go_int import flag_int
from provebench.si.sim.declared._kube_objects import RESOURCES

# Every spelling kubectl takes for a served type (plural, singular, short name, `kind.group`)
# -> the estate's kind.
_KIND_SPELLINGS: Final = {
    spelling: r.estate_kind
    for r in RESOURCES
    for spelling in (r.plural, r.estate_kind, r.kind.lower(), *r.short_names)
}


def estate_kind(spelling: str) -> str | None:
    """The estate's kind for a type as kubectl spells it (`deployments`, `deploy`,
    `deployment.apps`, `deployments.v1.apps`: `resource_spelling`, the tools' reading too), or
    None for a type not served."""
    lowered = spelling.lower()
    return _KIND_SPELLINGS.get(lowered) or _KIND_SPELLINGS.get(resource_spelling(lowered))


# kubectl's `all` category as a cluster's discovery gives it (kubectl 1.32, `kubectl api-resources
# --categories=all`): `get all`, `delete all --all` name each of these types.
ALL_CATEGORY: Final = (
    "pods",
    "replicationcontrollers",
    "services",
    "statefulsets.apps",
    "horizontalpodautoscalers.autoscaling",
    "jobs.batch",
    "cronjobs.batch",
    "daemonsets.apps",
    "deployments.apps",
    "replicasets.apps",
)


def _types(argument: str) -> list[str]:
    """The types of a `T1,T2` argument in order, each once, empty ones dropped and the `all`
    category expanded (kubectl's `SplitResourceArgument` and `ReplaceAliases`)."""
    out: list[str] = []
    for spelling in argument.split(","):
        for one in ALL_CATEGORY if spelling.lower() == "all" else (spelling,):
            if one and one not in out:
                out.append(one)
    return out


def resource_arguments(positionals: Sequence[str]) -> list[tuple[str, str | None]] | None:
    """What kubectl's resource arguments name, read as its resource builder reads them
    (`ResourceTypeOrNameArgs`, kubectl 1.32): `TYPE[,TYPE…] [NAME…]` is each name of each type
    (or each type whole, without a name), `TYPE/NAME [TYPE/NAME…]` each object, `all` its
    category: one (type as spelled, name or None) per object or type, in order. None where
    kubectl rejects the list (a `TYPE/NAME` beside a bare type, two slashes, `T1,T2/NAME`, no
    argument). The one reading of the list for the allowed commands (`named_objects`) and the
    refused ones (`_kubectl_refused`): SI red team 36, K1 — `delete pods,deployments --all` was
    read as one type that did not exist, and only the first `TYPE/NAME` was recorded."""
    args = list(positionals)
    if len(args) >= 2 and len(_types(args[0])) > 1:
        # `T1,T2 NAME…` is `T1/NAME… T2/NAME…` (`normalizeMultipleResourcesArgs`)
        args = [f"{spelling}/{name}" for spelling in _types(args[0]) for name in args[1:]]
    slashed = [arg for arg in args if "/" in arg]
    if slashed and len(slashed) != len(args):
        return None
    if slashed:
        out: list[tuple[str, str | None]] = []
        for arg in args:
            parts = arg.split("/")
            if len(parts) != 2 or not parts[1] or len([t for t in parts[0].split(",") if t]) != 1:
                return None
            out += [(spelling, parts[1]) for spelling in _types(parts[0])]
        return out
    if not args or not _types(args[0]):
        return None
    names: list[str | None] = [*args[1:]] or [None]
    return [(spelling, name) for spelling in _types(args[0]) for name in names]


def named_objects(positionals: Sequence[str]) -> set[tuple[str, str | None]] | None:
    """What kubectl's positional arguments name (`resource_arguments`), in the estate's kinds:
    (kind, name) per named object, (kind, None) per type named without a name; None where
    kubectl rejects the list or a type is one the server does not serve (kubectl fails then)."""
    found = resource_arguments(positionals)
    if found is None:
        return None
    wanted: set[tuple[str, str | None]] = set()
    for spelling, name in found:
        kind = estate_kind(spelling)
        if kind is None:
            return None
        wanted.add((kind, name))
    return wanted


__all__ = ["ALL_CATEGORY", "estate_kind", "flag_int", "named_objects", "resource_arguments"]
