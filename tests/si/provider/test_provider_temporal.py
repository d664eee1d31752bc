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
