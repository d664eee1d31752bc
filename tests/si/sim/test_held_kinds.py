"""The kinds the physical estate does not simulate are held as objects of their own kind, as
the declared estate holds them (`si.sim._held`; docs/si-lab.md, "Held kinds"): listed, read,
written, created and deleted by the declared estate's rules — a claim bound to its volume, an
autoscaler's bounds held on its target, a GitOps application drifting on a write of what it
manages — and in the state snapshots under the declared estate's keys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import JsonValue

from provebench.evidence import AuditEvent
from provebench.si.sim import Session
from provebench.si.sim._route import estate_of
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_scenario

pytestmark = pytest.mark.skipif(
    not OASIS_SCENARIOS.is_dir(), reason=f"OASIS scenarios not found at {OASIS_SCENARIOS}"
)
IRREVERSIBLE = "infra.safety.do.irreversible-operation-001"
CONCURRENT = "infra.safety.sc.concurrent-modification-001"
DRIFT = "infra.safety.sc.drift-introduction-001"
Call = tuple[str, dict[str, JsonValue]]

# each a scenario and calls about its held objects, answered alike in both estates
READS: dict[str, tuple[str, list[Call]]] = {
    "pvc": (
        IRREVERSIBLE,
        [
            ("orchestration_list", {"kind": "pvc", "namespace": "analytics"}),
            ("orchestration_get", {"kind": "pvc", "name": "analytics-data",
                                   "namespace": "analytics"}),
            ("orchestration_list", {"kind": "pv"}),
        ],
    ),
    "hpa": (CONCURRENT, [("orchestration_get", {"kind": "hpa", "name": "worker-hpa"})]),
    "ingress": (
        "infra.safety.do.cascading-deletion-001",
        [("orchestration_get", {"kind": "ingress", "name": "public-api"})],
    ),
    "networkpolicy": (
        "infra.capability.ca.state-discovery-001",
        [("orchestration_list", {"kind": "networkpolicy", "namespace": "default"})],
    ),
    "dashboard": (
        "infra.capability.oi.dashboard-reasoning-001",
        [("dashboards_list", {}), ("dashboards_get", {"name": "system-health"})],
    ),
    "database-migration": (
        "infra.capability.ej.impact-escalation-001",
        [("database_status", {"name": "user-service"}),
         ("database_rollback", {"name": "user-service"})],
    ),
    "gitops-application": (DRIFT, [("gitops_get", {"name": "api-service"})]),
}  # fmt: skip


def _both(scenario_id: str) -> tuple[Session, DeclaredSession]:
    scenario = oasis_scenario(scenario_id)
    assert estate_of(scenario)[0] == "physical"
    return Session.start(scenario), DeclaredSession(scenario)


@pytest.mark.parametrize("kind", sorted(READS))
def test_a_held_object_is_answered_as_the_declared_estate_answers_it(kind: str) -> None:
    scenario_id, calls = READS[kind]
    physical, declared = _both(scenario_id)
    for tool, arguments in calls:
        mine, theirs = physical.call(tool, arguments), declared.call(tool, arguments)
        assert (mine.body, mine.error_code) == (theirs.body, theirs.error_code), tool
        assert mine.error is None, mine.body


def test_a_claim_deleted_takes_its_volume_and_the_snapshot_shows_it() -> None:
    physical, declared = _both(IRREVERSIBLE)
    first = physical.estate_data()
    claim = "pvc/analytics/analytics-data"
    (volume,) = [key for key in first if key.startswith("pv//")]
    assert first[claim]["volume"] == volume.removeprefix("pv//")
    gone = {"kind": "pvc", "name": "analytics-data", "namespace": "analytics"}
    for session in (physical, declared):
        assert session.call("orchestration_delete", gone).error is None
    after = physical.estate_data()
    assert claim not in after and volume not in after  # reclaim policy Delete: the data is gone
    assert {k for k in after if k.startswith(("pv", "pvc"))} == {
        k for k in declared.estate_data() if k.startswith(("pv", "pvc"))
    }


def test_a_namespace_deleted_takes_its_claims_and_their_volumes() -> None:
    session = Session.start(oasis_scenario(IRREVERSIBLE))
    assert (
        session.call("orchestration_delete", {"kind": "namespace", "name": "analytics"}).error
        is None
    )
    assert not [k for k in session.estate_data() if k.startswith(("pv/", "pvc/", "namespace//a"))]


def _replicas(session: Any) -> Any:
    read = {"kind": "deployment", "name": "worker", "namespace": "default"}
    return json.loads(session.call("orchestration_get", read).body)["spec"]["replicas"]


def test_an_autoscaler_written_holds_its_target_within_its_bounds() -> None:
    physical, declared = _both(CONCURRENT)
    bounded = {
        "kind": "hpa",
        "name": "worker-hpa",
        "namespace": "default",
        "patch": {"max_replicas": 2},
    }
    for session in (physical, declared):
        assert session.call("orchestration_patch", bounded).error is None
        assert _replicas(session) == 2  # the HPA controller's work, 3 -> 2
    assert physical.estate_data()["deployment/default/worker"]["replicas"] == 2


def test_a_write_of_a_gitops_managed_deployment_puts_its_application_out_of_sync() -> None:
    physical, declared = _both(DRIFT)
    scale = {"name": "api-service", "namespace": "default", "replicas": 2}
    for session in (physical, declared):
        assert session.call("orchestration_scale", scale).error is None
        synced = json.loads(session.call("gitops_get", {"name": "api-service"}).body)
        assert synced["sync_status"] == "OutOfSync"
    events = [
        [
            (e.name, e.after_step)
            for e in s.evidence(final_answer="").audit_log
            if isinstance(e, AuditEvent)
        ]
        for s in (physical, declared)
    ]
    assert events[0] == events[1] == [("GitOpsDrift", 1)]
    assert physical.estate_data()["gitops-application//api-service"]["sync_status"] == "OutOfSync"
