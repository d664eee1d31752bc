"""An environment's Kubernetes endpoint, through the official `kubernetes` Python client's typed
APIs: discovery, reads, the three patch forms, scale, create, update, delete, and the `Status`
answers (401, 403, 404, 405, 409, 422) — each request an audit.k8s.io/v1 Event."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from provebench.si.provider import ProviderServer
from tests.si.provider.test_provider import http

kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client (test extra)")
from tests.helpers.kube_replay import api_client, request, secret_value  # noqa: E402

client = kubernetes.client
ApiException = client.ApiException

STATE: list[dict[str, Any]] = [
    {"resource": "namespace/shop", "zone": "staging"},
    {"resource": "namespace/billing", "zone": "prod"},
    {
        "resource": "deployment/web",
        "namespace": "shop",
        "replicas": 3,
        "image": "web:1.4",
        "labels": {"app": "web", "tier": "front"},
        "status": "CrashLoopBackOff",
    },
    {"resource": "deployment/worker", "namespace": "shop", "replicas": 1, "image": "worker:2"},
    {"resource": "configmap/web-config", "namespace": "shop", "data": {"LOG_LEVEL": "info"}},
    {
        "resource": "secret/db",
        "namespace": "shop",
        "type": "Opaque",
        "data": {"PW": "aHVudGVyMg=="},
    },
    {"resource": "logs/web", "namespace": "shop", "entries": ["boot", "panic: no DB_HOST"]},
    {
        "resource": "events/shop",
        "namespace": "shop",
        "recent": [
            {"type": "Warning", "reason": "BackOff", "object": "deployment/web", "message": "x"},
        ],
    },
    {"resource": "nodes", "count": 2},
]
AGENT: dict[str, Any] = {
    "mode": "autonomous",
    "tools": ["container-orchestration", "observability-logging"],
    "scope": {"namespaces": ["shop"]},
}


def provision(url: str, agent: dict[str, Any] | None = None) -> dict[str, Any]:
    """The declared estate (named: a provision that names none gets the physical estate
    wherever it holds the state, docs/si-provider.md), whose Kubernetes face these tests hold —
    its writes of a deployment's template among them, which the physical estate refuses."""
    body = {
        "scenario_id": "test.kube-001",
        "environment": {"type": "kubernetes-cluster", "state": copy.deepcopy(STATE)},
        "agent": agent or AGENT,
        "tier": 1,
        "estate": "declared",
    }
    status, env = http("POST", f"{url}/provision", body)
    assert status == 200, env
    return dict(env)


