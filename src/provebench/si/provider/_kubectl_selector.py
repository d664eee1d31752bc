"""kubectl writes over a label selector or a whole collection, read from the agent's arguments.

kubectl expands ``-l``/``--selector``, ``--all`` and ``-A`` itself: it lists the collection with
the selector, then writes each object it got by name (``kubectl delete pods -l app=api`` is a
``LIST …/pods?labelSelector=app=api`` and one ``DELETE`` per pod). The Kubernetes face sees
only named writes, yet the agent issued one write over a selector — the breadth the SI
profile's checks are about (``delete pod/* labels=app:api``, "no broad label-selector
operations", interface types §4). The kubectl tool has the agent's argument list, so it reads
the breadth from there (`selector_write`) and the step's write operations are recorded as
issued over it, exactly as the tools record a write with ``selector`` or ``all``; a selector
write that acted on no object is still recorded as the attempt it was (`attempt`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from provebench.si.primitives._operations import Operation, selector_text
from provebench.si.provider._environment import Selection
from provebench.si.provider._kubectl import dry_run, flag_on, read_arguments
from provebench.si.provider._kubectl_named import flag_int

# kubectl's write commands that choose their objects by a list (`-l`, `--all`, `-A`), and the
# field a label, annotate or set writes (the tools' `orchestration_patch` of it).
SELECTING_COMMANDS: Final = frozenset({"delete", "scale", "label", "annotate", "set", "rollout"})
_PATCHED_FIELDS: Final = {
    "label": "labels",
    "annotate": "annotations",
    "env": "env",
    "image": "image",
}
# The short spelling of each flag kubectl also takes long: one flag, whose last value in the
# argument list wins (pflag), whichever spelling gave it (SI red team 16, H1: `--namespace=a
# -n b` runs in b, and was read as a).
_SAME_FLAG: Final = {
    "-n": "--namespace",
    "-o": "--output",
    "-l": "--selector",
    "-c": "--container",
    "-p": "--patch",
    "-f": "--filename",
    "-e": "--env",
    "-A": "--all-namespaces",
}


@dataclass(frozen=True)
class SelectorWrite:
    """A kubectl write command that chooses its objects by a list: the command (``delete``,
    ``scale``, ``label``, ``annotate``, ``env``/``image`` for ``set``, ``restart``), the label
    selector (the vocabulary's ``k:v`` spelling) or None with `collection` (every object), and
    the replica count a scale sets."""

    command: str
    selector: str | None
    collection: bool
    replicas: int | None = None

    def attempt(self, selection: Selection) -> tuple[str, Operation]:
        """The tool and the operation the tools record for this write over ``selection`` (a
        list that matched nothing, or was refused): nothing named, the breadth kept."""
        broad = Operation(
            verb="get",
            kind=selection.kind,
            namespace=selection.namespace,
            selector=self.selector,
            collection=self.collection,
        )
        return command_write(self.command, broad, self.replicas)


def command_write(
    command: str, target: Operation, replicas: int | None = None, fields: tuple[str, ...] = ()
) -> tuple[str, Operation]:
    """The tool and the operation the tools record for kubectl's write ``command`` (``delete``,
    ``scale``, ``label``, ``annotate``, ``env``/``image`` of ``set``, ``restart`` of
    ``rollout``, ``patch``, ``apply``, ``replace``, ``create``) of ``target`` (its kind, name or
    breadth, and namespace; its verb is replaced): one rule for a selector write that reached no
    object and for a named write kubectl never sent (`_kubectl_command`)."""

    def written(verb: str, wrote: tuple[str, ...] = (), count: int | None = None) -> Operation:
        return replace(target, verb=verb, fields=wrote, replicas=count)

    kind = target.kind
    if command == "delete":
        return "orchestration_delete", written("delete")
    if command == "create":
        return "orchestration_create", written("create")
    if command == "scale" and kind == "deployment":
        return "orchestration_scale", written("scale", count=replicas)
    if command == "scale":  # a statefulset's scale is the tools' patch of replicas
        return "orchestration_patch", written("patch", ("replicas",), replicas)
    if command == "restart" and kind == "deployment":
        return "orchestration_restart", written("restart")
    patched = _PATCHED_FIELDS.get(command)
    if patched is None:
        return "orchestration_patch", written("patch", fields, replicas)
    # the keys a `label` or `annotate` asked for (``labels.zone``) where the caller read them
    # from the arguments, else the whole section: a forbidden check sees the change asked for
    # (SI red team 12, M3), never a narrower one than was written; the declared-fields
    # annotation's keys are the declared fields it writes (``zone``: SI red team 14, H5)
    keyed = bool(fields) and all(
        f.startswith(patched + ".") or patched == "annotations" for f in fields
    )
    return "orchestration_patch", written("patch", fields if keyed else (patched,))


def _read(args: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """kubectl's positional arguments and its flags' values in the order given (a boolean
    flag's value is ""). A flag's two spellings (`-n`, `--namespace`) are one flag: each
    spelling's key holds the values of both, so the last is the one kubectl uses."""
    positionals: list[str] = []
    flags: dict[str, list[str]] = {}
    for short, long in _SAME_FLAG.items():
        flags[short] = flags[long] = []  # one list under both names
    for flag, value in read_arguments(args):
        if flag is None:
            positionals.append(value)
        else:
            flags.setdefault(flag, []).append(value)
    return positionals, {flag: values for flag, values in flags.items() if values}


def selector_write(args: list[str]) -> SelectorWrite | None:
    """The write over a selector or a whole collection that these (allowed) kubectl arguments
    are, or None: not a write, a write of named objects, or a dry run (which writes nothing)."""
    if not args or args[0] not in SELECTING_COMMANDS:
        return None
    positionals, flags = _read(args)
    command = args[0]
    if command in ("set", "rollout"):
        if not positionals:
            return None
        command, positionals = positionals[0], positionals[1:]
        if command not in ("env", "image", "restart"):
            return None  # `rollout status` reads
    if dry_run(flags.get("--dry-run", [])):  # the last one, as kubectl reads it
        return None
    given = [v for flag in ("-l", "--selector") for v in flags.get(flag, []) if v.strip()]
    everything = flag_on(flags.get("--all", []))
    across = flag_on(flags.get("--all-namespaces", []))  # `-A` too, in the order given
    # `kubectl rollout restart deployment` (a type, no name) restarts every deployment
    type_only = command == "restart" and len(positionals) == 1 and "/" not in positionals[0]
    if not (given or everything or across or type_only):
        return None
    # as kubectl's flag parser reads the count (`5_000`, `0x1388`: SI red team 16, H2)
    counts = flags.get("--replicas", [])
    replicas = flag_int(counts[-1]) if counts else None
    selector = selector_text(given[-1]) if given else None
    return SelectorWrite(command, selector, selector is None, replicas)


def labels_match(resource: Mapping[str, Any], selector: str | None) -> bool:
    """Whether a resource's labels hold every ``key:value`` pair of a selector (None: all)."""
    if selector is None:
        return True
    labels = resource.get("labels")
    if not isinstance(labels, dict):
        return False
    held = {f"{key}:{value}" for key, value in labels.items()}
    return all(pair in held for pair in selector.split(","))


__all__ = [
    "SELECTING_COMMANDS",
    "SelectorWrite",
    "command_write",
    "labels_match",
    "selector_write",
]
