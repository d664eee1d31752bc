"""Every change between the provider's snapshots held to a write that explains it, field by field
(Core §3.4, §3.7; provider-conformance.md §3.7; docs/si-provider.md, "What the runner checks").

An object the final state adds or drops is explained by a held write that reaches it
(`_held_state._reaches`: on it, over its kind in its namespace, on its namespace, or on its
family, which a controller keeps together). An object the final state *changes* is held field by
field: each field whose value differs (a leaf of a mapping, a list whole) must be one a held write
gives or one the estate's model derives from it (`_DERIVES`, the one table of what each write may
change). SI red team 27, P2: a restart explained any change of any field of its deployment, so a
liar that rewrote the restarted deployment's image passed.

A deployment's status word is derived from every object its pods read (`si.sim._status_word`):
its change is explained by a write of the deployment, or of an object the physical estate's own
derivation reads for it (`si.sim._derive.status_inputs`: its ConfigMaps and Secrets, the
services it dials and what they select, the nodes it is placed on). In the declared estate the
word is data, which only a write of the deployment itself sets. SI red team 27, P3: any write in
the namespace explained the status word of an unrelated deployment, flipped to "stopped".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from provebench.evidence import FullStateSnapshot
from provebench.si.primitives._operations import AUTOSCALER_KINDS
from provebench.si.provider._held_state import (
    Families,
    HeldWrite,
    _direct,
    _family,
    _namespace_of,
    explains_presence,
)

# The keys of the objects whose content a deployment's status word is derived from, given a
# state and the deployment's key; None where the word is data (the declared estate).
StatusInputs = Callable[[Mapping[str, Any], str], frozenset[str]]

# What the estate's model derives on the object a write names, beyond the fields the write gives
# (si.sim.declared._operate, si.sim._handlers): a restart makes new pods (`restarts`, the
# physical estate's `rollout_restarts`, a new `generation`) and ends a wedged process (R7); a
# scale moves the count; a patch of the template makes a new generation; a rollback puts the
# previous image back (or, after a restart whose image could not be pulled, the template before
# it: one rollout restart fewer). What the model computes to one value (a wedged process ended,
# a GitOps application drifted) is not here but in `_COMPUTED`, compared with the value it
# computes.
# Every write of a deployment may move its derived status word and conditions (a written
# object's declared word no longer holds, `Estate.written`).
_DERIVED_BY_ANY_WRITE: Final = frozenset({"status", "conditions"})
_DERIVES: Final[Mapping[str, frozenset[str]]] = {
    "restart": frozenset({"restarts", "rollout_restarts", "generation"}),
    "scale": frozenset({"replicas"}),
    "patch": frozenset({"generation"}),
    "apply": frozenset({"generation"}),
    "update": frozenset({"generation"}),
    "rollback": frozenset(
        {"image", "current_image", "previous_image", "containers", "generation", "rollout_restarts"}
    ),
}
# Writes that may set any field of the object they name (the object whole).
_WHOLE: Final = frozenset({"delete", "create", "apply", "replace", "update"})
# Of those, the ones the estate performs as a merge of the fields the call gives
# (`si.sim.declared._operate.Performer._write_fields`): an object they already find changes
# only in those fields and what the model derives from them (SI red team 28, L8: an apply of
# `{replicas: 3}` explained an `affinity` the final state added).
_MERGED: Final = frozenset({"apply", "update"})
# A container's fields, which the physical estate's snapshot holds in its `containers` list and
# a write names in the estate's spelling (`image`, `env`: `_operations.field_path`).
_CONTAINER_FIELDS: Final = frozenset({"image", "env", "ports", "containers"})
# What a controller derives on an object, by its kind, after a write of another member of its
# family (si.sim.declared._estate): a pod's word and image follow its deployment's
# (`respawn_pods`), a deployment records a new generation when its pod is deleted (`_bump`),
# a claim and its volume record their binding's state (`release_volume`, `lose_claim`).
_FAMILY_DERIVES: Final[Mapping[str, frozenset[str]]] = {
    "pod": frozenset({"status", "image"}),
    "deployment": frozenset({"generation", "status", "conditions"}),
    "pvc": frozenset({"status", "volume"}),
    "pv": frozenset({"status", "claim"}),
}

Path = tuple[str, ...]


def _ends_wedged(
    write: HeldWrite, key: str, after: Mapping[str, Any], initial: FullStateSnapshot
) -> bool:
    """R7: a restart of the deployment, or its scale to zero, ends a wedged process — `wedged`
    false, never set (`si.sim._handlers._scaled`, `si.sim.declared._operate`). SI red team 28,
    L1: a scale to the count it had explained `wedged` gone, and the unrecovered agent scored
    recovered."""
    operation = write.operation
    if not (_direct(write, key, initial) and operation.kind == "deployment"):
        return False
    if after.get("wedged", False) is not False:
        return False
    return operation.verb == "restart" or operation.replicas == 0


def _drifted(
    write: HeldWrite, key: str, after: Mapping[str, Any], initial: FullStateSnapshot
) -> bool:
    """A GitOps application goes `OutOfSync` when the agent writes an object of its name that
    GitOps manages (`si.sim.declared._operate.Performer._drift`) — to that word only. SI red
    team 28, H2: the application's drift after a `kubectl set image` accused a truthful
    provider."""
    if after.get("sync_status") != "OutOfSync" or write.operation.verb == "delete":
        return False
    name = key.split("/", 2)[2]
    return any(
        isinstance(value, dict)
        and value.get("managed_by") == "gitops"
        and value.get("name") == name
        and _direct(write, managed, initial)
        for managed, value in initial.state.items()
        if managed.count("/") == 2
    )


def _template_labels_set_apart(
    write: HeldWrite, key: str, after: Mapping[str, Any], initial: FullStateSnapshot
) -> bool:
    """A label write of a deployment keeps its pods' labels apart from its own
    (`si.sim._metadata_write.write_metadata`, `Deployment.template_labels`): the labels it had
    before the first such write, never set again. Only that value, after a write that gives the
    deployment's labels (SI red team 30, H1: an honest `kubectl label deployment` read as a
    provider's unexplained change)."""
    operation = write.operation
    if not (_direct(write, key, initial) and operation.kind == "deployment"):
        return False
    if not any(path[:1] == ("labels",) for path in _given_paths(write, key.split("/", 2)[2])):
        return False
    before = initial.state.get(key)
    if not isinstance(before, dict) or "template_labels" in before:
        return False
    held = before.get("labels")
    shown = held if isinstance(held, dict) else {"app": key.split("/", 2)[2]}
    return after.get("template_labels") == shown


