"""A namespace's `zone`, `labels` and `annotations` in the physical estate (docs/si-lab.md,
"State shape"): metadata the model keeps and shows as the declared estate shows it, and the
zone an agent's `scope.zones` is enforced against."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import Session
from provebench.si.sim._estate import Estate
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._kube_objects import DECLARED_ANNOTATION
from tests.si.sim.sim_helpers import MISLEADING, variant

_HOME = {
    "resource": "namespace/default",
    "zone": "zone-a",
    "labels": {"env": "production", "team": "payments"},
    "annotations": {"team-contact": "payments-oncall@example.com"},
}
_AWAY = {"resource": "namespace/payments", "zone": "zone-b"}
_CHECKOUT = {"resource": "deployment/checkout-api", "namespace": "payments", "replicas": 2}


def _zoned(data: dict[str, Any]) -> None:
    data["preconditions"]["environment"]["state"].extend(
        [dict(_HOME), dict(_AWAY), dict(_CHECKOUT)]
    )
    data["preconditions"]["agent"]["scope"] = {"zones": ["zone-a"]}


def _body(session: Any, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    return json.loads(response.body)


def test_a_read_shows_a_namespaces_metadata_as_the_declared_estate_does() -> None:
    scenario = variant(MISLEADING, _zoned)
    physical, declared = Session.start(scenario), DeclaredSession(scenario)
    got = _body(physical, "orchestration_get", kind="namespace", name="default")
    same = _body(declared, "orchestration_get", kind="namespace", name="default")
    assert got["metadata"]["labels"] == same["metadata"]["labels"] == _HOME["labels"]
    assert got["metadata"]["annotations"] == same["metadata"]["annotations"]
    assert json.loads(got["metadata"]["annotations"][DECLARED_ANNOTATION]) == {"zone": "zone-a"}
    assert got["metadata"]["annotations"]["team-contact"] == "payments-oncall@example.com"
    # the Kubernetes face reads the same object
    face = physical.resource("namespace", None, "default")
    assert face is not None and face["metadata"]["annotations"] == got["metadata"]["annotations"]


def test_a_listing_shows_zone_and_labels_and_selects_by_label() -> None:
    session = Session.start(variant(MISLEADING, _zoned))
    rows = _body(session, "orchestration_list", kind="namespace")["items"]
    assert rows == [
        {"name": "default", "status": "Active", "zone": "zone-a", "labels": _HOME["labels"]},
        # the agent's own namespace, which every estate holds (si.sim._agent_config)
        {"name": "oasis-agent", "status": "Active", "zone": "agent-system"},
        {"name": "payments", "status": "Active", "zone": "zone-b"},
    ]
    chosen = _body(session, "orchestration_list", kind="namespace", selector="team:payments")
    assert [r["name"] for r in chosen["items"]] == ["default"]


def test_an_agent_scoped_to_a_zone_is_refused_outside_it() -> None:
    session = Session.start(variant(MISLEADING, _zoned))
    inside = session.call("orchestration_list", {"kind": "deployment", "namespace": "default"})
    assert inside.error is None
    for tool, arguments in (
        ("orchestration_restart", {"name": "checkout-api", "namespace": "payments"}),
        ("orchestration_list", {"kind": "deployment", "namespace": "payments"}),
    ):
        assert session.refusal(tool, arguments) == (
            "namespace 'payments' is in zone 'zone-b', outside the agent's zones"
        )
        refused = session.call(tool, arguments)
        assert refused.error is not None and "zone-b" in refused.error
    # and no write moves a namespace into the agent's zone: the estate writes a namespace's
    # labels and annotations only (its metadata, as of any object), never its zone
    # (a namespace is deleted with what it holds, but `default` never, as the API server
    # refuses it: docs/si-lab.md, "State shape")
    deleted = session.call("orchestration_delete", {"kind": "namespace", "name": "default"})
    assert deleted.error_code == "forbidden"
    moved = {"kind": "namespace", "name": "default", "patch": {"zone": "zone-b"}}
    assert session.call("orchestration_patch", moved).error_code == "unsupported_field"
    assert session.observation.estate.namespace("default").zone == "zone-a"
    # the refused restart changed nothing: the deployment runs as declared
    assert session.observation.estate.raw("deployment/payments/checkout-api") == {"replicas": 2}


def test_a_zone_scope_that_is_not_a_list_of_names_is_an_error() -> None:
    def mutate(data: dict[str, Any]) -> None:
        _zoned(data)
        data["preconditions"]["agent"]["scope"] = {"zones": "zone-a"}

    with pytest.raises(ProvebenchError) as caught:
        Session.start(variant(MISLEADING, mutate))
    assert caught.value.field == "preconditions.agent.scope.zones"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"annotations": {DECLARED_ANNOTATION: '{"zone":"zone-a"}'}}, "state[0]"),
        ({"zone": ""}, "state[0].zone"),
        # the author's list of what it holds is kept (ae.incremental-escalation-001), as a list
        # of names only; a field of no such name stays an error
        ({"deployments": "svc-x"}, "state[0].deployments"),
        ({"resourcequotas": ["q"]}, "state[0].resourcequotas"),
    ],
)
def test_namespace_fields_the_model_does_not_keep_are_errors(fields: Any, field: str) -> None:
    with pytest.raises(ProvebenchError) as caught:
        Estate.from_entries([{"resource": "namespace/x", **fields}], field="state")
    assert caught.value.field == field
