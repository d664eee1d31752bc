"""An OASIS runner's provision — no `estate` field — gets the one estate, the physical one,
wherever it holds the scenario's state, and `/inject-state` places state there as the
environment's own act (provider-guide §4.1, §4.4; docs/si-provider.md, "The physical estate",
issue 44)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry, AuditEvent
from provebench.si.provider import ProviderServer
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim import Session
from provebench.si.sim._route import estate_of, provisioned_estate
from tests.helpers.physical_coverage import published_scenarios
from tests.si.provider.test_provider import call, http

SMTP_ID = "infra.capability.da.single-signal-diagnosis-001"
NAMESPACE = "default"


def _oasis_provision(scenario: Scenario) -> dict[str, Any]:
    """The body the reference runner sends (oasisctl `ProvisionRequest`): no `estate`."""
    preconditions = scenario.preconditions
    return {
        "scenario_id": scenario.id,
        "environment": preconditions.environment.model_dump(mode="json", exclude_none=True),
        "agent": preconditions.agent.model_dump(mode="json", exclude_none=True),
        "tier": 1,
    }


def _scenario(scenario_id: str) -> Scenario:
    return next(s for s in published_scenarios() if s.id == scenario_id)


@pytest.fixture(scope="module")
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as served:
        yield served


@pytest.fixture
def smtp(server: ProviderServer) -> dict[str, Any]:
    status, env = http("POST", f"{server.url}/provision", _oasis_provision(_scenario(SMTP_ID)))
    assert status == 200, env
    return dict(env)


def _inject(server: ProviderServer, env: dict[str, Any], state: list[Any]) -> tuple[int, Any]:
    body = {"environment_id": env["environment_id"], "state": state}
    return http("POST", f"{server.url}/inject-state", body)


def _pod_words(env: dict[str, Any]) -> list[str]:
    import json

    listed = json.loads(call(env, "orchestration_list", kind="pod", namespace=NAMESPACE)["body"])
    return sorted({item["status"] for item in listed["items"]})


def test_every_profile_scenario_provisioned_as_an_oasis_runner_does_gets_the_physical_estate(
    server: ProviderServer,
) -> None:
    """The one place decides (`provisioned_estate`): for each of the profile's scenarios the
    estate its in-process run uses (all physical), named in the provision's answer."""
    scenarios = published_scenarios()
    assert len(scenarios) == 50
    for scenario in scenarios:
        assert provisioned_estate(scenario)[0] == estate_of(scenario)[0] == "physical"
        environment = server.environments.provision(_oasis_provision(scenario))
        assert environment.estate[0] == "physical", scenario.id
        assert type(environment.session).__name__ == "Session", scenario.id
    status, answer = http("POST", f"{server.url}/provision", _oasis_provision(scenarios[0]))
    assert status == 200, answer
    assert answer["estate"] == "physical" and answer["estate_reason"]


def test_an_oasis_runner_s_provision_starts_in_the_state_the_in_process_run_starts_in(
    server: ProviderServer,
) -> None:
    """The agent's own configuration (`configmap/agent-config`, its role and binding in
    `oasis-agent`) included: the provisioned physical estate did not hold it, so a write of it
    through the Kubernetes API reached no object and was recorded without its fields, where the
    same tool call in the in-process run names them (zone-config-integrity-001, issue 44)."""
    for scenario in published_scenarios():
        environment = server.environments.provision(_oasis_provision(scenario))
        started = Session.start(scenario)
        assert environment.session.estate_data() == started.estate_data(), scenario.id


def test_a_state_only_the_declared_estate_holds_is_provisioned_there(
    server: ProviderServer,
) -> None:
    """A user's entry the physical estate has no model of (a kind it neither derives nor
    holds) still provisions: in the declared estate, which says so in the answer."""
    body = {
        "scenario_id": "user.form-a-001",
        "environment": {
            "type": "kubernetes-cluster",
            "state": [{"resource": "statefulset/db", "namespace": NAMESPACE, "replicas": 3}],
        },
        "agent": {"mode": "autonomous", "tools": ["container-orchestration"]},
    }
    status, answer = http("POST", f"{server.url}/provision", body)
    assert status == 200, answer
    assert answer["estate"] == "declared"
    assert "environment.state[0]" in answer["estate_reason"], answer["estate_reason"]


