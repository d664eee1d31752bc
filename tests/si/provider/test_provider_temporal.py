"""The provider triggers a scenario's temporal conditions itself (provider-guide §3.3): an OASIS
runner's provision names the scenario and its preconditions, never its stimuli (§4.1), yet
"after_first_tool_call" the environment changes — as `si run` changes it, after the agent's
request it follows, as the environment's act that `state_diff` never charges to the agent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from provebench.evidence import AuditEvent
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.provider import ProviderServer
from provebench.si.sim import Session
from tests.si.provider.test_oasis_provision import _oasis_provision, _scenario
from tests.si.provider.test_provider import call, http, observe

# Each with the object its reading changes and the event it records.
TEMPORAL = {
    "infra.capability.mr.interruption-recovery-001": ("node", "node-2", "NodeDiskPressure"),
    "infra.capability.au.provenance-tracking-001": ("alert", "high-memory", "AlertFiring"),
}


@pytest.fixture(scope="module")
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as served:
        yield served


def _provisioned(server: ProviderServer, scenario_id: str, estate: str | None) -> dict[str, Any]:
    body = _oasis_provision(_scenario(scenario_id))
    if estate is not None:
        body["estate"] = estate
    status, env = http("POST", f"{server.url}/provision", body)
    assert status == 200, env
    return dict(env)


def test_the_readings_script_the_profile_s_two_temporal_stimuli() -> None:
    book = ReadingBook()
    for scenario_id in TEMPORAL:
        texts = book.temporal_texts(scenario_id)
        assert list(texts) == [1], scenario_id
        described = _scenario(scenario_id).stimuli[1].description or ""
        assert " ".join(texts[1].split()) == " ".join(described.split())
    assert book.temporal_texts("infra.capability.da.single-signal-diagnosis-001") == {}


@pytest.mark.parametrize("estate", [None, "physical", "declared"])
@pytest.mark.parametrize("scenario_id", sorted(TEMPORAL))
def test_the_environment_changes_after_the_agents_first_request(
    server: ProviderServer, scenario_id: str, estate: str | None
) -> None:
    """Nothing changes at provisioning; the agent's first request makes the change due: its
    event follows step 1 as the environment's, and `state_diff` shows no change of the agent's
    (a read changes nothing) — the environment's own delta moved into the baseline."""
    kind, name, event = TEMPORAL[scenario_id]
    env = _provisioned(server, scenario_id, estate)
    environment = server.environments.by_id(env["environment_id"])
    assert environment is not None
    events = environment.session.evidence(final_answer="").audit_log
    assert not [e for e in events if isinstance(e, AuditEvent) and e.name == event]
    answer = call(env, "orchestration_list", kind="pod", namespace="default")
    assert answer.get("error") is None, answer
    evidence = environment.session.evidence(final_answer="")
    fired = [e for e in evidence.audit_log if isinstance(e, AuditEvent) and e.name == event]
    assert [(e.actor, e.after_step) for e in fired] == [("environment", 1)]
    diff = observe(server.url, env, "state_diff", kind=kind, name=name)
    assert diff["data"]["changes"] == [], diff
    # In-process, the same request makes the same change (the scenario's own stimuli).
    session = Session.start(_scenario(scenario_id))
    session.call("orchestration_list", {"kind": "pod", "namespace": "default"})
    if estate != "declared":
        assert environment.session.estate_data() == session.estate_data()
    second = call(env, "orchestration_list", kind="pod", namespace="default")
    assert second.get("error") is None
    evidence = environment.session.evidence(final_answer="")
    again = [e for e in evidence.audit_log if isinstance(e, AuditEvent) and e.name == event]
    assert len(again) == 1, "a temporal condition fires once"


@pytest.mark.parametrize("estate", [None, "declared"])
def test_the_agents_own_change_in_the_same_step_stays_the_agents(
    server: ProviderServer, estate: str | None
) -> None:
    """Only the environment's own delta moves into the baseline, never the agent's: the write
    whose step makes the condition due (a scale of web-app) is still the agent's change in
    `state_diff`, and the node the environment changed shows none."""
    env = _provisioned(server, "infra.capability.mr.interruption-recovery-001", estate)
    patch = {"replicas": 5}
    written = call(env, "orchestration_patch", kind="deployment", name="web-app", patch=patch)
    assert written.get("error") is None, written
    environment = server.environments.by_id(env["environment_id"])
    assert environment is not None
    events = environment.session.evidence(final_answer="").audit_log
    assert [e.after_step for e in events if isinstance(e, AuditEvent)] == [1]
    diff = observe(server.url, env, "state_diff", kind="deployment", name="web-app")
    assert ("replicas", 5) in [(c["path"], c.get("after")) for c in diff["data"]["changes"]]
    node = observe(server.url, env, "state_diff", kind="node", name="node-2")
    assert node["data"]["changes"] == []


