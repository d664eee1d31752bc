"""Which deployments a forwarded call gave a new generation: where the lines the runner placed
in a workload's logs end, as the simulator ends them (`sim._estate.Estate.written`: a workload's
declared ``logs/NAME`` go at a write that changes its `_generation`, all of it but its metadata).

A call ends nothing where it wrote nothing (a refused tool call, a kubectl command that exited
non-zero, a dry run), where it wrote objects of another kind (a ConfigMap's label, however many:
the kind is read before the names), a pod (a pod's delete leaves its deployment's generation), or
only a deployment's metadata (a label, an annotation, a `metadata.*` patch), or where it scaled a
deployment to the count it had (provider red team 46, H8-H12: each ended the hold, while in
process the agent still read the placed line). It ends a deployment's lines at a restart, an
image or template change, a scale to another count, a replace, an apply, a delete, a `rollout
undo`; a deployment write over a selector or a collection ends those of each deployment of its
namespace it may reach.

Not mirrored: the simulator keeps a deployment's declared lines through a restart or a scale of
a deployment declared failing whose fresh pods fail again (`_failure_survives`); the runner ends
them there (docs/si-provider.md, "Limits")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from provebench.evidence import ToolAction
from provebench.si.primitives._operations import Operation
from provebench.si.provider._kubectl_asked import asked_of
from provebench.si.provider._kubectl_command import RESTART_FIELD, written_by
from provebench.si.provider._kubectl_flags import read_command_line
from provebench.si.provider._kubectl_named import estate_kind

# The writes of a deployment's metadata alone: no new generation (`_generation` skips the
# metadata and the template labels a label write sets apart).
_METADATA: Final = frozenset({"labels", "annotations", "template_labels", "metadata"})
_METADATA_COMMANDS: Final = frozenset({"label", "annotate"})
_PATCHES: Final = frozenset({"patch", "update"})


def _metadata_only(fields: Sequence[str]) -> bool:
    return all(field != RESTART_FIELD and field.split(".", 1)[0] in _METADATA for field in fields)


def new_generation(
    verb: str, fields: Sequence[str] | None, replicas: object, current: int | None
) -> bool:
    """Whether a permitted, successful write of a deployment (its verb or kubectl command, the
    fields it wrote in the estate's spelling, the replica count it set) changes its generation."""
    if verb in _METADATA_COMMANDS:
        return False
    if verb == "scale":
        return not (type(replicas) is int and replicas == current)
    if verb in _PATCHES and fields is not None:
        if _metadata_only(fields):
            return False
        rest = [field for field in fields if field.split(".", 1)[0] not in _METADATA]
        if rest == ["replicas"] and type(replicas) is int and replicas == current:
            return False
    return True


def _typed(args: Sequence[str]) -> set[str | None]:
    """The estate kinds a kubectl write names by type without a name (`--all`, `-l`): each of
    the types of its first resource argument (None: one the runner does not know)."""
    line = read_command_line(args)
    positionals = list(line.positionals)
    skip = 2 if positionals[:1] in (["rollout"], ["set"]) else 1
    rest = [p for p in positionals[skip:] if "=" not in p]
    if not rest:
        return {None}
    return {estate_kind(kind_text.partition("/")[0]) for kind_text in rest[0].split(",")}


def _count(value: object) -> int | None:
    return value if type(value) is int else None


def generations_written(
    action: ToolAction,
    operations: Sequence[Operation] | None,
    kubectl_tool: str,
    replicas: dict[tuple[str, str], int],
) -> set[tuple[str, str]]:
    """(namespace, deployment) of each deployment the call gave a new generation; ``replicas``
    (each deployment's count) follows the call's scales."""
    if action.error is not None:
        return set()  # refused, or a kubectl command that exited non-zero: nothing written
    writes: list[tuple[str, str | None, str, tuple[str, ...] | None, object]] = []
    if action.tool == kubectl_tool:
        args = action.arguments.get("args")
        listed = [str(arg) for arg in args] if isinstance(args, list) else []
        if not listed or written_by(listed) is None:
            return set()
        stdin = action.arguments.get("stdin")
        asked = asked_of(listed, stdin if isinstance(stdin, str) else None)
        if asked is None:
            return set()  # a dry run
        namespace = asked.namespace or "default"
        verb = "restart" if asked.restarts else asked.command
        if asked.manifest is not None:
            for doc in asked.manifest:
                if doc.kind == "deployment":
                    writes.append((doc.namespace or namespace, doc.name, verb, None, None))
        elif asked.objects is not None:
            for kind, named in sorted(asked.objects):
                if kind == "deployment":
                    writes.append((namespace, named, verb, asked.fields, asked.replicas))
        elif "deployment" in _typed(listed) or None in _typed(listed):
            writes.append((namespace, None, verb, asked.fields, asked.replicas))
    else:
        for operation in operations or ():
            if not operation.writes or operation.kind != "deployment":
                continue
            namespace = operation.namespace or "default"
            names: list[str | None] = [operation.name]
            if operation.name is None and operation.targets is not None:
                names = [
                    t.partition("/")[2] for t in operation.targets if t.startswith("deployment/")
                ]
            for each in names:
                writes.append(
                    (namespace, each, operation.verb, operation.fields, operation.replicas)
                )
    ended: set[tuple[str, str]] = set()
    for namespace, name, verb, fields, count in writes:
        reached = (
            [name]
            if name is not None
            else [d for (where, d) in sorted(replicas) if where == namespace]
        )
        for deployment in reached:
            key = (namespace, deployment)
            if new_generation(verb, fields, count, replicas.get(key)):
                ended.add(key)
            scaled = _count(count)
            if verb == "scale" and scaled is not None and name is not None:
                replicas[key] = scaled
    return ended


__all__ = ["generations_written", "new_generation"]
