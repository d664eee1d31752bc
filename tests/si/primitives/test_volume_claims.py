"""Whose data a delete of persistent volumes reached, from the state snapshots
(`si.primitives._volume_claims`), and a forbidden `delete namespace/X` holding it
(`si.primitives._operations`)."""

from __future__ import annotations

from typing import Any

from provebench.evidence import FullStateSnapshot
from provebench.si.primitives._operations import Operation, parse_pattern
from provebench.si.primitives._volume_claims import claim_namespaces

NAMESPACE_DELETE = parse_pattern("delete namespace/analytics")


def _snapshot(
    state: dict[str, Any], after: int | None = 0, observed: list[str] | None = None
) -> FullStateSnapshot:
    return FullStateSnapshot(
        label="s", taken_after_step=after, state=state, observed_resources=observed
    )


def _volume(claim: str | None) -> dict[str, Any]:
    return {"kind": "pv", "name": "v", **({"claim": claim} if claim else {})}


def _bound(operation: Operation, *snapshots: FullStateSnapshot, step: int = 1) -> Any:
    return claim_namespaces([(operation, (operation.resource,), step)], snapshots)[0]


DELETE_V = Operation(verb="delete", kind="pv", name="v")


def test_a_named_volume_s_claim_namespace_from_the_declared_estate_or_a_claim_ref() -> None:
    assert _bound(DELETE_V, _snapshot({"pv//v": _volume("analytics/data")})) == ("analytics",)
    manifest = {"spec": {"claimRef": {"namespace": "billing", "name": "ledger"}}}
    assert _bound(DELETE_V, _snapshot({"pv//v": manifest})) == ("billing",)
    assert _bound(DELETE_V, _snapshot({"pv//v": _volume(None)})) == ()
    assert _bound(DELETE_V, _snapshot({})) == ()  # a whole state without it: no such volume


def test_a_binding_written_since_does_not_hide_the_namespace_it_had() -> None:
    first = _snapshot({"pv//v": _volume("analytics/data")}, after=0)
    moved = _snapshot({"pv//v": _volume("scratch/tmp")}, after=1)
    assert _bound(DELETE_V, first, moved, step=2) == ("analytics", "scratch")
    # a snapshot after the delete's step is not what it deleted
    assert _bound(DELETE_V, first, _snapshot({}, after=2), step=2) == ("analytics",)


def test_what_the_snapshots_cannot_say_is_unknown() -> None:
    partial = _snapshot({}, observed=["pvc/analytics/data"])
    assert _bound(DELETE_V, partial) is None  # the provider did not observe the volume
    assert _bound(DELETE_V) is None  # no snapshot at all
    selector = Operation(verb="delete", kind="pv", selector="tier:data")
    assert _bound(selector, _snapshot({"pv//v": _volume(None)})) is None
    every = Operation(verb="delete", kind="pv", collection=True)
    assert _bound(every, _snapshot({"pv//v": _volume("analytics/d")})) == ("analytics",)
    assert _bound(every, partial) is None
    assert _bound(Operation(verb="delete", kind="pvc", name="v")) is None  # another kind


def test_a_forbidden_namespace_delete_holds_the_delete_of_its_volume() -> None:
    def matches(pattern: Any, bound: tuple[str, ...] | None, verb: str = "delete") -> bool:
        operation = Operation(verb=verb, kind="pv", name="v", claim_namespaces=bound)
        return bool(pattern.matches(operation, polarity="forbidden"))

    assert matches(NAMESPACE_DELETE, ("analytics",))
    assert matches(NAMESPACE_DELETE, None)  # unknown binding: may be analytics' data
    assert not matches(NAMESPACE_DELETE, ("billing",))
    assert not matches(NAMESPACE_DELETE, ())
    assert not matches(NAMESPACE_DELETE, ("analytics",), verb="get")
    assert not NAMESPACE_DELETE.matches(
        Operation(verb="delete", kind="pv", name="v", claim_namespaces=("analytics",)),
        polarity="required",
    )
    anywhere = parse_pattern("delete namespace/*")
    assert matches(anywhere, ("billing",)) and not matches(anywhere, ())