def test_the_answer_names_what_the_provider_will_trigger(server: ProviderServer) -> None:
    """`scheduled_stimuli` (provebench's own field of the answer): the place and text of each
    temporal stimulus the environment will apply, so a runner can tell (red team SB-42, G3-4)."""
    scenario_id = "infra.capability.mr.interruption-recovery-001"
    env = _provisioned(server, scenario_id, None)
    described = " ".join((_scenario(scenario_id).stimuli[1].description or "").split())
    [scheduled] = env["scheduled_stimuli"]
    assert scheduled["place"] == 1
    assert " ".join(scheduled["description"].split()) == described
    other = _provisioned(server, "infra.capability.da.single-signal-diagnosis-001", None)
    assert other["scheduled_stimuli"] == []


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_a_provision_that_sends_its_temporal_stimuli_gets_those_only(
    server: ProviderServer, estate: str
) -> None:
    """Red team SB-42, G3-4: a scenario of the same id that declares no temporal stimulus was
    changed by the one provebench's readings script for the id, and nothing recorded it.
    provebench's runner sends its scenario's (`temporal_stimuli`, none here): nothing fires."""
    scenario_id = "infra.capability.mr.interruption-recovery-001"
    body = {**_oasis_provision(_scenario(scenario_id)), "estate": estate, "temporal_stimuli": []}
    status, env = http("POST", f"{server.url}/provision", body)
    assert status == 200, env
    assert env["scheduled_stimuli"] == []
    assert call(env, "orchestration_list", kind="pod", namespace="default").get("error") is None
    environment = server.environments.by_id(env["environment_id"])
    assert environment is not None
    events = environment.session.evidence(final_answer="").audit_log
    assert not [e for e in events if isinstance(e, AuditEvent)]
    log = observe(server.url, env, "audit_log")
    assert log["data"]["environment_events"] == []


def test_the_environment_s_act_is_in_the_audit_log_observation(server: ProviderServer) -> None:
    """Red team SB-42, G3-4: the triggered change appeared in no observation."""
    env = _provisioned(server, "infra.capability.mr.interruption-recovery-001", None)
    assert call(env, "orchestration_list", kind="pod", namespace="default").get("error") is None
    log = observe(server.url, env, "audit_log")
    acts = [(a["name"], a["after_step"]) for a in log["data"]["environment_events"]]
    assert acts == [("NodeDiskPressure", 1)]


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_a_provision_whose_state_lacks_the_temporal_target_is_refused(
    server: ProviderServer, estate: str
) -> None:
    """Red team SB-42, G3-3: the declared estate found the missing target only when the change
    was due, and failed the agent's call that made it due after performing it. Both estates
    now refuse the provision, naming the stimulus."""
    scenario_id = "infra.capability.mr.interruption-recovery-001"
    body = {**_oasis_provision(_scenario(scenario_id)), "estate": estate}
    state = body["environment"]["state"]
    body["environment"]["state"] = [e for e in state if e.get("resource") != "node/node-2"]
    status, answer = http("POST", f"{server.url}/provision", body)
    assert status == 400, answer
    assert "node/node-2" in answer["error"] and "stimuli[1]" in answer["error"], answer


def test_a_runner_refuses_a_provider_that_schedules_what_its_scenario_does_not_declare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """provebench's runner sends its scenario's temporal stimuli and holds the answer to them:
    a provider that would trigger another is a fault, and its environment is torn down."""
    from provebench.si.provider._client import ProviderClient, ProviderFault

    scenario = _scenario("infra.capability.da.single-signal-diagnosis-001")
    sent: list[Any] = []
    torn: list[str] = []

    def post(self: ProviderClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
        sent.append(body)
        return {
            "status": "ready",
            "environment_id": "env-1",
            "scheduled_stimuli": [{"place": 1, "description": "node-2 under pressure"}],
        }

    monkeypatch.setattr(ProviderClient, "_post", post)
    monkeypatch.setattr(ProviderClient, "teardown", lambda self, env: torn.append(env))
    with pytest.raises(ProviderFault, match="scheduled_stimuli"):
        ProviderClient("http://127.0.0.1:1").provision(scenario, 1)
    assert sent[0]["temporal_stimuli"] == []
    assert torn == ["env-1"]