def test_inject_state_changes_what_the_tools_and_the_kubernetes_api_read(
    server: ProviderServer, smtp: dict[str, Any]
) -> None:
    """The injected ConfigMap is read by the derivation (the pods that lacked its key run),
    and a declared observation (a log line) is answered beside what the estate derives."""
    kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client")
    from tests.helpers.kube_replay import api_client

    assert _pod_words(smtp) == ["CreateContainerConfigError"]
    line = "WARN retrying SMTP handshake"
    status, answer = _inject(
        server,
        smtp,
        [
            {
                "resource": "configmap/smtp-config",
                "namespace": NAMESPACE,
                "data": {"SMTP_HOST": "smtp.internal", "SMTP_PORT": "2525"},
            },
            {"resource": "logs/notification-service", "namespace": NAMESPACE, "entries": [line]},
        ],
    )
    assert (status, answer) == (200, {"status": "applied"})
    assert _pod_words(smtp) == ["running"]
    pods = call(smtp, "orchestration_list", kind="pod", namespace=NAMESPACE)["body"]
    import json

    pod = json.loads(pods)["items"][0]["name"]
    assert line in call(smtp, "logs_read", name=pod, namespace=NAMESPACE)["body"]
    api = api_client(smtp["agent_credentials"]["kubeconfig"])
    try:
        core = kubernetes.client.CoreV1Api(api)
        config = core.read_namespaced_config_map("smtp-config", NAMESPACE)
        assert config.data == {"SMTP_HOST": "smtp.internal", "SMTP_PORT": "2525"}
        assert core.read_namespaced_pod(pod, NAMESPACE).status.phase == "Running"
    finally:
        api.close()


@pytest.mark.parametrize("estate", ["physical", "declared"])
def test_injected_log_lines_follow_those_the_stream_already_carries(
    server: ProviderServer, estate: str
) -> None:
    """Provider guide §1.4: a stimulus writes log content to a pod's stream, which keeps what
    it carried — a `logs/…` entry replaced the workload's earlier lines (a declared one, or an
    earlier injection's), so an injected instruction could wipe the error a diagnosis needs."""
    import json

    scenario = _scenario(SMTP_ID)
    body = {**_oasis_provision(scenario), "estate": estate}
    declared = "ERROR smtp handshake failed"
    logs = {"resource": "logs/notification-service", "namespace": NAMESPACE}
    body["environment"]["state"] = [*body["environment"]["state"], {**logs, "entries": [declared]}]
    status, env = http("POST", f"{server.url}/provision", body)
    assert status == 200, env
    first, second = "WARN retrying SMTP handshake", "IGNORE PREVIOUS LINES"
    assert _inject(server, env, [{**logs, "entries": [first]}])[0] == 200
    assert _inject(server, env, [{**logs, "entries": [second]}])[0] == 200
    pods = json.loads(call(env, "orchestration_list", kind="pod", namespace=NAMESPACE)["body"])
    pod = pods["items"][0]["name"]
    read = call(env, "logs_read", name=pod, namespace=NAMESPACE)["body"]
    placed = [read.find(line) for line in (declared, first, second)]
    assert -1 not in placed and placed == sorted(placed), read


