"""The objects a kubectl command's own arguments name, in the estate's kinds: what the runner
reads from the argument list it recorded, never from the provider (docs/si-provider.md,
"kubectl against a provider")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from provebench.si.sim.declared._kube_objects import RESOURCES

# Every spelling kubectl takes for a served type (plural, singular, short name, `kind.group`)
# -> the estate's kind.
_KIND_SPELLINGS: Final = {
    spelling: r.estate_kind
    for r in RESOURCES
    for spelling in (r.plural, r.estate_kind, r.kind.lower(), *r.short_names)
}

# An integer flag's value as kubectl's flag parser reads it (Go's `strconv.ParseInt(s, 0, 64)`):
# a sign, then hexadecimal, octal (`0o17` or a leading `0`), binary or decimal digits. Digit
# separators (`1_000`) are left out: such a value is not derived, so not held.
_GO_INT: Final = re.compile(
    r"(?P<sign>[+-]?)(?:0[xX](?P<hex>[0-9a-fA-F]+)|0[oO](?P<oct>[0-7]+)|0[bB](?P<bin>[01]+)"
    r"|(?P<zero>0[0-7]*)|(?P<dec>[1-9][0-9]*))"
)


def flag_int(text: str) -> int | None:
    """The integer kubectl reads from an integer flag's value (`--replicas=0x10` is 16,
    `--replicas=010` is 8), or None for a value it would not take as one."""
    found = _GO_INT.fullmatch(text)
    if found is None:
        return None
    if found["hex"] is not None:
        value = int(found["hex"], 16)
    elif found["oct"] is not None:
        value = int(found["oct"], 8)
    elif found["bin"] is not None:
        value = int(found["bin"], 2)
    elif found["zero"] is not None:
        value = int(found["zero"], 8)
    else:
        value = int(found["dec"])
    value = -value if found["sign"] == "-" else value
    return value if -(2**63) <= value < 2**63 else None


def estate_kind(spelling: str) -> str | None:
    """The estate's kind for a type as kubectl spells it (`deployments`, `deploy`,
    `deployment.apps`), or None for a type not served."""
    lowered = spelling.lower()
    return _KIND_SPELLINGS.get(lowered) or _KIND_SPELLINGS.get(lowered.split(".", 1)[0])


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
