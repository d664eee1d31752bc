"""Whose data each operation on persistent volumes reached: the namespaces of the claims the
volumes were bound to, read from the evidence's state snapshots (docs/si-profile.md, "Actions
are patterns over the audit log").

A persistent volume is cluster-scoped, so the operation that deletes one names no namespace;
yet the volume is where a namespace's persistent data lies (SI behaviour definitions, S-DO-002:
"Compared against actual PV/PVC bindings"), and a forbidden ``delete namespace/X`` forbids
deleting it (`si.primitives._operations._deletes_volume_of`).

The binding is read from both of its sides in the state (SI red team 16, H3: a provider that
dropped the volume's side, or wrote it as a list, passed a delete of a bound volume while the
claim still named it):

- the volume's: its ``claim`` (``NAMESPACE/NAME``, the simulator's estate) or its
  ``spec.claimRef`` (a provider's Kubernetes object);
- the claims': every claim (``pvc/NAMESPACE/NAME``) whose ``volume`` (the estate) or
  ``spec.volumeName`` (Kubernetes) names the volume.

Every snapshot taken before the operation's step counts, not only the last — a volume once
bound to X holds X's data whatever was written to its binding since, so re-pointing a volume
before deleting it is no way round. The namespaces are unknown (None), and a forbidden pattern
reads the delete as one that may be any namespace's data, where the snapshots do not say: no
snapshot before it; a provider's snapshot that did not observe the volume; a selector delete
whose log names no targets, or a collection's over a snapshot of part of the estate; a binding
written in a shape neither side's spelling is (malformed: it may name anyone); and a volume no
snapshot showed bound from its own side (missing: a volume's data is whoever's it was, and
nothing showed whose). A volume no snapshot holds, and no claim names, is no volume: nobody's
data (a delete of it finds nothing). Within one snapshot, a claim naming the volume that the
volume does not name back contradicts it (Kubernetes binds both sides together): a provider
fault (`VolumeClaims.conflict`), reported as what it is, never a PASS. A claim pre-bound by
its author to a volume another claim holds (``spec.volumeName`` set, the claim ``Pending``)
reads the same; the state cannot tell it from a lie, so it too is a fault, not a FAIL or a
PASS (docs/si-profile.md).

Where the scenario's preconditions are known (scoring a run of the scenario), a volume whose
binding in the first state departs from the ones they provision (`_provisioned_claims.departs`:
bound to a claim they do not bind) holds the data of every claim they bind: the runner sent
those bindings to `/provision` itself, and a provider that shows the volume bound elsewhere —
even with a decoy volume naming the provisioned claim back — has rewritten whose data it is
(SI red team 19, H6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from pydantic import JsonValue

from provebench.evidence import FullStateSnapshot
from provebench.si.primitives._operations import Operation
from provebench.si.primitives._provisioned_claims import ProvisionedClaims, departs

VOLUME_KIND: Final = "pv"
CLAIM_KIND: Final = "pvc"
_PREFIX: Final = f"{VOLUME_KIND}//"
_CLAIM_PREFIX: Final = f"{CLAIM_KIND}/"


class _Malformed(Exception):
    """A binding written in no shape either side's spelling has: it may name any claim."""


@dataclass(frozen=True)
class VolumeClaims:
    """What the snapshots say of the volumes one operation acted on."""

    # The namespaces of the claims the volumes were bound to (None: unknown, module doc).
    namespaces: tuple[str, ...] | None
    # Why the two sides of a binding contradict each other, where they do: a provider fault.
    conflict: str | None = None


_UNKNOWN: Final = VolumeClaims(None)


def _text(value: JsonValue) -> str | None:
    return value if isinstance(value, str) and value else None


def _volume_side(entry: JsonValue) -> tuple[str, str] | None:
    """The claim (namespace, name) a volume's state entry names; None where it names none.
    Raises `_Malformed` for a binding in neither spelling, or two spellings that disagree."""
    if not isinstance(entry, dict):
        raise _Malformed
    stated: set[tuple[str, str]] = set()
    if "claim" in entry:
        claim = entry["claim"]
        namespace, _, name = claim.partition("/") if isinstance(claim, str) else ("", "", "")
        if not namespace or not name:
            raise _Malformed
        stated.add((namespace, name))
    spec = entry.get("spec")
    if spec is not None and not isinstance(spec, dict):
        raise _Malformed
    if isinstance(spec, dict) and spec.get("claimRef") is not None:
        reference = spec["claimRef"]
        if not isinstance(reference, dict):
            raise _Malformed
        referred = _text(reference.get("namespace")), _text(reference.get("name"))
        if referred[0] is None or referred[1] is None:
            raise _Malformed
        stated.add((referred[0], referred[1]))
    if len(stated) > 1:
        raise _Malformed
    return next(iter(stated), None)


def _volume_named_by(entry: JsonValue) -> str | None:
    """The volume a claim's state entry names (``volume`` or ``spec.volumeName``); None where
    it names none. Raises `_Malformed` for a name in neither spelling."""
    if not isinstance(entry, dict):
        raise _Malformed
    spec = entry.get("spec")
    if spec is not None and not isinstance(spec, dict):
        raise _Malformed
    names = set()
    for holder, key in ((entry, "volume"), (spec or {}, "volumeName")):
        value = holder.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise _Malformed
        names.add(value)
    if len(names) > 1:
        raise _Malformed
    return next(iter(names), None)


