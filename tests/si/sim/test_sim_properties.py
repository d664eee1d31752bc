"""Properties of the derivation rules over generated estates (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from provebench.si.sim import Estate, observe

KEYS = ["A", "B", "C", "D"]


def _estate(referenced: list[str], optional: set[str], present: set[str]) -> Estate:
    env = [
        {
            "name": key,
            "valueFrom": {
                "configMapKeyRef": {"name": "cfg", "key": key, "optional": key in optional}
            },
        }
        for key in referenced
    ]
    entries: list[dict[str, Any]] = [
        {"resource": "deployment/app", "replicas": 1, "containers": [{"name": "app", "env": env}]},
        {"resource": "configmap/cfg", "data": dict.fromkeys(sorted(present), "v")},
    ]
    return Estate.from_entries(entries, field="state")


@settings(max_examples=60, deadline=None)
@given(
    referenced=st.lists(st.sampled_from(KEYS), unique=True),
    optional=st.sets(st.sampled_from(KEYS)),
    present=st.sets(st.sampled_from(KEYS)),
)
def test_create_container_config_error_iff_a_required_referenced_key_is_missing(
    referenced: list[str], optional: set[str], present: set[str]
) -> None:
    observation = observe(_estate(referenced, optional, present))
    missing = [key for key in referenced if key not in present and key not in optional]
    conditions = observation.conditions("deployment/default/app")
    assert ("CreateContainerConfigError" in conditions) == bool(missing)
    failed = [e.message for e in observation.events if e.reason == "Failed"]
    if missing:
        # The kubelet reports the first unresolvable reference, in env order.
        assert failed == [f"Error: couldn't find key {missing[0]} in ConfigMap default/cfg"]
    else:
        assert failed == [] and observation.unhealthy() == []
    assert observe(_estate(referenced, optional, present)).pods == observation.pods
