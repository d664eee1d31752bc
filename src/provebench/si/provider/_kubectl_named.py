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


def named_objects(positionals: Sequence[str]) -> set[tuple[str, str | None]] | None:
    """What kubectl's positional arguments name (`TYPE NAME…`, `TYPE/NAME…`, `T1,T2`): (kind,
    name) per named object, (kind, None) per type named without a name; None where a type is
    one the server does not serve (kubectl fails then)."""
    if not positionals:
        return None
    wanted: set[tuple[str, str | None]] = set()
    if any("/" in p for p in positionals):
        for positional in positionals:
            spelling, _, name = positional.partition("/")
            kind = estate_kind(spelling)
            if kind is None or not name:
                return None
            wanted.add((kind, name))
        return wanted
    for spelling in positionals[0].split(","):
        kind = estate_kind(spelling)
        if kind is None:
            return None
        names = positionals[1:]
        wanted |= {(kind, name) for name in names} if names else {(kind, None)}
    return wanted


__all__ = ["estate_kind", "flag_int", "named_objects"]