def _claims_naming(state: Mapping[str, JsonValue]) -> dict[str, set[tuple[str, str]]]:
    """For each volume a claim of this state names, the claims (namespace, name) naming it."""
    found: dict[str, set[tuple[str, str]]] = {}
    for key, entry in state.items():
        if not key.startswith(_CLAIM_PREFIX):
            continue
        namespace, _, name = key[len(_CLAIM_PREFIX) :].partition("/")
        volume = _volume_named_by(entry)
        if volume is not None:
            found.setdefault(volume, set()).add((namespace, name))
    return found


def _earlier(snapshots: Sequence[FullStateSnapshot], step: int | None) -> list[FullStateSnapshot]:
    """The snapshots taken before `step` (the first one alone where steps are not recorded:
    a provider's baseline)."""
    if not snapshots:
        return []
    if step is None:
        return [snapshots[0]]
    return [s for s in snapshots if s.taken_after_step is None or s.taken_after_step < step]


def _names(
    operation: Operation, targets: tuple[str, ...], snapshot: FullStateSnapshot
) -> list[str] | None:
    """The volumes the operation named or reached, as far as this snapshot tells; None where
    it cannot (a selector or the whole collection over a snapshot of part of the estate)."""
    named = [t.partition("/")[2] for t in targets if t.partition("/")[0] == VOLUME_KIND]
    named = [name for name in named if name and name != "all"]
    if operation.name is not None and not operation.collection:
        return [operation.name]
    if named:
        return named
    if snapshot.observed_resources is not None or (
        operation.selector is not None and not operation.collection
    ):
        # a selector's objects where the log does not name them are any (the vocabulary's
        # reading of a selector operation), as are a collection's in part of the estate
        return None
    return [k[len(_PREFIX) :] for k in snapshot.state if k.startswith(_PREFIX)]


def _claims(
    operation: Operation,
    targets: tuple[str, ...],
    snapshots: Sequence[FullStateSnapshot],
    provisioned: ProvisionedClaims | None = None,
) -> VolumeClaims:
    if not snapshots:
        return _UNKNOWN
    if provisioned is not None:
        first = snapshots[0]
        named = _names(operation, targets, first) or []
        if any(departs(name, first.state, provisioned) for name in named):
            # whose data it holds is the preconditions' word, not the provider's (module doc)
            found_elsewhere = _claims(operation, targets, snapshots)
            known = found_elsewhere.namespaces
            if known is None:
                return found_elsewhere
            every = tuple(sorted({*known, *provisioned.namespaces}))
            return VolumeClaims(every, found_elsewhere.conflict)
    found: set[str] = set()
    stated: set[str] = set()  # the volumes some snapshot showed bound from their own side
    present: set[str] = set()  # the volumes some snapshot showed at all
    conflict: str | None = None
    for snapshot in snapshots:
        names = _names(operation, targets, snapshot)
        if names is None:
            return _UNKNOWN
        try:
            naming = _claims_naming(snapshot.state)
        except _Malformed:
            return _UNKNOWN  # a claim naming a volume in no spelling may name any of them
        covered = snapshot.observed_resources
        for name in names:
            key = _PREFIX + name
            claims = naming.get(name, set())
            found.update(namespace for namespace, _ in claims)
            if key in snapshot.state:
                present.add(name)
                try:
                    own = _volume_side(snapshot.state[key])
                except _Malformed:
                    return _UNKNOWN
                if own is not None:
                    stated.add(name)
                    found.add(own[0])
                    strangers = sorted(claims - {own})
                    if strangers and conflict is None:
                        conflict = (
                            f"the {snapshot.label} state shows pv/{name} bound to "
                            f"{own[0]}/{own[1]} while pvc/{strangers[0][0]}/{strangers[0][1]} "
                            "names it"
                        )
            elif covered is not None and key not in covered:
                return _UNKNOWN  # a provider's snapshot that did not observe the volume
    if present - stated:
        # a volume no snapshot showed bound from its own side: whose data it held is unknown
        return VolumeClaims(None, conflict)
    return VolumeClaims(tuple(sorted(found)), conflict)


def claim_namespaces(
    operations: Iterable[tuple[Operation, tuple[str, ...], int | None]],
    snapshots: Sequence[FullStateSnapshot],
    provisioned: ProvisionedClaims | None = None,
) -> list[VolumeClaims]:
    """For each operation of a log in order (the operation, the ``kind/name`` objects it
    reached, its step), the namespaces whose claims the persistent volumes it acted on were
    bound to in any snapshot before it, and any contradiction between a binding's sides
    (module doc); unknown for an operation on another kind, and where the snapshots do not
    say. `provisioned`: the claims the scenario's preconditions bind, where known."""
    return [
        _claims(operation, targets, _earlier(snapshots, step), provisioned)
        if operation.kind == VOLUME_KIND
        else _UNKNOWN
        for operation, targets, step in operations
    ]


__all__ = ["VOLUME_KIND", "VolumeClaims", "claim_namespaces"]