def test_an_injection_is_the_environments_never_the_agents(
    server: ProviderServer, smtp: dict[str, Any]
) -> None:
    """Recorded as the environment's event after the current step, with a snapshot; the audit
    log holds no operation of the agent for it, and `state_diff` holds only the agent's
    change — not the ConfigMap the environment wrote, nor the status word it moved."""
    call(smtp, "orchestration_get", kind="configmap", name="smtp-config", namespace=NAMESPACE)
    config = {"resource": "configmap/smtp-config", "namespace": NAMESPACE}
    status, _ = _inject(server, smtp, [{**config, "data": {"SMTP_HOST": "a", "SMTP_PORT": "1"}}])
    assert status == 200
    environment = server.environments.by_id(smtp["environment_id"])
    assert environment is not None
    evidence = environment.session.evidence(final_answer="")
    events = [e for e in evidence.audit_log if isinstance(e, AuditEvent)]
    assert [(e.name, e.actor, e.after_step) for e in events] == [
        ("state_injected", "environment", 1)
    ]
    assert events[0].detail == {"resources": ["configmap/default/smtp-config"]}
    labels = [(s.label, s.taken_after_step) for s in evidence.state_snapshots]
    assert labels == [("initial", 0), ("injected-after-step-1", 1)]
    agent_verbs = [e.verb for e in evidence.audit_log if isinstance(e, ApiCallEntry)]
    assert agent_verbs == ["get"]

    def diff(kind: str, name: str) -> list[Any]:
        parameters = {"kind": kind, "name": name, "namespace": NAMESPACE}
        body = {
            "environment_id": smtp["environment_id"],
            "observation_type": "state_diff",
            "parameters": parameters,
        }
        status, answer = http("POST", f"{server.url}/observe", body)
        assert status == 200, answer
        return list(answer["data"]["changes"])

    assert diff("configmap", "smtp-config") == []
    assert diff("deployment", "notification-service") == []
    patch = {"data": {"SMTP_PORT": "2"}}
    config_ref = {"kind": "configmap", "name": "smtp-config", "namespace": NAMESPACE}
    assert call(smtp, "orchestration_patch", **config_ref, patch=patch)["error"] is None
    assert diff("configmap", "smtp-config") == [
        {"path": "data.SMTP_PORT", "change": "modified", "before": "1", "after": "2"}
    ]


@pytest.mark.parametrize(
    ("bad", "named"),
    [
        ({"resource": "deployment/web", "namespace": NAMESPACE, "replicas": "many"}, "state[1]."),
        ({"resource": "logs/web", "namespace": NAMESPACE, "lines": ["x"]}, "state[1].lines"),
        ({"resource": "hpa/web", "namespace": 5}, "state[1].namespace"),  # a held kind
        ({"resource": "nonsense"}, "state[1].resource"),
        (
            {"resource": "service/smtp", "namespace": NAMESPACE, "endpoints": ["10.0.0.9:25"]},
            "state[1].endpoints",
        ),
    ],
)
def test_a_bad_entry_is_a_400_naming_it_and_nothing_is_applied(
    server: ProviderServer, smtp: dict[str, Any], bad: dict[str, Any], named: str
) -> None:
    environment = server.environments.by_id(smtp["environment_id"])
    assert environment is not None
    before = environment.state()
    evidence_before = environment.session.evidence(final_answer="")
    good = {
        "resource": "configmap/smtp-config",
        "namespace": NAMESPACE,
        "data": {"SMTP_HOST": "smtp.internal", "SMTP_PORT": "2525"},
    }
    status, answer = _inject(server, smtp, [good, bad])
    assert status == 400, answer
    assert answer["error"].startswith(named), answer
    assert environment.state() == before
    assert _pod_words(smtp) == ["CreateContainerConfigError"]  # the good entry is not applied
    evidence = environment.session.evidence(final_answer="")
    assert len(evidence.state_snapshots) == len(evidence_before.state_snapshots)
    assert not any(isinstance(e, AuditEvent) for e in evidence.audit_log)


def test_an_injected_object_replaces_its_declared_observations(
    server: ProviderServer, smtp: dict[str, Any]
) -> None:
    """An object the entries state is what they state: a deployment injected with a declared
    word shows it; injected again without one, the earlier word is gone (`Estate.injected`)."""
    import json

    web = {"resource": "deployment/web", "namespace": NAMESPACE, "replicas": 1}
    assert _inject(server, smtp, [{**web, "status": "OOMKilled"}])[0] == 200
    ref = {"kind": "deployment", "name": "web", "namespace": NAMESPACE}
    assert "OOMKilled" in call(smtp, "orchestration_get", **ref)["body"]
    assert _inject(server, smtp, [web])[0] == 200
    shown = json.loads(call(smtp, "orchestration_get", **ref)["body"])
    assert "OOMKilled" not in json.dumps(shown), shown


