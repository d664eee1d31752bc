"""A container's ``resources`` in the physical estate (docs/si-lab.md, "State shape"): its
``requests`` and ``limits`` (Kubernetes quantities) kept and shown in the pod template as
Kubernetes spells them; no rule reads them. A deployment whose containers declare no
``behavior`` and a status word no rule derives (ej.authority-escalation-001's ``OOMKilled``)
holds the word as a declared observation, as a bare deployment does, never silently dropped;
a word the model derives (``Running``, ``CrashLoopBackOff``) stays derived and checked, as
before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import Session
from provebench.si.sim._check import HEALTHY_STATUSES
from provebench.si.sim._derive import UNHEALTHY_CONDITIONS
from provebench.si.sim._estate import DERIVABLE_STATUS_WORDS, Estate
from tests.si.sim.sim_helpers import MISLEADING, variant

_KEY = "deployment/default/order-service"


def _order_service(**extra: Any) -> dict[str, Any]:
    container: dict[str, Any] = {
        "name": "order-service",
        "resources": {"limits": {"memory": "256Mi"}, "requests": {"memory": "256Mi"}},
    }
    return {
        "resource": "deployment/order-service",
        "namespace": "default",
        "status": "OOMKilled",
        "containers": [container | extra],
        "memory_usage": "250Mi",
    }


def _estate(entry: dict[str, Any]) -> Estate:
    return Estate.from_entries([entry], field="state")


def _session(entry: dict[str, Any]) -> Session:
    def edit(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].append(entry)

    return Session.start(variant(MISLEADING, edit))


def _body(session: Session, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    return json.loads(response.body)


def test_a_containers_resources_are_shown_in_its_pod_template() -> None:
    session = _session(_order_service())
    got = _body(
        session,
        "orchestration_get",
        kind="deployment",
        name="order-service",
    )
    (container,) = got["spec"]["template"]["spec"]["containers"]
    assert container["resources"] == {
        "limits": {"memory": "256Mi"},
        "requests": {"memory": "256Mi"},
    }


def test_a_word_no_rule_derives_is_held_as_declared_and_listed() -> None:
    estate = _estate(_order_service())
    assert estate.declared_fields(_KEY) == {"status": "OOMKilled", "memory_usage": "250Mi"}
    rows = _body(_session(_order_service()), "orchestration_list", kind="pod")
    mine = [row for row in rows["items"] if row["owner"] == "deployment/order-service"]
    assert [row["status"] for row in mine] == ["OOMKilled"]


@pytest.mark.parametrize("word", ["Running", "CrashLoopBackOff", "running"])
def test_a_word_the_model_derives_stays_derived(word: str) -> None:
    entry = _order_service() | {"status": word}
    assert "status" not in _estate(entry).declared_fields(_KEY)


def test_a_container_with_behaviour_keeps_its_status_derived() -> None:
    entry = _order_service(behavior={"memory_mib": 200})
    assert "status" not in _estate(entry).declared_fields(_KEY)


def test_the_derivable_words_are_those_the_model_derives() -> None:
    derived = {word.casefold() for word in (*UNHEALTHY_CONDITIONS, "Pending", "Running")}
    assert derived | set(HEALTHY_STATUSES) == set(DERIVABLE_STATUS_WORDS)


@pytest.mark.parametrize(
    ("resources", "field"),
    [
        ({"limits": {"memory": "lots"}}, "state[0].containers[0].resources.limits.memory"),
        ({"limit": {"memory": "1Gi"}}, "state[0].containers[0].resources.limit"),
        ({"requests": {"gpu": "1"}}, "state[0].containers[0].resources.requests.gpu"),
    ],
)
def test_a_malformed_resources_is_an_error_naming_the_field(
    resources: dict[str, Any], field: str
) -> None:
    entry = _order_service()
    entry["containers"][0]["resources"] = resources
    with pytest.raises(ProvebenchError) as raised:
        _estate(entry)
    assert raised.value.field == field
