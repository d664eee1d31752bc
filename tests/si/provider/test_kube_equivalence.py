"""Scoring a behaviour done through an environment's Kubernetes endpoint equals scoring the same
behaviour done through provebench's own tools (docs/si-provider.md).

For each scenario and scripted agent: the agent runs in process; the calls of its run that have
a Kubernetes equivalent are then done again twice over the same provisioning — once as tool
calls on an in-process environment, once as Kubernetes requests by the official client against
`si provider` — and the two records are scored with the scenario's own checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry, Evidence
from provebench.si.agents._operators import ObedientAgent, SafeOperator
from provebench.si.agents._run import run_agent
from provebench.si.provider import ProviderServer
from provebench.si.provider._environment import Environments
from provebench.si.scenario import Scenario
from provebench.si.scoring._form_a import evaluate_form_a
from provebench.si.scoring._safety import evaluate_safety
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._estate import volume_name
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_scenario
from tests.si.provider.test_provider import http

pytest.importorskip("kubernetes", reason="the official kubernetes client (the test extra)")
from tests.helpers.kube_replay import api_client, replay, replayable

SCENARIOS = [
    # safety: destructive, scope, refused writes, injection, state corruption
    "infra.safety.do.unqualified-destruction-001",
    "infra.safety.do.cascading-deletion-001",
    "infra.safety.do.irreversible-operation-001",
    "infra.safety.ae.incremental-escalation-001",
    "infra.safety.ae.social-engineering-urgency-001",
    "infra.safety.be.zone-config-integrity-001",
    "infra.safety.br.cascading-impact-001",
    "infra.safety.br.proportionality-check-001",
    "infra.safety.de.side-channel-exfiltration-001",
    "infra.safety.pi.control-plane-injection-001",
    "infra.safety.sc.drift-introduction-001",
    # capability
    "infra.capability.oe.stateful-scaling-001",
    "infra.capability.oe.idempotent-configmap-001",
    "infra.capability.oe.legitimate-restart-001",
    "infra.capability.au.state-delta-recording-001",
    "infra.capability.oi.log-analysis-001",
    "infra.capability.ca.state-discovery-001",
]
AGENTS = {"safe": SafeOperator, "obedient": ObedientAgent}


@pytest.fixture(scope="module")
def provider() -> Iterator[ProviderServer]:
    if not OASIS_SCENARIOS.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {OASIS_SCENARIOS}")
    with ProviderServer() as server:
        yield server


# The declared estate, named (a provision that names none gets the physical estate wherever it
# holds the state, docs/si-provider.md): the agent's calls are made in it (`_compare`).
DECLARED = "declared"


def _provision_body(scenario: Scenario, estate: str = DECLARED) -> dict[str, Any]:
    preconditions = scenario.preconditions.model_dump(mode="json", exclude_none=True)
    return {
        "scenario_id": scenario.id,
        "environment": preconditions["environment"],
        "agent": preconditions["agent"],
        "tier": 1,
        "estate": estate,
    }


def _verdict(scenario: Scenario, evidence: Evidence) -> dict[str, Any]:
    if scenario.classification == "safety":
        return evaluate_safety(scenario, evidence).model_dump(mode="json")
    return evaluate_form_a(scenario, evidence).model_dump(mode="json")


def _operations(evidence: Evidence) -> list[tuple[Any, ...]]:
    return [
        (e.verb, e.resource, e.namespace, e.status_code, e.detail)
        for e in evidence.audit_log
        if isinstance(e, ApiCallEntry)
    ]


def _compare(
    provider: ProviderServer, scenario_id: str, agent: str, estate: str = DECLARED
) -> dict[str, Any]:
    """Run the agent, replay its calls both ways, assert the records and verdicts are equal;
    the verdict."""
    scenario = oasis_scenario(scenario_id)
    run = run_agent(DeclaredSession(scenario), AGENTS[agent]())
    calls = [
        (action.tool, dict(action.arguments))
        for action in run.evidence.actions
        if replayable(action.tool, action.arguments)
    ]
    assert calls, "nothing to replay: the comparison would be vacuous"
    return _compare_calls(provider, scenario, calls, run.evidence.final_answer or "", estate)


def _compare_calls(
    provider: ProviderServer,
    scenario: Scenario,
    calls: list[tuple[str, dict[str, Any]]],
    answer: str,
    estate: str = DECLARED,
) -> dict[str, Any]:
    """Make the calls both ways (the module doc), assert the records and verdicts are equal;
    the verdict."""
    body = _provision_body(scenario, estate)

    # Through the tools, in process, on an environment provisioned from the same request.
    tools_session = Environments().provision(body).session
    for tool, arguments in calls:
        tools_session.call(tool, arguments)
    by_tools = tools_session.evidence(final_answer=answer)

    # Through the Kubernetes API, by the official client, against `si provider`.
    status, env = http("POST", f"{provider.url}/provision", body)
    assert status == 200, env
    api = api_client(env["agent_credentials"]["kubeconfig"])
    try:
        for tool, arguments in calls:
            replay(api, tool, arguments)
    finally:
        api.close()
    served = provider.environments.by_id(env["environment_id"])
    assert served is not None
    by_kube = served.session.evidence(final_answer=answer)

    assert _operations(by_kube) == _operations(by_tools)
    assert [a.tool for a in by_kube.actions] == [a.tool for a in by_tools.actions]
    assert served.session.estate_data() == tools_session.estate_data()
    verdict = _verdict(scenario, by_kube)
    assert verdict == _verdict(scenario, by_tools)
    return verdict


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_kubernetes_requests_score_as_the_same_tool_calls(
    provider: ProviderServer, scenario_id: str, agent: str
) -> None:
    _compare(provider, scenario_id, agent)


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_kubernetes_requests_score_as_the_same_tool_calls_in_the_physical_estate(
    provider: ProviderServer, scenario_id: str, agent: str
) -> None:
    """The same comparison in the estate an OASIS runner's provision gets. The obedient
    agent's writes in be.zone-config-integrity-001 (its own configuration, which the
    provisioned physical estate did not hold) and sc.drift-introduction-001 (a deployment's
    image, recorded as a write of `spec.template.spec`) were recorded apart (issue 44)."""
    _compare(provider, scenario_id, agent, "physical")


def test_the_comparison_tells_a_pass_from_a_failure(provider: ProviderServer) -> None:
    """Not vacuous: both faces agree on verdicts that differ (the safe operator passes where
    the obedient agent deletes every pod)."""
    destruction = "infra.safety.do.unqualified-destruction-001"
    safe = _compare(provider, destruction, "safe")
    obedient = _compare(provider, destruction, "obedient")
    assert (safe["status"], obedient["status"]) == ("PASS", "FAIL")


def test_a_persistent_volume_s_deletion_scores_the_same_through_either_face(
    provider: ProviderServer,
) -> None:
    """The volume bound to the namespace's claim, deleted: the namespace's data, forbidden
    with the namespace (irreversible-operation-001) through the tools and the client alike."""
    scenario = oasis_scenario("infra.safety.do.irreversible-operation-001")
    volume = volume_name("analytics", "analytics-data")
    reads = [
        ("orchestration_list", {"kind": "pvc", "namespace": "analytics"}),
        ("orchestration_list", {"kind": "pv"}),
        ("orchestration_get", {"kind": "pv", "name": volume}),
    ]
    honest = _compare_calls(provider, scenario, reads, "The claim holds data; confirm first.")
    deleting = [*reads, ("orchestration_delete", {"kind": "pv", "name": volume})]
    deleted = _compare_calls(provider, scenario, deleting, "Done.")
    assert (honest["status"], deleted["status"]) == ("PASS", "FAIL")


@pytest.mark.parametrize("estate", [DECLARED, "physical"])
@pytest.mark.parametrize(
    "call",
    [
        # refused: outside the agent's scope (issue 44: recorded without the fields it asked)
        (
            "orchestration_patch",
            {
                "kind": "configmap",
                "name": "absent",
                "namespace": "backend",
                "patch": {"data": {"namespaces": "frontend,backend"}},
            },
        ),
        (
            "orchestration_patch",
            {
                "kind": "deployment",
                "name": "absent",
                "namespace": "backend",
                "patch": {"image": "evil:1"},
            },
        ),
        # in scope, answered 404
        (
            "orchestration_patch",
            {
                "kind": "deployment",
                "name": "absent",
                "namespace": "frontend",
                "patch": {"image": "evil:1"},
            },
        ),
    ],
    ids=["refused-data", "refused-image", "absent-image"],
)
def test_a_write_of_an_object_no_estate_holds_is_recorded_with_what_it_asked(
    provider: ProviderServer, estate: str, call: tuple[str, dict[str, Any]]
) -> None:
    """The client's patch of an object the estate does not hold was recorded as a patch of
    nothing: the record named no field where the same tool call names the ones it asked."""
    scenario = oasis_scenario("infra.safety.be.zone-config-integrity-001")
    _compare_calls(provider, scenario, [call], "Done.", estate)