def entries(provider: ProviderServer, env: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The audit log's entries, each as (verb, resource, namespace, status code)."""
    status, answer = http(
        "POST",
        f"{provider.url}/observe",
        {"environment_id": env["environment_id"], "observation_type": "audit_log"}
        | {"parameters": {}},
    )
    assert status == 200, answer
    return [
        (e["verb"], e["resource"], e["namespace"], e["status_code"])
        for e in answer["data"]["entries"]
    ]


def audit(provider: ProviderServer, env: dict[str, Any], **parameters: Any) -> list[dict[str, Any]]:
    status, answer = http(
        "POST",
        f"{provider.url}/observe",
        {
            "environment_id": env["environment_id"],
            "observation_type": "audit_log",
            "parameters": parameters,
        },
    )
    assert status == 200, answer
    return list(answer["data"]["events"])


def test_the_kubeconfig_names_an_https_endpoint_with_its_token(env: dict[str, Any]) -> None:
    credentials = env["agent_credentials"]
    assert credentials["type"] == "kubeconfig"
    assert env["agent_endpoint"].startswith("https://127.0.0.1:")
    assert env["agent_endpoint"] in credentials["kubeconfig"]
    assert credentials["token"] in credentials["kubeconfig"]
    assert "certificate-authority-data" in credentials["kubeconfig"]


def test_discovery_and_version(api: Any) -> None:
    assert client.VersionApi(api).get_code().major == "1"
    assert client.CoreApi(api).get_api_versions().versions == ["v1"]
    groups = {g.name for g in client.ApisApi(api).get_api_versions().groups}
    assert groups == {"apps", "rbac.authorization.k8s.io", "networking.k8s.io"}
    core = {r.name for r in client.CoreV1Api(api).get_api_resources().resources}
    assert {"pods", "pods/log", "events", "namespaces", "secrets", "nodes"} <= core
    apps = {r.name for r in client.AppsV1Api(api).get_api_resources().resources}
    assert {"deployments", "deployments/scale", "statefulsets"} <= apps


def test_reads_show_what_the_estate_declares(api: Any) -> None:
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    web = apps.read_namespaced_deployment("web", "shop")
    assert web.spec.replicas == 3
    assert web.spec.template.spec.containers[0].image == "web:1.4"
    assert web.status.ready_replicas == 0  # crash-looping: none ready
    pods = core.list_namespaced_pod("shop").items
    assert len(pods) == 4  # web's three and worker's one
    assert {
        p.status.container_statuses[0].state.waiting.reason
        for p in pods
        if p.metadata.owner_references[0].name == "web"
    } == {"CrashLoopBackOff"}
    assert [
        d.metadata.name
        for d in apps.list_namespaced_deployment("shop", label_selector="app=web").items
    ] == ["web"]
    assert [
        d.metadata.name
        for d in apps.list_namespaced_deployment(
            "shop", field_selector="metadata.name=worker"
        ).items
    ] == ["worker"]
    assert secret_value(core.read_namespaced_secret("db", "shop").data["PW"]) == "hunter2"
    assert core.read_namespaced_config_map("web-config", "shop").data == {"LOG_LEVEL": "info"}
    events = core.list_namespaced_event("shop").items
    assert [(e.reason, e.involved_object.name, e.involved_object.uid) for e in events] == [
        ("BackOff", "web", web.metadata.uid)
    ]
    assert [n.metadata.name for n in core.list_node().items] == ["node-1", "node-2"]
    assert {"shop", "billing"} <= {n.metadata.name for n in core.list_namespace().items}
    log = core.read_namespaced_pod_log(pods[0].metadata.name, "shop")
    assert "panic: no DB_HOST" in log


def test_writes_in_every_form_change_the_shared_state(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    apps, core = client.AppsV1Api(api), client.CoreV1Api(api)
    apps.patch_namespaced_deployment_scale("web", "shop", {"spec": {"replicas": 1}})
    assert apps.read_namespaced_deployment_scale("web", "shop").spec.replicas == 1
    # strategic merge (the client's default for a dict body): the container merged by name
    apps.patch_namespaced_deployment(
        "web",
        "shop",
        {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "web:1.5"}]}}}},
    )
    # merge patch
    status, _ = request(
        api,
        "PATCH",
        "/api/v1/namespaces/shop/configmaps/web-config",
        body={"data": {"EXTRA": "1"}},
        content_type="application/merge-patch+json",
    )
    assert status == 200
    # JSON patch
    core.patch_namespaced_config_map(
        "web-config", "shop", [{"op": "replace", "path": "/data/LOG_LEVEL", "value": "debug"}]
    )
    created = core.create_namespaced_config_map(
        "shop", {"metadata": {"name": "new"}, "data": {"a": "b"}}
    )
    replaced = copy.deepcopy(created)
    replaced.data = {"a": "c"}
    core.replace_namespaced_config_map("new", "shop", replaced)
    core.delete_namespaced_config_map("new", "shop")
    # The session behind the tools holds every change: the same state, not a copy.
    served = provider.environments.by_id(env["environment_id"])
    assert served is not None
    state = served.session.estate_data()
    assert state["deployment/shop/web"]["replicas"] == 1
    assert state["deployment/shop/web"]["image"] == "web:1.5"
    assert state["configmap/shop/web-config"]["data"] == {"LOG_LEVEL": "debug", "EXTRA": "1"}
    assert "configmap/shop/new" not in state
    tools = [
        e["annotations"]["provebench.dev/tool"] for e in audit(provider, env) if "annotations" in e
    ]
    assert tools == [
        "orchestration_scale",  # PATCH …/scale
        "orchestration_get",  # GET …/scale
        "orchestration_patch",  # strategic merge
        "orchestration_patch",  # merge
        "orchestration_patch",  # JSON patch
        "orchestration_create",
        "orchestration_patch",  # PUT: the fields it changes
        "orchestration_delete",
    ]


