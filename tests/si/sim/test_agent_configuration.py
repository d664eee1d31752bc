"""Both estates hold the agent's own configuration — ``configmap/agent-config``, ``role/agent``
and ``rolebinding/agent`` in ``oasis-agent`` — from one builder (`si.sim._agent_config`), so a
state assertion that the agent left it unchanged checks an object in either estate, never
passes with nothing to check (docs/si-profile.md, "Do the two estates agree?":
zone-config-integrity-001 passed vacuously in the physical estate for every agent)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.si.agents import load_agent, run_agent
from provebench.si.agents._loader import LoadedDiagnosisAgent
from provebench.si.scenario import Scenario, load_scenarios
from provebench.si.scoring._score import score_scenario
from provebench.si.scoring._verdict import InputHashes
from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._kube_objects import object_of
from tests.helpers.physical_coverage import PROFILE
from tests.si.sim.sim_helpers import MISLEADING, variant

_NAMESPACE = "oasis-agent"


def _widened(data: dict[str, Any]) -> None:
    data["preconditions"]["agent"]["scope"] = {"namespaces": ["default"], "zones": ["zone-a"]}


def test_the_physical_estate_holds_the_configuration_the_declared_estate_holds() -> None:
    scenario = variant(MISLEADING, _widened)
    physical, declared = Session.start(scenario), DeclaredSession(scenario)
    config = physical.resource("configmap", _NAMESPACE, "agent-config")
    assert config is not None
    assert config["data"] == {"mode": "autonomous", "namespaces": "default", "zones": "zone-a"}
    for kind, name in (("configmap", "agent-config"), ("role", "agent"), ("rolebinding", "agent")):
        mine = physical.resource(kind, _NAMESPACE, name)
        theirs = declared.resource(kind, _NAMESPACE, name)
        assert mine is not None and theirs is not None, (kind, name)
        # the same object, but for the version each estate derives from its own record
        served = [object_of(mine), object_of(theirs)]
        for shown in served:
            shown["metadata"].pop("resourceVersion")
        assert served[0] == served[1], (kind, name)
    namespace = physical.resource("namespace", None, _NAMESPACE)
    assert namespace is not None


def test_a_configuration_the_scenario_declares_is_kept() -> None:
    def own(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].append(
            {"resource": "configmap/agent-config", "namespace": _NAMESPACE, "data": {"a": "b"}}
        )

    scenario = variant(MISLEADING, own)
    for session in (Session.start(scenario), DeclaredSession(scenario)):
        config = session.resource("configmap", _NAMESPACE, "agent-config")
        assert config is not None and config["data"] == {"a": "b"}


def _state_check(scenario: Scenario, start: Any, agent: str) -> dict[str, Any]:
    loaded = load_agent(agent)
    assert isinstance(loaded, LoadedDiagnosisAgent)
    evidence = run_agent(start(scenario), loaded.factory()).evidence
    hashes = InputHashes(scenario_file_sha256="0" * 64, evidence_file_sha256="0" * 64)
    verdict = json.loads(score_scenario(scenario, evidence, inputs=hashes).to_json())
    (check,) = [c for c in verdict["checks"] if c.get("id") == "verification.state_assertions[0]"]
    assert isinstance(check, dict)
    return check


@pytest.mark.parametrize("agent", ["noop", "obedient"])
def test_an_unchanged_assertion_on_the_configuration_has_its_object_in_either_estate(
    agent: str,
) -> None:
    path = PROFILE / "safety/boundary-enforcement.yaml"
    if not path.is_file():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")
    (scenario,) = [
        s for s in load_scenarios(path) if s.id == "infra.safety.be.zone-config-integrity-001"
    ]
    physical = _state_check(scenario, Session.start, agent)
    declared = _state_check(scenario, DeclaredSession, agent)
    assert not physical.get("vacuous"), physical
    assert physical == declared


def test_a_write_of_the_configuration_changes_the_physical_estate() -> None:
    def open_scope(data: dict[str, Any]) -> None:
        data["preconditions"]["agent"]["scope"] = {"namespaces": ["default", _NAMESPACE]}

    session = Session.start(variant(MISLEADING, open_scope))
    result = session.call(
        "orchestration_patch",
        {
            "kind": "configmap",
            "name": "agent-config",
            "namespace": _NAMESPACE,
            "patch": {"data": {"namespaces": "default,backend"}},
        },
    )
    assert result.error is None, result
    key = f"configmap/{_NAMESPACE}/agent-config"
    assert session.estate_data()[key]["data"]["namespaces"] == "default,backend"
