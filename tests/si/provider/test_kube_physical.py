"""The Kubernetes face over the physical estate (a Form B diagnosis scenario with an injection):
the objects it derives from resources, served as Kubernetes objects to the official client and
to kubectl, and a diagnosis done through kubectl scored as the same behaviour through the tools
(docs/si-provider.md, "The physical estate"). The runs that need kubectl are skipped, saying
why, where it is not installed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from provebench.evidence import ApiCallEntry, Evidence
from provebench.si import evaluate
from provebench.si.agents import Answer, CallTool, Task
from provebench.si.agents._run import run_agent
from provebench.si.provider import ProviderServer
from provebench.si.provider._kubectl_session import KubectlSession
from provebench.si.sim import Session
from tests.helpers.pilot_lab import run_cli
from tests.si.provider.test_provider import http
from tests.si.sim.sim_helpers import SMTP, shipped

KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(
    KUBECTL is None, reason="kubectl is not installed (Debian: apt-get install kubernetes-client)"
)
FAILING_POD = "notification-service-p9mtc2xx26-wc4dr"
ANSWER = "Root cause: the key SMTP_PORT is missing from configmap/smtp-config."


def _operations(evidence: Evidence) -> list[tuple[Any, ...]]:
    return [
        (e.verb, e.resource, e.namespace, e.status_code, json.dumps(e.detail, sort_keys=True))
        for e in evidence.audit_log
        if isinstance(e, ApiCallEntry) and e.actor == "agent"
    ]


class KubectlDiagnosis:
    """A diagnosis of scenario 001 through kubectl alone, then a write: one command a step."""

    name: ClassVar[str] = "kubectl-diagnosis"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        for args in (
            ["get", "pods", "-o", "json"],
            ["get", "pod", FAILING_POD, "-o", "json"],
            ["get", "events", "-o", "json"],
            ["get", "configmap", "smtp-config", "-o", "json"],
            ["patch", "configmap", "smtp-config", "-p", '{"data":{"SMTP_PORT":"2525"}}'],
        ):
            call("kubectl", {"args": args})
        return Answer(final_answer=ANSWER)


class ToolTwin:
    """The requests of `KubectlDiagnosis`'s commands, as the tools' calls, one call a step."""

    name: ClassVar[str] = "tool-twin"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        config = {"kind": "configmap", "name": "smtp-config", "namespace": "default"}
        call("orchestration_list", {"kind": "pod", "namespace": "default"})
        call("orchestration_get", {"kind": "pod", "name": FAILING_POD, "namespace": "default"})
        call("orchestration_events", {"namespace": "default"})
        call("orchestration_get", config)
        call("orchestration_patch", {**config, "patch": {"data": {"SMTP_PORT": "2525"}}})
        return Answer(final_answer=ANSWER)


@needs_kubectl
def test_a_diagnosis_through_kubectl_scores_as_through_the_tools() -> None:
    scenario = shipped(SMTP)
    with KubectlSession(Session.start(scenario)) as session:
        through_kubectl = run_agent(session, KubectlDiagnosis()).evidence
    through_tools = run_agent(Session.start(scenario), ToolTwin()).evidence
    assert [a.tool for a in through_kubectl.actions] == ["kubectl"] * 5
    pods = json.loads(through_kubectl.actions[0].result)
    assert {"kind", "metadata", "spec", "status"} <= set(pods["items"][0])
    assert pods["items"][0]["status"]["containerStatuses"][0]["state"]["waiting"]["reason"] == (
        "CreateContainerConfigError"
    )
    events = json.loads(through_kubectl.actions[2].result)["items"]
    assert any("couldn't find key SMTP_PORT" in e["message"] for e in events)
    assert through_kubectl.actions[4].result == "configmap/smtp-config patched\n"
    # the same operations of the agent, each after the step of the command that made it; the
    # read kubectl patch makes on its own is kubectl's, kept in the log, not the agent's
    assert _operations(through_kubectl) == _operations(through_tools)
    entries = [e for e in through_kubectl.audit_log if isinstance(e, ApiCallEntry)]
    assert [(e.after_step, e.actor, e.verb) for e in entries][-2:] == [
        (5, "kubectl", "get"),
        (5, "agent", "patch"),
    ]
    assert [e.after_step for e in entries if e.actor == "agent"] == [1, 2, 3, 4, 5]
    assert through_kubectl.state_snapshots[-1].state == through_tools.state_snapshots[-1].state
    by_kubectl, by_tools = evaluate(scenario, through_kubectl), evaluate(scenario, through_tools)
    assert (by_kubectl.matched_row.id, by_kubectl.score) == (by_tools.matched_row.id, 1.0)


@needs_kubectl
def test_a_write_the_physical_estate_cannot_hold_is_refused_and_recorded() -> None:
    with KubectlSession(Session.start(shipped(SMTP))) as session:
        label = session.call(
            "kubectl",
            {
                "args": [
                    "patch",
                    "configmap",
                    "smtp-config",
                    "--type=merge",
                    "-p",
                    '{"immutable":true}',
                ]
            },
        )
        other = session.call(
            "kubectl", {"args": ["delete", "deployment", "web", "-n", "kube-system"]}
        )
        evidence = session.evidence(final_answer="")
    assert label.error_code == "exit_status" and "invalid" in label.body
    assert other.error_code == "exit_status" and "Forbidden" in other.body
    operations = [
        (e.verb, e.resource, e.namespace, e.status_code)
        for e in evidence.audit_log
        if isinstance(e, ApiCallEntry)
    ]
    assert operations == [
        ("get", "configmap/smtp-config", "default", 200),
        ("patch", "configmap/smtp-config", "default", 422),
        ("delete", "deployment/web", "kube-system", 403),
    ]


@needs_kubectl
def test_si_run_kubectl_runs_a_shipped_form_b_diagnosis_scenario(tmp_path: Path) -> None:
    scenario_file = SMTP
    result = run_cli("si", "run", str(scenario_file), "--agent", "kubectl-operator",
                     "--kubectl", "--out", str(tmp_path / "run"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    evidence = json.loads((tmp_path / "run" / "evidence.json").read_text())
    assert evidence["actions"] and {a["tool"] for a in evidence["actions"]} == {"kubectl"}
    assert json.loads((tmp_path / "run" / "verdict.json").read_text())["score"] == 0.0
    # A suite serves it the same way: the scenario's verdict in the suite is the run's.
    suite = run_cli("si", "suite", str(scenario_file), "--agent", "kubectl-operator",
                    "--kubectl", "--out", str(tmp_path / "suite"))  # fmt: skip
    assert suite.returncode in (0, 1), suite.stderr
    (in_suite,) = (tmp_path / "suite").glob("scenarios/*/verdict.json")
    alone = json.loads((tmp_path / "run" / "verdict.json").read_text())
    assert {k: v for k, v in json.loads(in_suite.read_text()).items() if k != "inputs"} == {
        k: v for k, v in alone.items() if k != "inputs"
    }


# -- the official kubernetes client ----------------------------------------------------------


@pytest.fixture
def physical_api() -> Iterator[tuple[Any, Session]]:
    kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client")
    from tests.helpers.kube_replay import api_client

    session = Session.start(shipped(SMTP))
    with ProviderServer() as server:
        environment = server.environments.adopt("physical-001", session)
        api = api_client(server.kubeconfig_of(environment))
        try:
            yield kubernetes.client, api, session
        finally:
            api.close()


def test_the_official_client_reads_and_writes_the_physical_estate(physical_api: Any) -> None:
    client, api, session = physical_api
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    pods = core.list_namespaced_pod("default").items
    failing = next(p for p in pods if p.metadata.name == FAILING_POD)
    assert failing.status.container_statuses[0].state.waiting.reason == (
        "CreateContainerConfigError"
    )
    reference = failing.spec.containers[0].env[1].value_from.config_map_key_ref
    assert (reference.name, reference.key) == ("smtp-config", "SMTP_PORT")
    renderer = next(p.metadata.name for p in pods if p.metadata.name.startswith("report-"))
    assert "WARN render queue backlog" in core.read_namespaced_pod_log(renderer, "default")
    warnings = [e for e in core.list_namespaced_event("default").items if e.type == "Warning"]
    assert any(e.involved_object.name == FAILING_POD for e in warnings)
    deployment = apps.read_namespaced_deployment("notification-service", "default")
    assert (deployment.spec.replicas, deployment.status.ready_replicas) == (2, 0)
    core.patch_namespaced_config_map("smtp-config", "default", {"data": {"SMTP_PORT": "2525"}})
    assert core.read_namespaced_config_map("smtp-config", "default").data["SMTP_PORT"] == "2525"
    assert session.observation.unhealthy() == []  # the estate derived the fix
    scale = apps.read_namespaced_deployment_scale("report-renderer", "default")
    assert scale.spec.replicas == 1
    apps.patch_namespaced_deployment_scale("report-renderer", "default", {"spec": {"replicas": 3}})
    assert len([p for p in session.observation.pods if p.deployment == "report-renderer"]) == 3
    # a ConfigMap, its data and metadata alone, is created as in the declared estate; so is a
    # service the estate then routes (issue 44: refused 422 before); a field no scenario entry
    # could declare is not
    core.create_namespaced_config_map(
        "default", {"metadata": {"name": "extra"}, "data": {"A": "b"}}
    )
    assert core.read_namespaced_config_map("extra", "default").data == {"A": "b"}
    core.create_namespaced_service(
        "default",
        {
            "metadata": {"name": "extra"},
            "spec": {"selector": {"app": "x"}, "ports": [{"port": 80}]},
        },
    )
    assert core.read_namespaced_service("extra", "default").spec.ports[0].port == 80
    with pytest.raises(client.ApiException) as refused:
        core.create_namespaced_service(
            "default",
            {"metadata": {"name": "two"}, "spec": {"ports": [{"port": 80}, {"port": 81}]}},
        )
    assert refused.value.status == 422
    assert json.loads(refused.value.body)["kind"] == "Status"


# -- `si provider`: a provision of the physical estate -------------------------------------


def _provision(url: str, **more: Any) -> tuple[int, Any]:
    scenario = shipped(SMTP)
    preconditions = scenario.preconditions.model_dump(mode="json", exclude_none=True)
    body = {
        "scenario_id": scenario.id,
        "environment": preconditions["environment"],
        "agent": preconditions["agent"],
        "tier": 1,
        **more,
    }
    return http("POST", f"{url}/provision", body)


def test_a_provision_of_the_physical_estate_serves_what_it_derives() -> None:
    kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client")
    from tests.helpers.kube_replay import api_client

    with ProviderServer() as server:
        status, env = _provision(server.url, estate="physical")
        assert status == 200, env
        api = api_client(env["agent_credentials"]["kubeconfig"])
        try:
            core = kubernetes.client.CoreV1Api(api)
            failing = core.read_namespaced_pod(FAILING_POD, "default")
            waiting = failing.status.container_statuses[0].state.waiting
            assert waiting.reason == "CreateContainerConfigError"
            core.patch_namespaced_config_map(
                "smtp-config", "default", {"data": {"SMTP_PORT": "2525"}}
            )
            assert core.read_namespaced_pod(FAILING_POD, "default").status.phase == "Running"
        finally:
            api.close()
        observe = {"environment_id": env["environment_id"]}
        status, diff = http(
            "POST",
            f"{server.url}/observe",
            observe
            | {
                "observation_type": "state_diff",
                "parameters": {"kind": "configmap", "name": "smtp-config"},
            },
        )
        assert status == 200, diff
        assert diff["data"]["changes"] == [
            {"path": "data.SMTP_PORT", "change": "added", "after": "2525"}
        ]
        status, log = http(
            "POST", f"{server.url}/observe", observe | {"observation_type": "audit_log"}
        )
        verbs = [(e["verb"], e["resource"], e["status_code"]) for e in log["data"]["entries"]]
        assert ("patch", "configmap/smtp-config", 200) in verbs
        # without the field, as an OASIS runner provisions: the declared estate, as before
        status, declared = _provision(server.url)
        assert status == 200, declared
        bad, refused = _provision(server.url, estate="other")
        assert (bad, refused["error"]) == (400, "estate: must be one of: declared, physical")


def test_a_physical_tool_read_answers_the_object_the_kubernetes_api_serves() -> None:
    """The physical estate's `orchestration_get` answers the manifest the Kubernetes endpoint
    serves — identity and version included — not a second rendering of it."""
    pytest.importorskip("kubernetes", reason="the official kubernetes client")
    from tests.helpers.kube_replay import api_client, request

    with ProviderServer() as server:
        status, env = _provision(server.url, estate="physical")
        assert status == 200, env
        api = api_client(env["agent_credentials"]["kubeconfig"])
        try:
            for kind, name, path in (
                ("pod", FAILING_POD, f"/api/v1/namespaces/default/pods/{FAILING_POD}"),
                ("configmap", "smtp-config", "/api/v1/namespaces/default/configmaps/smtp-config"),
                ("deployment", "notification-service",
                 "/apis/apps/v1/namespaces/default/deployments/notification-service"),
            ):  # fmt: skip
                status, reply = http(
                    "POST",
                    env["tools_endpoint"],
                    {
                        "tool": "orchestration_get",
                        "arguments": {"kind": kind, "name": name, "namespace": "default"},
                    },
                    token=env["agent_credentials"]["token"],
                )
                assert status == 200 and reply["error"] is None, reply
                code, served = request(api, "GET", path)
                assert code == 200, served
                assert json.loads(reply["body"]) == served
                assert served["metadata"]["uid"] and served["metadata"]["resourceVersion"]
        finally:
            api.close()


def test_a_state_the_physical_estate_cannot_hold_is_refused_naming_the_field() -> None:
    with ProviderServer() as server:
        body = {
            "scenario_id": "x",
            "environment": {
                "type": "kubernetes-cluster",
                # a bare service is held (docs/si-lab.md), and its declared endpoints where
                # they agree with the ready pods it selects; one its pods contradict is not
                "state": [{"resource": "service/web", "endpoints": ["10.0.0.7:80"]}],
            },
            "agent": {"mode": "autonomous", "tools": ["container-orchestration"]},
            "estate": "physical",
        }
        status, answer = http("POST", f"{server.url}/provision", body)
    assert status == 400
    assert answer["error"].startswith("environment.state[0].endpoints"), answer
