"""The fields the declared estate's rules read are checked where an entry is read, at
provision and at injection alike (red team SB-41, P5 and N1; docs/si-profile.md, "The declared
estate"): a value no rule can read is an error naming the entry and the field, and nothing is
applied; a well-formed value, or the field on a kind no rule reads it of, is held as declared.
The provider's own tests play the attack through `/inject-state`
(tests/si/provider/test_injection_all_or_nothing.py)."""

from __future__ import annotations

from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim.declared import DeclaredEstate

DEPLOYMENT = {"resource": "deployment/web", "namespace": "default", "image": "web:1"}
CLAIM = {"resource": "pvc/data", "namespace": "default", "storage": "1Gi", "bound": True}
VOLUME = {"resource": "pv/disk", "storage": "1Gi"}
REFUSED = [
    (DEPLOYMENT, "replicas", "two"),
    (DEPLOYMENT, "replicas", True),
    (DEPLOYMENT, "replicas", 100001),
    (DEPLOYMENT, "generation", "x"),
    (DEPLOYMENT, "generation", 1.5),
    (DEPLOYMENT, "restarts", -1),
    (DEPLOYMENT, "previous_image", 3),
    (DEPLOYMENT, "current_image", ""),
    ({"resource": "statefulset/db", "namespace": "default"}, "replicas", "3"),
    ({"resource": "pod/web-0", "namespace": "default"}, "restarts", "47"),
    (CLAIM, "bound", "true"),
    (CLAIM, "volume", ["disk"]),
    (CLAIM, "reclaim_policy", None),
    (VOLUME, "claim", {"namespace": "default"}),
]


def _estate(entries: list[dict[str, Any]]) -> DeclaredEstate:
    return DeclaredEstate.from_entries(entries, scope={}, mode="autonomous")


@pytest.mark.parametrize(("entry", "field", "value"), REFUSED)
def test_a_value_no_rule_can_read_is_refused_naming_its_entry_and_field(
    entry: dict[str, Any], field: str, value: Any
) -> None:
    with pytest.raises(ProvebenchError) as raised:
        _estate([{"resource": "configmap/c", "data": {}}, {**entry, field: value}])
    assert raised.value.field == f"preconditions.environment.state[1].{field}"
    assert "\n" not in raised.value.one_line()


@pytest.mark.parametrize(("entry", "field", "value"), REFUSED)
def test_an_injection_of_it_applies_nothing(entry: dict[str, Any], field: str, value: Any) -> None:
    estate = _estate([DEPLOYMENT])
    before = estate.data()
    with pytest.raises(ProvebenchError) as raised:
        estate.apply_entries(
            [{"resource": "configmap/c", "data": {"k": "v"}}, {**entry, field: value}],
            field="state",
        )
    assert raised.value.field == f"state[1].{field}"
    assert estate.data() == before


def test_the_honest_controls_well_formed_values_and_fields_no_rule_reads_are_held() -> None:
    estate = _estate(
        [
            {**DEPLOYMENT, "replicas": 0, "generation": 2, "restarts": 4},
            {
                **DEPLOYMENT,
                "resource": "deployment/api",
                "previous_image": "a:1",
                "current_image": "a:2",
            },
            {**CLAIM, "volume": "disk", "reclaim_policy": "Retain"},
            # `replicas` of an HPA, `bound` of a ConfigMap: no rule reads them, kept as declared
            {"resource": "hpa/web", "namespace": "default", "replicas": "2-5"},
            {"resource": "configmap/c", "namespace": "default", "bound": "yes"},
        ]
    )
    web = estate.get("deployment", "default", "web")
    assert web is not None and (web["replicas"], web["generation"]) == (0, 2)
    hpa = estate.get("hpa", "default", "web")
    assert hpa is not None and hpa["replicas"] == "2-5"
    volume = estate.get("pv", None, "disk")
    assert volume is not None and volume["reclaim_policy"] == "Retain"


def test_a_workload_that_names_no_count_holds_the_one_it_runs() -> None:
    """N2: the default written, so the state shows the one pod the estate runs."""
    estate = _estate([DEPLOYMENT, {"resource": "statefulset/db", "namespace": "default"}])
    for kind, name in (("deployment", "web"), ("statefulset", "db")):
        found = estate.get(kind, "default", name)
        assert found is not None and found["replicas"] == 1
    assert [p["owner"] for p in estate.items("pod", "default")] == ["deployment/web"]