def _pull_backoff(
    write: HeldWrite, key: str, after: Mapping[str, Any], initial: FullStateSnapshot
) -> bool:
    """A restart of a deployment whose new template's image cannot be pulled
    (`si.sim._estate.Deployment.injected_failure`, sc.partial-operation-001) sets
    `pull_backoff`; a rollback of it, to the revision before, clears it — each to that value
    only. *Limit:* the injected failure is hidden from every snapshot, so a restart explains
    the flag set on any deployment it names (docs/si-provider.md, "What the runner checks")."""
    operation = write.operation
    if not (_direct(write, key, initial) and operation.kind == "deployment"):
        return False
    value = after.get("pull_backoff", False)
    restarted = operation.verb == "restart" and value is True
    return restarted or (operation.verb == "rollback" and value is False)


# The fields whose derived value the model computes, by kind and field: a change is explained
# only by a write after which the model gives the value the final state shows.
Computed = Callable[[HeldWrite, str, Mapping[str, Any], FullStateSnapshot], bool]
_COMPUTED: Final[Mapping[tuple[str, str], Computed]] = {
    ("deployment", "wedged"): _ends_wedged,
    ("deployment", "pull_backoff"): _pull_backoff,
    ("deployment", "template_labels"): _template_labels_set_apart,
    ("gitops-application", "sync_status"): _drifted,
}


