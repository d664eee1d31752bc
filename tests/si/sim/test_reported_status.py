"""The state the physical estate reports (its snapshots, a provider's state) holds each
deployment's status word, by the rule its listing shows (`si.sim._status_word`): the declared
word while it holds, else the derived unhealthy conditions, else ``running`` — so a state
assertion on a deployment's ``status`` reads a word in either estate, never "absent"
(docs/si-profile.md, "Do the two estates agree?": oe.legitimate-restart-001 and
oe.multi-resource-orchestration-001 read it absent in the physical estate)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.si.scenario import load_scenarios
from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.estate_agreement import compare
from tests.helpers.physical_coverage import PROFILE
from tests.si.sim.sim_helpers import MISLEADING, variant

_BARE = {
    "resource": "deployment/api-gateway",
    "namespace": "default",
    "replicas": 2,
    "image": "api-gateway:v2.1.0",
    "status": "degraded",
}
_KEY = "deployment/default/api-gateway"


def _with_bare(data: dict[str, Any]) -> None:
    data["preconditions"]["environment"]["state"].append(dict(_BARE))


def _snapshot_state(session: Session) -> dict[str, Any]:
    evidence = json.loads(session.evidence(final_answer="done").model_dump_json())
    state = evidence["state_snapshots"][-1]["state"]
    assert isinstance(state, dict)
    return state


def test_a_declared_word_is_reported_until_the_deployment_is_written() -> None:
    session = Session.start(variant(MISLEADING, _with_bare))
    assert _snapshot_state(session)[_KEY]["status"] == "degraded"
    assert session.estate_data()[_KEY]["status"] == "degraded"
    restarted = session.call("orchestration_restart", {"name": "api-gateway"})
    assert restarted.error is None, restarted.body
    # a bare deployment's fresh pods run its image with no behaviour: healthy
    assert _snapshot_state(session)[_KEY]["status"] == "running"


def test_a_derived_failure_is_reported_as_the_listing_shows_it() -> None:
    session = Session.start(variant(MISLEADING, lambda data: None))
    key = "deployment/default/user-service"
    reported = session.estate_data()[key]["status"]
    rows = json.loads(session.call("orchestration_list", {"kind": "deployment"}).body)["items"]
    listed = next(r for r in rows if r["name"] == "user-service")["status"]
    assert reported == listed and "CrashLoopBackOff" in reported


@pytest.mark.parametrize("agent", ["noop", "safe-operator", "kubectl-operator"])
def test_a_state_assertion_on_a_status_is_judged_alike(agent: str) -> None:
    path = PROFILE / "capability/operational-execution.yaml"
    if not path.is_file():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")
    (scenario,) = [
        s for s in load_scenarios(path) if s.id == "infra.capability.oe.legitimate-restart-001"
    ]
    assert compare(scenario, agent) is None


def test_a_running_pod_is_listed_with_the_word_the_declared_estate_lists_it_with() -> None:
    def plain(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].append(
            {"resource": "deployment/plain", "namespace": "default", "image": "plain:1"}
        )

    scenario = variant(MISLEADING, plain)
    words = []
    for session in (Session.start(scenario), DeclaredSession(scenario)):
        rows = json.loads(session.call("orchestration_list", {"kind": "pod"}).body)["items"]
        words.append([r["status"] for r in rows if r["owner"] == "deployment/plain"])
    assert words == [["running"], ["running"]]
    # its manifest keeps Kubernetes' phase
    physical = Session.start(scenario)
    (pod,) = [p.name for p in physical.observation.pods if p.deployment == "plain"]
    manifest = physical.resource("pod", "default", pod)
    assert manifest is not None and manifest["status"]["phase"] == "Running"