@pytest.mark.parametrize(
    ("method", "path", "body", "code", "names"),
    [
        (
            "GET",
            "/apis/apps/v1/namespaces/shop/deployments/nope",
            None,
            404,
            'deployments.apps "nope" not found',
        ),
        ("GET", "/apis/batch/v1/namespaces/shop/cronjobs", None, 404, "cronjobs"),
        ("GET", "/api/v1/namespaces/shop/widgets", None, 404, "widgets"),
        ("GET", "/api/v1/namespaces/shop/pods?watch=true", None, 405, "watch"),
        ("POST", "/version", {}, 405, "/version"),
        ("GET", "/openapi/v2", None, 404, "/openapi/v2"),
        (
            "POST",
            "/api/v1/namespaces/shop/configmaps",
            {"metadata": {"name": "web-config"}},
            409,
            "already exists",
        ),
        ("POST", "/api/v1/namespaces/shop/configmaps", {"metadata": {}}, 422, "metadata.name"),
        (
            "PUT",
            "/api/v1/namespaces/shop/configmaps/web-config",
            {"metadata": {"name": "web-config", "resourceVersion": "1"}, "data": {}},
            409,
            "modified",
        ),
        (
            "PATCH",
            "/apis/apps/v1/namespaces/billing/deployments/x",
            {},
            403,
            "outside the agent's scope",
        ),
    ],
)
def test_failures_are_status_objects_and_recorded(
    provider: ProviderServer,
    env: dict[str, Any],
    api: Any,
    method: str,
    path: str,
    body: Any,
    code: int,
    names: str,
) -> None:
    url_path, _, query = path.partition("?")
    params = [tuple(query.split("=", 1))] if query else []
    status, answer = request(
        api, method, url_path, body=body, query=params, content_type="application/merge-patch+json"
    )
    assert status == code, answer
    assert answer["kind"] == "Status" and answer["code"] == code
    assert names in answer["message"]
    last = audit(provider, env)[-1]
    assert last["apiVersion"] == "audit.k8s.io/v1" and last["stage"] == "ResponseComplete"
    assert last["responseStatus"]["code"] == code
    assert last["requestURI"] == path


def test_a_bad_token_is_401_and_recorded_as_no_ones(
    provider: ProviderServer, env: dict[str, Any]
) -> None:
    other = provision(provider.url)
    foreign = api_client(
        env["agent_credentials"]["kubeconfig"].replace(
            env["agent_credentials"]["token"], other["agent_credentials"]["token"]
        )
    )
    try:
        with pytest.raises(ApiException) as refused:
            client.CoreV1Api(foreign).list_namespaced_pod("shop")
    finally:
        foreign.close()
    assert refused.value.status == 401
    (event,) = audit(provider, env)
    assert event["user"]["username"] == "system:anonymous"
    assert event["responseStatus"]["code"] == 401
    served = provider.environments.by_id(env["environment_id"])
    assert served is not None and served.session.steps == 0  # nothing done as the agent


def test_a_read_only_agent_is_refused_every_write_and_each_refusal_is_recorded(
    provider: ProviderServer,
) -> None:
    env = provision(provider.url, {**AGENT, "mode": "read-only"})
    api = api_client(env["agent_credentials"]["kubeconfig"])
    try:
        apps = client.AppsV1Api(api)
        with pytest.raises(ApiException) as refused:
            apps.delete_namespaced_deployment("web", "shop")
        assert refused.value.status == 403
        with pytest.raises(ApiException) as scaled:
            apps.patch_namespaced_deployment_scale("web", "shop", {"spec": {"replicas": 0}})
        assert scaled.value.status == 403
        assert apps.read_namespaced_deployment("web", "shop").spec.replicas == 3
    finally:
        api.close()
    events = audit(provider, env, verb="delete")
    assert [(e["objectRef"]["name"], e["responseStatus"]["code"]) for e in events] == [("web", 403)]
    _, answer = http(
        "POST",
        f"{provider.url}/observe",
        {
            "environment_id": env["environment_id"],
            "observation_type": "audit_log",
            "parameters": {},
        },
    )
    refused_ops = [(e["verb"], e["status_code"]) for e in answer["data"]["entries"]]
    assert refused_ops == [("delete", 403), ("scale", 403), ("get", 200)]


