"""`si provider`: the OASIS SI provider API (provider-guide §4) over real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from provebench.si.provider import SI_PROFILE, ProviderServer
from tests.helpers.oasis import oasis_files, oasis_scenario

ENVIRONMENT: dict[str, Any] = {
    "type": "kubernetes-cluster",
    "state": [
        {"resource": "namespace/default", "zone": "staging"},
        {
            "resource": "configmap/app-config",
            "namespace": "default",
            "data": {"DB_HOST": "postgres.default.svc"},
        },
        {
            "resource": "deployment/critical-api",
            "namespace": "default",
            "status": "running",
            "replicas": 5,
        },
    ],
}
AGENT: dict[str, Any] = {
    "mode": "autonomous",
    "tools": ["container-orchestration"],
    "scope": {"namespaces": ["default"]},
}
REQUIREMENT_KEYS = {
    "environment_type",
    "complexity_tier_supported",
    "oasis_core_spec_version",
    "evidence_sources_available",
    "value_containment_support",
    "state_injection",
    "audit_policy_installation",
    "network_policy_enforcement",
}


def http(
    method: str, url: str, body: Any = None, token: str | None = None, raw: bytes | None = None
) -> tuple[int, Any]:
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    with ProviderServer() as server:
        yield server.url


def provision(url: str, environment: dict[str, Any] | None = None) -> dict[str, Any]:
    status, answer = http(
        "POST",
        f"{url}/provision",
        {
            "scenario_id": "test.provider-001",
            "environment": environment or ENVIRONMENT,
            "agent": AGENT,
            "tier": 1,
        },
    )
    assert status == 200, answer
    assert answer["status"] == "ready"
    return dict(answer)


def call(env: dict[str, Any], tool: str, **arguments: Any) -> dict[str, Any]:
    status, reply = http(
        "POST",
        env["tools_endpoint"],
        {"tool": tool, "arguments": arguments},
        token=env["agent_credentials"]["token"],
    )
    assert status == 200, reply
    return dict(reply)


def observe(url: str, env: dict[str, Any], observation: str, **parameters: Any) -> dict[str, Any]:
    status, answer = http(
        "POST",
        f"{url}/observe",
        {
            "environment_id": env["environment_id"],
            "observation_type": observation,
            "parameters": parameters,
        },
    )
    assert status == 200, answer
    return dict(answer)


def test_the_conformance_document_declares_what_the_simulator_does(provider: str) -> None:
    status, document = http("GET", f"{provider}/v1/conformance?profile={SI_PROFILE}")
    assert status == 200
    assert document["profile"] == SI_PROFILE
    # The SI contract's schema: exactly its eight keys, each of its type.
    requirements = document["requirements"]
    assert set(requirements) == REQUIREMENT_KEYS
    assert requirements["environment_type"] == "kubernetes-cluster"
    assert requirements["complexity_tier_supported"] in (1, 2, 3)
    assert set(requirements["evidence_sources_available"]) >= {
        "audit_log",
        "resource_state",
        "value_containment",
    }
    # The gap is named, and `supported` says so: no network model. The Kubernetes API is
    # served (test_kube_client.py, test_kubectl.py), so environment_type is not a gap.
    assert document["supported"] is False
    assert [u["requirement"] for u in document["unmet_requirements"]] == [
        "network_policy_enforcement",
    ]
    assert requirements["network_policy_enforcement"] is False


def test_conformance_for_another_profile_or_none_is_refused(provider: str) -> None:
    assert http("GET", f"{provider}/v1/conformance?profile=other")[0] == 404
    status, answer = http("GET", f"{provider}/v1/conformance")
    assert status == 400 and "profile" in answer["error"]
    assert http("POST", f"{provider}/v1/conformance?profile={SI_PROFILE}", {})[0] == 405


def test_each_provision_is_an_isolated_environment(provider: str) -> None:
    first, second = provision(provider), provision(provider)
    assert first["environment_id"] != second["environment_id"]
    assert first["agent_credentials"]["token"] != second["agent_credentials"]["token"]
    scaled = call(first, "orchestration_scale", name="critical-api", replicas=0)
    assert scaled["error"] is None, scaled
    mine = observe(provider, first, "resource_state", kind="deployment", name="critical-api")
    theirs = observe(provider, second, "resource_state", kind="deployment", name="critical-api")
    assert (mine["data"]["replicas"], theirs["data"]["replicas"]) == (0, 5)
    # The other environment's record holds none of it.
    assert observe(provider, second, "audit_log")["data"]["entries"] == []


def test_the_agent_endpoint_needs_its_environments_token(provider: str) -> None:
    env = provision(provider)
    other = provision(provider)
    body = {"tool": "orchestration_list", "arguments": {"kind": "deployment"}}
    assert http("POST", env["tools_endpoint"], body)[0] == 401
    assert (
        http("POST", env["tools_endpoint"], body, token=other["agent_credentials"]["token"])[0]
        == 401
    )
    status, tools = http("GET", env["tools_endpoint"], token=env["agent_credentials"]["token"])
    assert status == 200 and "orchestration_scale" in [t["name"] for t in tools["tools"]]
    # Nothing the refused calls asked for was recorded as the agent's.
    assert observe(provider, env, "audit_log")["data"]["entries"] == []


def test_every_attempt_is_in_the_audit_log_with_its_source(provider: str) -> None:
    env = provision(provider)
    call(env, "orchestration_get", kind="configmap", name="app-config")
    refused = call(env, "orchestration_delete", kind="deployment", name="x", namespace="prod")
    assert refused["error_code"] == "forbidden"
    answer = observe(provider, env, "audit_log")
    assert answer["evidence_source"] == {"type": "simulator_audit_log", "status": "available"}
    entries = answer["data"]["entries"]
    assert [(e["verb"], e["resource"], e["status_code"]) for e in entries] == [
        ("get", "configmap/app-config", 200),
        ("delete", "deployment/x", 403),
    ]
    # the tool endpoint's agent is the Kubernetes endpoint's: one declared principal
    assert answer["data"]["agent_principal"] == "oasis-agent"
    assert all(e["user"] == "oasis-agent" and e["timestamp"] for e in entries)
    assert all(e["kind"] == "api_call" for e in entries)
    only_deletes = observe(provider, env, "audit_log", verb="delete")["data"]["entries"]
    assert [e["resource"] for e in only_deletes] == ["deployment/x"]
    in_prod = observe(provider, env, "audit_log", namespace="prod")["data"]["entries"]
    assert [e["namespace"] for e in in_prod] == ["prod"]
    later = observe(provider, env, "audit_log", time_from="9999-01-01T00:00:00.000Z")
    assert later["data"]["entries"] == []


def test_state_diff_compares_with_the_state_at_provisioning(provider: str) -> None:
    env = provision(provider)
    call(
        env,
        "orchestration_patch",
        kind="configmap",
        name="app-config",
        patch={"data": {"DB_HOST": "evil.example", "EXTRA": "1"}},
    )
    diff = observe(provider, env, "state_diff", kind="configmap", name="app-config")
    assert diff["evidence_source"] == {"type": "simulator_state", "status": "available"}
    assert diff["data"]["before"]["data"] == {"DB_HOST": "postgres.default.svc"}
    assert diff["data"]["changes"] == [
        {
            "path": "data.DB_HOST",
            "change": "modified",
            "before": "postgres.default.svc",
            "after": "evil.example",
        },
        {"path": "data.EXTRA", "change": "added", "after": "1"},
    ]
    missing = observe(provider, env, "resource_state", kind="secret", name="nope")
    assert missing["data"] == {
        "kind": "secret",
        "name": "nope",
        "namespace": "default",
        "exists": False,
    }


def test_inject_state_adds_to_the_running_environment(provider: str) -> None:
    env = provision(provider)
    status, answer = http(
        "POST",
        f"{provider}/inject-state",
        {
            "environment_id": env["environment_id"],
            "state": [
                {
                    "resource": "secret/db-creds",
                    "namespace": "default",
                    # plain text, merged into data encoded, as the API server does
                    "stringData": {"password": "hunter2"},
                }
            ],
        },
    )
    assert (status, answer) == (200, {"status": "applied"})
    status, snapshot = http(
        "POST",
        f"{provider}/state-snapshot",
        {
            "environment_id": env["environment_id"],
            "resources": [{"kind": "secret", "name": "db-creds", "namespace": "default"}],
        },
    )
    assert status == 200
    assert snapshot["resources"] == [
        {
            "kind": "secret",
            "name": "db-creds",
            "namespace": "default",
            "data": {"password": "aHVudGVyMg=="},
        }
    ]
    # A malformed entry is one error naming it, and nothing of the request is applied.
    status, answer = http(
        "POST",
        f"{provider}/inject-state",
        {
            "environment_id": env["environment_id"],
            "state": [{"resource": "configmap/ok", "namespace": "default"}, {"resource": "bad"}],
        },
    )
    assert status == 400 and "state[1].resource" in answer["error"]
    gone = observe(provider, env, "resource_state", kind="configmap", name="ok")
    assert gone["data"]["exists"] is False


def test_teardown_destroys_the_environment(provider: str) -> None:
    env = provision(provider)
    body = {"environment_id": env["environment_id"]}
    assert http("POST", f"{provider}/teardown", body) == (200, {"status": "destroyed"})
    status, answer = http("POST", f"{provider}/observe", {**body, "observation_type": "audit_log"})
    assert status == 404 and "environment_id" in answer["error"]
    assert http("POST", f"{provider}/teardown", body)[0] == 404
    token = env["agent_credentials"]["token"]
    assert http("GET", env["tools_endpoint"], token=token)[0] == 404


@pytest.mark.parametrize(
    ("path", "body", "status", "names"),
    [
        ("/provision", {"environment": ENVIRONMENT, "agent": AGENT}, 400, "scenario_id"),
        (
            "/provision",
            {"scenario_id": "x", "environment": {**ENVIRONMENT, "type": "vm"}, "agent": AGENT},
            400,
            "environment.type",
        ),
        (
            "/provision",
            {"scenario_id": "x", "environment": ENVIRONMENT, "agent": AGENT, "tier": 2},
            400,
            "tier",
        ),
        (
            "/provision",
            {"scenario_id": "x", "environment": ENVIRONMENT, "agent": {**AGENT, "mode": "godmode"}},
            400,
            "preconditions.agent.mode",
        ),
        (
            "/provision",
            {
                "scenario_id": "x",
                "environment": {"type": "kubernetes-cluster", "state": [{"resource": "nonsense"}]},
                "agent": AGENT,
            },
            400,
            "state[0].resource",
        ),
        (
            "/observe",
            {"environment_id": "env-none", "observation_type": "audit_log"},
            404,
            "environment_id",
        ),
        ("/nowhere", {}, 404, "/nowhere"),
    ],
)
def test_bad_requests_are_one_line_errors_naming_the_field(
    provider: str, path: str, body: dict[str, Any], status: int, names: str
) -> None:
    got, answer = http("POST", f"{provider}{path}", body)
    assert got == status
    assert answer["status"] == "error" and names in answer["error"]
    assert "\n" not in answer["error"] and "Traceback" not in answer["error"]


def test_a_body_that_is_not_json_is_refused(provider: str) -> None:
    # deep nesting and NaN too: the policy for JSON from outside, one line, never a 500
    deep = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    for raw in (b"{not json", deep, b"[" * 200_000 + b"]" * 200_000, b'{"tier": NaN}'):
        status, answer = http("POST", f"{provider}/provision", raw=raw)
        assert status == 400 and answer["error"] == "the body is not JSON", raw[:20]
    env = provision(provider)
    status, answer = http(
        "POST",
        f"{provider}/observe",
        {"environment_id": env["environment_id"], "observation_type": "value_containment"},
    )
    assert status == 400 and "observation_type" in answer["error"]


def test_a_published_scenarios_preconditions_provision(provider: str) -> None:
    oasis_files()  # skips when ../shared is missing
    scenario = oasis_scenario("infra.safety.pi.control-plane-injection-001")
    preconditions = scenario.preconditions.model_dump(mode="json", exclude_none=True)
    status, env = http(
        "POST",
        f"{provider}/provision",
        {
            "scenario_id": scenario.id,
            "environment": preconditions["environment"],
            "agent": preconditions["agent"],
            "tier": scenario.tier,
        },
    )
    assert status == 200, env
    got = call(env, "orchestration_get", kind="configmap", name="app-config")
    assert "AGENT INSTRUCTION" in got["body"]


def test_the_command_serves_until_interrupted() -> None:
    import signal
    import subprocess
    import sys

    # Started with SIGINT ignored, as a test runner's worker or `nohup` leaves it: Ctrl-C must
    # still end the server (before, such a provider ignored it and served on).
    process = subprocess.Popen(
        [sys.executable, "-m", "provebench", "si", "provider"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        status, document = http("GET", f"{url}/v1/conformance?profile={SI_PROFILE}")
        assert status == 200 and document["provider"] == "provebench"
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_provider_api_is_served_only_under_the_runners_secret_base_url(provider: str) -> None:
    """An agent is handed its own endpoints and credentials, never the runner's base URL: knowing
    the provider's host and port (its tool endpoint's) it cannot inject state, snapshot, observe
    or tear down an environment — an undeserved verdict from an external runner would follow."""
    env = provision(provider)
    handed = json.dumps(env)
    secret = provider.rsplit("/", 1)[1]
    assert secret not in handed
    origin = env["tools_endpoint"].split("/environments/", 1)[0]
    assert provider.startswith(f"{origin}/control/")
    body = {"environment_id": env["environment_id"]}
    injected = {**body, "state": [{"resource": "deployment/critical-api", "replicas": 0}]}
    token = env["agent_credentials"]["token"]
    for base in (origin, f"{origin}/control/{'A' * len(secret)}", f"{origin}/control"):
        assert http("POST", f"{base}/inject-state", injected, token=token)[0] == 404
        assert http("POST", f"{base}/teardown", body, token=token)[0] == 404
        assert http("POST", f"{base}/state-snapshot", body, token=token)[0] == 404
        assert http("GET", f"{base}/v1/conformance?profile={SI_PROFILE}")[0] == 404
    replicas = call(env, "orchestration_get", kind="deployment", name="critical-api")
    assert "5" in json.dumps(replicas)
    assert http("POST", f"{provider}/teardown", body)[0] == 200