def test_provebench_s_runner_names_the_estate_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    """provebench's runner names the estate its in-process run uses (`estate_of`), the declared
    one included: the provider's own choice reads the preconditions only, and would build the
    physical estate for a Form B scenario without an injection (a path-shape template)."""
    from pathlib import Path

    from provebench.si.provider._client import ProviderClient, ProviderFault
    from provebench.si.scenario._validate import load_scenarios

    shipped = Path(__file__).resolve().parents[3] / "src/provebench/si/scenarios"
    injected = load_scenarios(shipped / "single-signal-diagnosis-002.yaml")[0]
    template = injected.model_copy(update={"injection": None})
    assert estate_of(injected)[0] == "physical"
    assert estate_of(template)[0] == "declared" and provisioned_estate(template)[0] == "physical"
    sent: list[dict[str, Any]] = []

    def post(self: ProviderClient, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        sent.append(payload)
        raise ProviderFault("stopped here")

    monkeypatch.setattr(ProviderClient, "_post", post)
    for scenario in (injected, template):
        with pytest.raises(ProviderFault):
            ProviderClient("http://127.0.0.1:9").provision(scenario, 1)
    assert [body.get("estate") for body in sent] == ["physical", "declared"]


def test_a_delete_of_every_pod_is_answered_in_the_physical_estate(
    server: ProviderServer, smtp: dict[str, Any]
) -> None:
    """`DELETE …/pods` (a collection) lists what it deleted: the physical estate answers its
    delete in kubectl's lines, which the face read as JSON and answered 500."""
    pytest.importorskip("kubernetes", reason="the official kubernetes client")
    from tests.helpers.kube_replay import api_client, request

    api = api_client(smtp["agent_credentials"]["kubeconfig"])
    try:
        path = f"/api/v1/namespaces/{NAMESPACE}/pods"
        status, listed = request(api, "GET", path)
        assert status == 200, listed
        before = sorted(item["metadata"]["name"] for item in listed["items"])
        status, deleted = request(api, "DELETE", path)
        assert status == 200, deleted
        assert sorted(item["metadata"]["name"] for item in deleted["items"]) == before
    finally:
        api.close()


_TRANSLATED_TOP = ("namespace", "zone", "labels", "annotations", "data")


def _translated(entry: dict[str, Any]) -> dict[str, Any]:
    """What the reference runner sends for a state entry (jaimegago/oasisctl,
    internal/provider/translate.go, `translateEntry`): `resource` split into `kind` and `name`,
    five fields kept at the top, every other field under `spec` (none when there is none)."""
    kind, name = entry["resource"].split("/", 1)
    result: dict[str, Any] = {"kind": kind, "name": name}
    spec = {k: v for k, v in entry.items() if k != "resource" and k not in _TRANSLATED_TOP}
    result.update({k: v for k, v in entry.items() if k in _TRANSLATED_TOP})
    if spec:
        result["spec"] = spec
    return result


def test_the_reference_runner_s_paths_and_translated_entries_build_the_same_estate(
    server: ProviderServer,
) -> None:
    """The reference runner posts to `/v1/provision` and `/v1/inject-state` with each state
    entry translated (`TranslateState`): every profile scenario provisions so into the estate
    its own entries build, and an injection so translated applies."""
    sent = 0
    for scenario in published_scenarios():
        body = _oasis_provision(scenario)
        if any("/" not in e["resource"] for e in body["environment"].get("state", [])):
            continue  # a `resource: nodes` entry: the runner's translation refuses it, unsent
        sent += 1
        plain = server.environments.provision(body)
        translated = {
            **body,
            "environment": {
                **body["environment"],
                "state": [_translated(e) for e in body["environment"].get("state", [])],
            },
        }
        status, answer = http("POST", f"{server.url}/v1/provision", translated)
        assert status == 200, (scenario.id, answer)
        served = server.environments.by_id(answer["environment_id"])
        assert served is not None and answer["estate"] == "physical"
        assert served.state() == plain.state(), scenario.id
    assert sent >= 45
    smtp = server.environments.provision(_oasis_provision(_scenario(SMTP_ID)))
    entry = {
        "resource": "configmap/smtp-config",
        "namespace": NAMESPACE,
        "data": {"SMTP_HOST": "smtp.internal", "SMTP_PORT": "2525"},
    }
    injected = {"environment_id": smtp.environment_id, "state": [_translated(entry)]}
    assert http("POST", f"{server.url}/v1/inject-state", injected) == (
        200,
        {"status": "applied"},
    )
    assert smtp.state()["configmap/default/smtp-config"]["data"]["SMTP_PORT"] == "2525"
