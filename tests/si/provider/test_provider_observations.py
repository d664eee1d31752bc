"""`si provider`'s own observations, written into an artifact of the reference OASIS runner's
shape, re-score to the verdict provebench gives in process (docs/si-provider.md, "The audit
log"): every operation of the agent is in `audit_log.data.entries` as an `api_call` entry of the
declared `agent_principal`, through either face."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import evidence_from_document
from provebench.evidence._observations import read_observations
from provebench.si.agents._operators import ObedientAgent, SafeOperator
from provebench.si.agents._protocol import DiagnosisAgent
from provebench.si.agents._run import run_agent
from provebench.si.provider import ProviderServer, _conformance, _server
from provebench.si.provider._client import ProviderClient
from provebench.si.provider._kube import AGENT_USER
from provebench.si.provider._preflight import preflight
from provebench.si.provider._runner import ProviderRun, run_on_provider
from provebench.si.scenario import Scenario
from provebench.si.scoring._score import score_scenario
from provebench.si.sim.declared import DeclaredSession
from provebench.si.suite._runner import result_of
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files, oasis_scenario
from tests.helpers.pilot_lab import run_cli

AGENTS: dict[str, Callable[[], DiagnosisAgent]] = {"safe": SafeOperator, "obedient": ObedientAgent}
SCENARIOS = (
    "infra.safety.be.zone-violation-001",
    "infra.safety.do.unqualified-destruction-001",
    "infra.safety.pi.control-plane-injection-001",
    "infra.capability.da.cascading-diagnosis-001",
    "infra.capability.oe.legitimate-restart-001",
    "infra.capability.oe.stateful-scaling-001",
)
NETWORK_UNMET = ("network_policy_enforcement", "the simulator models no network traffic")


def _through_provider(
    server: ProviderServer, scenario: Scenario, agent: str, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    """The run through `si provider`, as the reference runner would persist it: the agent's own
    account and every `/observe` answer the provider gave, verbatim."""
    served: list[dict[str, Any]] = []
    observe = _server.observe  # type: ignore[attr-defined]

    def recording(environment: Any, body: Any) -> Any:
        answer = observe(environment, body)
        served.append(json.loads(json.dumps(answer)))
        return answer

    monkeypatch.setattr(_server, "observe", recording)
    client = ProviderClient(server.url)
    run = ProviderRun(client, preflight(client, [scenario], scenario.tier))
    ran = run_on_provider(
        run, scenario, scenario.tier, AGENTS[agent], max_tool_calls=50, isolation=None
    )
    evidence = ran.outcome.evidence
    assert evidence.provider_failure is None
    return {
        "scenario_id": scenario.id,
        "final_answer": evidence.final_answer,
        "reasoning_trace": evidence.reasoning_trace,
        "actions": [
            {k: v for k, v in action.model_dump().items() if v is not None and k != "duration_ms"}
            for action in evidence.actions
        ],
        "observations": served,
        "observed_model": None,
        "vacuous_assertions": None,
    }


def _outcome(scenario: Scenario, verdict: Any) -> tuple[Any, ...]:
    result = result_of(scenario, verdict, "scenario")
    return result.status, result.score, result.failures


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_the_provider_s_observations_rescore_to_the_in_process_verdict(
    server: ProviderServer, monkeypatch: pytest.MonkeyPatch, scenario_id: str, agent: str
) -> None:
    oasis_files()
    monkeypatch.setattr(_conformance, "UNMET", (NETWORK_UNMET,))
    scenario = oasis_scenario(scenario_id)
    artifact = _through_provider(server, scenario, agent, monkeypatch)
    (audit,) = [o for o in artifact["observations"] if o["observation_type"] == "audit_log"]
    assert audit["data"]["agent_principal"] == AGENT_USER
    agents = [e for e in audit["data"]["entries"] if e["user"] == AGENT_USER]
    assert agents and all(e["kind"] == "api_call" for e in agents)
    in_process = run_agent(DeclaredSession(scenario), AGENTS[agent]()).evidence
    own = _outcome(scenario, score_scenario(scenario, in_process))
    read = evidence_from_document(artifact, source="artifact.json")
    assert any(e.detail.get("agent_principal") == AGENT_USER for e in read.audit_log)
    rescored = score_scenario(scenario, read)
    assert _outcome(scenario, rescored) == own
    assert own[0] == ("PASS" if agent == "safe" else "FAIL") or ".capability." in scenario_id


def test_si_score_rescores_the_provider_s_artifact(
    server: ProviderServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    oasis_files()
    monkeypatch.setattr(_conformance, "UNMET", (NETWORK_UNMET,))
    scenario = oasis_scenario(SCENARIOS[0])
    for agent, status in (("safe", "PASS"), ("obedient", "FAIL")):
        artifact = _through_provider(server, scenario, agent, monkeypatch)
        path = tmp_path / f"{agent}.json"
        path.write_text(json.dumps(artifact))
        result = run_cli(
            "si",
            "score",
            str(OASIS_SCENARIOS / "safety/boundary-enforcement.yaml"),
            str(path),
            "--scenario-id",
            scenario.id,
        )
        assert result.returncode in (0, 1), result.stderr
        verdict = json.loads(result.stdout)
        assert verdict["status"] == status, result.stderr


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"request_body": "{}"}, "entries[0].request_body"),
        ({"step": -1}, "entries[0].step"),
        ({"resource": ""}, "entries[0].resource"),
        ({"status_code": 7}, "entries[0].status_code"),
    ],
)
def test_a_malformed_api_call_entry_is_refused_naming_the_field(
    change: dict[str, Any], named: str
) -> None:
    entry = {"kind": "api_call", "verb": "get", "resource": "pod/web", "user": AGENT_USER}
    data = {"agent_principal": AGENT_USER, "entries": [{**entry, **change}]}
    observation = {
        "observation_type": "audit_log",
        "data": data,
        "evidence_source": {"type": "simulator_audit_log", "status": "available"},
    }
    read = read_observations([{**observation, "data": {**data, "entries": [entry]}}], source="a")
    assert [(e.actor, e.verb, e.resource) for e in read.audit_log[1:]] == [  # type: ignore[union-attr]
        ("agent", "get", "pod/web")
    ]
    with pytest.raises(ProvebenchError) as raised:
        read_observations([observation], source="a")
    assert raised.value.field is not None and raised.value.field.endswith(named)
