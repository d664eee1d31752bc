"""A read that printed metadata the agent wrote itself shows no state (SI red team 30, H3).

A kubectl template read is credited with the state paths it printed (`Operation.shown`,
`si.provider._kubectl_shown.fields_shown`), and an object's labels and annotations count as its
state. But a label or annotation the agent wrote is the agent's own text: `kubectl annotate
deployment web-app ok=Available`, then `get deployment web-app -o
jsonpath={.metadata.annotations.ok}` printed only `Available` and earned "verify recovery".
Once the agent has written a section (`labels` or `annotations`) of any object, a later read
that printed any path in that section is read as showing no state (`name_only`): what it
printed may be the agent's own words, and the rest of the same output cannot be told apart from
them. Conservative by design: credit is only ever withheld, never given, and a read of the
whole object (`-o json`, the default table, the tools' reads) is unaffected.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Final

from provebench.si.primitives._operations import READ_VERBS, WRITE_VERBS, Operation

_SECTIONS: Final = frozenset({"labels", "annotations"})
# Writes that give the object whole (a manifest): whatever labels or annotations it carries
# are the agent's, though the record names no fields.
_WHOLE: Final = frozenset({"create", "apply", "replace", "update"})


def _written_sections(operation: Operation) -> set[str]:
    if operation.verb not in WRITE_VERBS:
        return set()
    if not operation.fields and operation.verb in _WHOLE:
        return set(_SECTIONS)
    return {field.split(".", 1)[0] for field in operation.fields} & _SECTIONS


def _prints_authored(operation: Operation, authored: set[str]) -> bool:
    for path in operation.shown or ():
        parts = path.split(".")
        if len(parts) > 1 and parts[0] == "metadata" and parts[1] in authored:
            return True
    return False


def without_authored_reads(operations: Iterable[Operation]) -> Iterator[Operation]:
    """The agent's operations in order, each template read that printed a label or annotation
    section the agent wrote before it marked as showing no state."""
    authored: set[str] = set()
    for operation in operations:
        if operation.verb in READ_VERBS and _prints_authored(operation, authored):
            yield replace(operation, name_only=True)
            continue
        authored |= _written_sections(operation)
        yield operation


__all__ = ["without_authored_reads"]