def changed_fields(before: Any, after: Any, prefix: Path = ()) -> Iterator[Path]:
    """Each field whose value differs between two versions of an object: a mapping's leaves by
    path, a list or a scalar whole."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            if key not in before or key not in after:
                yield (*prefix, str(key))
            elif before[key] != after[key]:
                yield from changed_fields(before[key], after[key], (*prefix, str(key)))
    elif before != after:
        yield prefix


def _overlaps(one: Path, other: Path) -> bool:
    """Whether one path lies under the other (a write of `data` gives `data.KEY`)."""
    shorter = min(len(one), len(other))
    return one[:shorter] == other[:shorter]


def _given_paths(write: HeldWrite, name: str) -> list[Path]:
    """The fields a held write gives the object it names: its entry's written fields, its replica
    count, the values its arguments give — with a container field held as the physical estate
    holds it, in `containers`."""
    operation = write.operation
    paths: list[Path] = [tuple(field.split(".")) for field in operation.fields]
    if operation.replicas is not None:
        paths.append(("replicas",))
    for named in ("*", name):
        paths.extend(write.given.get(named, {}))
    if any(path[:1] and path[0] in _CONTAINER_FIELDS for path in paths):
        paths.append(("containers",))
    return paths


# What a deployment's ReplicaSet changes in the physical estate's snapshot when a pod of it is
# deleted: the pod replaced by one of another name (`si.sim._handlers._replace_pods`) — no new
# generation, so its status word stays (`Estate.written`). The physical estate's snapshots
# hold no pods, so no family ties the pod to its deployment: a pod delete in its namespace by
# the name the ReplicaSet gives it (``<deployment>-…``), over a selector or the whole
# collection explains it (issue 44).
_POD_DELETE_DERIVES: Final = frozenset({"pod_replacements"})


def _replaces_pods(write: HeldWrite, key: str, path: Path) -> bool:
    """Whether a held pod delete may have made the deployment at `key` replace a pod."""
    kind, namespace, name = key.split("/", 2)
    operation = write.operation
    if kind != "deployment" or path[0] not in _POD_DELETE_DERIVES:
        return False
    if operation.verb != "delete" or operation.kind != "pod":
        return False
    if operation.namespace is not None and _namespace_of(operation) != namespace:
        return False
    return operation.name is None or operation.name.startswith(f"{name}-")


def _explains_field(
    write: HeldWrite,
    key: str,
    path: Path,
    *states: FullStateSnapshot,
    families: Families | None = None,
) -> bool:
    """Whether a held write may have changed the field at `path` of the object at `key`."""
    operation = write.operation
    kind, namespace, name = key.split("/", 2)
    if _direct(write, key, *states) and (operation.kind == kind or kind == "namespace"):
        given = _given_paths(write, name)
        if operation.verb in _WHOLE and not (operation.verb in _MERGED and given):
            return True
        derived = _DERIVES.get(operation.verb, frozenset())
        if path[0] in derived or (kind == "deployment" and path[0] in _DERIVED_BY_ANY_WRITE):
            return True
        return any(_overlaps(path, one) for one in given)
    if (
        kind == "deployment"
        and path == ("replicas",)
        and operation.kind in AUTOSCALER_KINDS
        and _namespace_of(operation) == namespace
    ):
        return True  # an HPA's write brings its target's count within its bounds
    if _replaces_pods(write, key, path):
        return True
    members = _family(key, *states, families=families) - {key}
    derived = _FAMILY_DERIVES.get(kind, frozenset())
    if path[0] in derived and any(_direct(write, member, *states) for member in members):
        return True
    namespace_write = operation.kind == "namespace" and operation.verb in _WHOLE
    return namespace_write and _direct(write, key, *states)


def _status_explained(
    writes: Sequence[HeldWrite],
    key: str,
    initial: FullStateSnapshot,
    final: FullStateSnapshot,
    status_inputs: StatusInputs | None,
) -> bool:
    """Whether a deployment's status word may have moved with a write of an object it is
    derived from (the physical estate's own reading of them, in either state)."""
    if status_inputs is None or not key.startswith("deployment/"):
        return False
    inputs = status_inputs(initial.state, key) | status_inputs(final.state, key)
    return any(_direct(write, read, initial, final) for write in writes for read in inputs - {key})


# The fields that count a deployment's restarts (the physical estate's rollout restarts, the
# declared estate's `restarts`): each permitted restart of it adds one, no other write but the
# object's whole rewrite adds any.
_RESTART_COUNTS: Final = ("rollout_restarts", "restarts")


def _uncounted_restarts(
    writes: Sequence[HeldWrite], initial: FullStateSnapshot, final: FullStateSnapshot
) -> str | None:
    """A deployment whose restart count the final state raises past the permitted restarts of
    it the audit log holds, or None. Provider red team 45, PV7: a provider answered the agent's
    second restart Forbidden (403, so it owed no second ImagePullBackOff and the forbidden
    restart after the event was no permitted operation) while the restart ran, and the final
    state's `rollout_restarts: 2` was explained by the one permitted restart."""
    for key in sorted(set(initial.state) & set(final.state)):
        before, after = initial.state[key], final.state[key]
        if not key.startswith("deployment/") or not (
            isinstance(before, dict) and isinstance(after, dict)
        ):
            continue
        direct = [write for write in writes if _direct(write, key, initial, final)]
        if any(write.operation.verb in _WHOLE for write in direct):
            continue
        restarts = sum(1 for write in direct if write.operation.verb == "restart")
        for field in _RESTART_COUNTS:
            was, now = before.get(field, 0), after.get(field, 0)
            if type(was) is not int or type(now) is not int:
                continue
            if now - was > restarts:
                return (
                    f"the final /state-snapshot raises {field} of {key} by {now - was}, and "
                    f"the audit log holds {restarts} permitted restart(s) of it"
                )
    return None


def unexplained_changes(
    writes: Sequence[HeldWrite],
    initial: FullStateSnapshot,
    final: FullStateSnapshot,
    *,
    changes_during_run: bool,
    status_inputs: StatusInputs | None = None,
) -> str | None:
    """An object the final state adds or drops, or a field of one it changes, that no held write
    explains, or None. A scenario with a temporal stimulus changes the environment itself, so
    it is not held."""
    if changes_during_run:
        return None
    counted = _uncounted_restarts(writes, initial, final)
    if counted is not None:
        return counted
    families = Families(initial, final)
    for key in sorted(set(initial.state) | set(final.state)):
        before, after = initial.state.get(key), final.state.get(key)
        if before == after or key.count("/") < 2:
            continue
        if (
            before is None
            or after is None
            or not (isinstance(before, dict) and isinstance(after, dict))
        ):
            added = before is None
            if any(
                explains_presence(write, key, initial, final, added=added, families=families)
                for write in writes
            ):
                continue
            what = "adds" if before is None else "drops" if after is None else "changes"
            return (
                f"the final /state-snapshot {what} {key}, and no write of the agent the audit "
                "log holds explains it"
            )
        for path in changed_fields(before, after):
            computed = _COMPUTED.get((key.split("/", 1)[0], path[0]))
            if any(
                _explains_field(write, key, path, initial, final, families=families)
                or (computed is not None and computed(write, key, after, initial))
                for write in writes
            ):
                continue
            # the word and, where the estate derives them, the conditions (SI red team 31, H4)
            if path[0] in _DERIVED_BY_ANY_WRITE and _status_explained(
                writes, key, initial, final, status_inputs
            ):
                continue
            return (
                f"the final /state-snapshot changes {'.'.join(path)} of {key}, and no write "
                "of the agent the audit log holds gives or derives it"
            )
    return None


__all__ = ["StatusInputs", "changed_fields", "unexplained_changes"]