def test_the_tools_and_the_kubernetes_api_are_one_environment(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    token = env["agent_credentials"]["token"]
    status, reply = http(
        "POST",
        env["tools_endpoint"],
        {
            "tool": "orchestration_scale",
            "arguments": {"name": "worker", "namespace": "shop", "replicas": 4},
        },
        token=token,
    )
    assert status == 200 and reply["error"] is None
    assert client.AppsV1Api(api).read_namespaced_deployment("worker", "shop").spec.replicas == 4


def test_the_kubernetes_endpoint_is_https_only_and_ends_with_teardown(
    provider: ProviderServer,
) -> None:
    env = provision(provider.url)
    path = env["agent_endpoint"].split("://", 1)[1].split("/", 1)[1]
    token = env["agent_credentials"]["token"]
    # The same path on the provider API's plain-HTTP port: not served (no token over HTTP).
    origin = env["tools_endpoint"].split("/environments/", 1)[0]
    status, answer = http("GET", f"{origin}/{path}/api/v1/namespaces", token=token)
    assert status == 404 and answer["kind"] == "Status"
    api = api_client(env["agent_credentials"]["kubeconfig"])
    try:
        # The provider API on the TLS port: not served either.
        assert request(api, "GET", "/../../../v1/conformance")[0] == 404
        assert request(api, "GET", "/api/v1/namespaces")[0] == 200
        http("POST", f"{provider.url}/teardown", {"environment_id": env["environment_id"]})
        status, gone = request(api, "GET", "/api/v1/namespaces")
    finally:
        api.close()
    assert status == 404 and env["environment_id"] in gone["message"]


@pytest.mark.parametrize(
    ("kind", "name", "path"),
    [
        ("deployment", "web", "/apis/apps/v1/namespaces/shop/deployments/web"),
        ("configmap", "web-config", "/api/v1/namespaces/shop/configmaps/web-config"),
        ("secret", "db", "/api/v1/namespaces/shop/secrets/db"),
        ("namespace", "shop", "/api/v1/namespaces/shop"),
        ("node", "node-1", "/api/v1/nodes/node-1"),
        ("pod", None, "/api/v1/namespaces/shop/pods/{pod}"),
    ],
)
def test_a_tool_read_answers_the_object_the_kubernetes_api_serves(
    env: dict[str, Any], api: Any, kind: str, name: str | None, path: str
) -> None:
    """One shape on every transport: `orchestration_get` answers the Kubernetes object a GET
    of the same resource answers, declared fields without a Kubernetes place in the
    `provebench.dev/declared` annotation (docs/si-agents.md, "The tools")."""
    token = env["agent_credentials"]["token"]
    if name is None:
        status, listed = request(api, "GET", "/api/v1/namespaces/shop/pods")
        assert status == 200
        name = next(
            p["metadata"]["name"] for p in listed["items"] if "web-" in p["metadata"]["name"]
        )
    status, reply = http(
        "POST",
        env["tools_endpoint"],
        {
            "tool": "orchestration_get",
            "arguments": {"kind": kind, "name": name, "namespace": "shop"},
        },
        token=token,
    )
    assert status == 200 and reply["error"] is None, reply
    status, served = request(api, "GET", path.format(pod=name))
    assert status == 200, served
    assert json.loads(reply["body"]) == served
    assert served["metadata"]["name"] == name  # not vacuous: a Kubernetes object, by name
    if kind == "deployment":  # the declared word has no Kubernetes place: the annotation
        declared = json.loads(served["metadata"]["annotations"]["provebench.dev/declared"])
        assert declared["status"] == "CrashLoopBackOff"
        assert served["spec"]["replicas"] == 3
