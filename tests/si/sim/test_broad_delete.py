"""A delete over a selector or a whole collection is performed in the physical estate as the
declared estate performs it, and recorded with each object it reached (docs/si-profile.md, "Do
the two estates agree?": the physical estate refused ``orchestration_delete {kind: pod, all:
true}``, 422, which the declared estate performed, so safety.do.unqualified-destruction-001's
obedient agent was recorded 422 in one estate and 200 in the other)."""

from __future__ import annotations

from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from tests.si.sim.sim_helpers import (
    API_DEPLOYMENTS,
    MISLEADING,
    shipped,
    variant,
    with_api_deployments,
)


def _delete_entry(session: Any) -> ApiCallEntry:
    (entry,) = [
        e
        for e in session.evidence(final_answer="").audit_log
        if isinstance(e, ApiCallEntry) and e.verb == "delete"
    ]
    return entry


def test_deleting_every_pod_is_performed_and_names_each_pod() -> None:
    session = Session.start(shipped(MISLEADING))
    before = session.estate_data()
    pods = sorted(p.name for p in session.observation.pods if p.namespace == "default")
    response = session.call("orchestration_delete", {"kind": "pod", "all": True})
    assert response.error is None, response.body
    entry = _delete_entry(session)
    assert entry.status_code == 200
    assert entry.detail["targets"] == [f"pod/{name}" for name in pods]
    # each pod's ReplicaSet replaces it with a pod of another name, as Kubernetes does (issue
    # 44: the same pod came back, so the snapshots showed nothing and kubectl's wait for the
    # deleted pod ran to its limit); the deployments are otherwise as they were
    after = sorted(p.name for p in session.observation.pods if p.namespace == "default")
    assert len(after) == len(pods) and not set(after) & set(pods)
    changed = {k for k in before if session.estate_data()[k] != before[k]}
    assert changed == {k for k in before if k.startswith("deployment/default/")}
    for key in changed:
        now = dict(session.estate_data()[key])
        replaced = now.pop("pod_replacements")
        assert replaced == [1] * before[key]["replicas"]
        assert now == before[key]


def test_deleting_one_pod_of_a_deployment_replaces_that_pod_alone() -> None:
    session = Session.start(shipped(MISLEADING))
    pods = {p.name: p.deployment for p in session.observation.pods if p.namespace == "default"}
    name = sorted(pods)[0]
    siblings = {p for p, owner in pods.items() if owner == pods[name] and p != name}
    response = session.call("orchestration_delete", {"kind": "pod", "name": name})
    assert response.error is None, response.body
    after = {p.name for p in session.observation.pods if p.namespace == "default"}
    assert name not in after and siblings <= after and len(after) == len(pods)
    # a read of the deleted pod is a 404: kubectl's wait for it ends
    gone = session.call("orchestration_get", {"kind": "pod", "name": name})
    assert gone.error_code == "not_found"


@pytest.mark.parametrize("start", [Session.start, DeclaredSession])
def test_deleting_deployments_by_selector_removes_each_it_matched(start: Any) -> None:
    session = start(variant(MISLEADING, with_api_deployments))
    response = session.call("orchestration_delete", {"kind": "deployment", "selector": "app=api"})
    assert response.error is None, response.body
    held = session.estate_data()
    for name in API_DEPLOYMENTS:
        assert f"deployment/default/{name}" not in held
    assert "deployment/default/user-service" in held
    entry = _delete_entry(session)
    assert entry.status_code == 200
    assert entry.detail["targets"] == [f"deployment/{name}" for name in API_DEPLOYMENTS]


def test_a_kind_the_physical_estate_cannot_delete_stays_refused() -> None:
    session = Session.start(shipped(MISLEADING))
    response = session.call("orchestration_delete", {"kind": "event", "all": True})
    assert response.error_code == "unsupported_field"


@pytest.mark.parametrize("start", [Session.start, DeclaredSession], ids=["physical", "declared"])
def test_a_replaced_pod_ends_no_declared_word_of_its_deployment(start: Any) -> None:
    # a pod delete is no new generation: the declared OOMKilled stays in both estates (a fresh
    # pod of the same template has its cause too), where a write of the deployment ends it
    from tests.helpers.oasis import OASIS_SCENARIOS, oasis_scenario

    if not OASIS_SCENARIOS.is_dir():
        pytest.skip(f"OASIS scenarios not found at {OASIS_SCENARIOS}")
    session = start(oasis_scenario("infra.capability.da.misleading-signal-001"))
    key = "deployment/default/user-service"
    assert session.estate_data()[key]["status"] == "OOMKilled"
    listed = session.call("orchestration_list", {"kind": "pod", "namespace": "default"}).body
    pod = next(line.split('"')[3] for line in listed.splitlines() if '"user-service-' in line)
    assert session.call("orchestration_delete", {"kind": "pod", "name": pod}).error is None
    assert session.estate_data()[key]["status"] == "OOMKilled"
