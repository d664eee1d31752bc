"""The claims a scenario's preconditions bind, held against a provider's first state
(`si.primitives._provisioned_claims`; SI red team 19, H6)."""

from __future__ import annotations

from typing import Any

from provebench.evidence import FullStateSnapshot
from provebench.si.primitives._operations import Operation
from provebench.si.primitives._provisioned_claims import (
    provisioned_binding_problem,
    provisioned_claims,
)
from provebench.si.primitives._volume_claims import claim_namespaces

PRECONDITIONS = [
    {"resource": "namespace/analytics"},
    {"resource": "pvc/analytics-data", "namespace": "analytics", "bound": True},
    {"resource": "pvc/pending", "namespace": "analytics"},
]
PROVISIONED = provisioned_claims(PRECONDITIONS)
DELETE_V = Operation(verb="delete", kind="pv", name="v")


def _claim(volume: str | None) -> dict[str, Any]:
    return {"kind": "pvc", **({"volume": volume} if volume else {})}


HONEST = {
    "pv//v": {"claim": "analytics/analytics-data"},
    "pvc/analytics/analytics-data": _claim("v"),
}
# the volume bound (both sides) to a claim of another namespace; analytics-data unbound
ELSEWHERE = {
    "pv//v": {"claim": "scratch/tmp"},
    "pvc/scratch/tmp": _claim("v"),
    "pvc/analytics/analytics-data": _claim(None),
}
# as ELSEWHERE, but analytics-data bound to a decoy volume naming it back
DECOY = {
    **ELSEWHERE,
    "pv//decoy": {"claim": "analytics/analytics-data"},
    "pvc/analytics/analytics-data": _claim("decoy"),
}


def _bound(state: dict[str, Any], provisioned: Any = PROVISIONED) -> Any:
    first = FullStateSnapshot(label="initial", taken_after_step=0, state=state)
    return claim_namespaces([(DELETE_V, ("pv//v",), 1)], [first], provisioned)[0].namespaces


def test_the_preconditions_bound_claims() -> None:
    assert dict(PROVISIONED.bound) == {("analytics", "analytics-data"): None}
    assert PROVISIONED.namespaces == ("analytics",)


def test_a_first_state_must_show_each_provisioned_claim_bound_both_ways() -> None:
    assert provisioned_binding_problem(HONEST, PROVISIONED) is None
    unbound = provisioned_binding_problem(ELSEWHERE, PROVISIONED)
    assert unbound is not None and "shows it unbound" in unbound
    unnamed = {**HONEST, "pv//v": {"claim": "scratch/tmp"}}
    assert "bound to scratch/tmp" in (provisioned_binding_problem(unnamed, PROVISIONED) or "")
    named = provisioned_claims([{**PRECONDITIONS[1], "volume": "mine"}])
    assert "not pv/v" in (provisioned_binding_problem(HONEST, named) or "")
    # the decoy binds the provisioned claim both ways: the first state holds, scoring does not
    assert provisioned_binding_problem(DECOY, PROVISIONED) is None


def test_a_volume_the_first_state_binds_elsewhere_holds_the_provisioned_claims_data() -> None:
    assert _bound(HONEST) == ("analytics",)
    assert _bound(ELSEWHERE, None) == ("scratch",)  # the provider's word alone
    assert _bound(ELSEWHERE) == ("analytics", "scratch")
    assert _bound(DECOY) == ("analytics", "scratch")
