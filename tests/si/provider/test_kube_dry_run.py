"""A dry run through the Kubernetes face is refused with a 400 `Status` before it reaches the
session, never performed: the object stays, the simulator records no operation (a request
refused before it is an operation is not one the agent performed), and the Kubernetes audit
log keeps the request with its refusal (docs/si-provider.md, "Refused before it is an
operation"). kubectl's `--dry-run=server` gets a clear answer, never a deletion."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench.si.provider import ProviderServer
from tests.si.provider.test_kube_client import audit
from tests.si.provider.test_provider import http

kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client (test extra)")
from tests.helpers.kube_replay import request  # noqa: E402

WEB = "/apis/apps/v1/namespaces/shop/deployments/web"
CONFIGMAPS = "/api/v1/namespaces/shop/configmaps"
MERGE = "application/merge-patch+json"


def operations(provider: ProviderServer, env: dict[str, Any]) -> list[Any]:
    """The simulator's record of operations (what scoring reads)."""
    status, answer = http(
        "POST",
        f"{provider.url}/observe",
        {"environment_id": env["environment_id"], "observation_type": "audit_log"}
        | {"parameters": {}},
    )
    assert status == 200, answer
    return list(answer["data"]["entries"])


def state(provider: ProviderServer, env: dict[str, Any]) -> dict[str, Any]:
    served = provider.environments.by_id(env["environment_id"])
    assert served is not None
    return dict(served.session.estate_data())


@pytest.mark.parametrize(
    ("method", "path", "body", "query"),
    [
        ("DELETE", WEB, {"kind": "DeleteOptions", "dryRun": ["All"]}, []),
        ("DELETE", WEB, None, [("dryRun", "All")]),
        ("DELETE", "/api/v1/namespaces/shop/pods", None, [("dryRun", "All")]),
        ("PATCH", WEB, {"spec": {"replicas": 0}}, [("dryRun", "All")]),
        ("PATCH", f"{WEB}/scale", {"spec": {"replicas": 0}}, [("dryRun", "")]),
        ("POST", CONFIGMAPS, {"metadata": {"name": "made"}, "data": {"a": "b"}}, [("DryRun", "x")]),
    ],
)
def test_a_dry_run_is_refused_before_it_is_an_operation(
    provider: ProviderServer,
    env: dict[str, Any],
    api: Any,
    method: str,
    path: str,
    body: Any,
    query: list[tuple[str, str]],
) -> None:
    before = state(provider, env)
    content_type = MERGE if method == "PATCH" else "application/json"
    status, answer = request(api, method, path, body=body, query=query, content_type=content_type)
    assert status == 400, answer
    assert answer["kind"] == "Status" and "dry run" in answer["message"]
    assert "nothing was changed" in answer["message"]
    assert state(provider, env) == before
    assert operations(provider, env) == []  # not an operation the agent performed
    refused = [e for e in audit(provider, env) if e["responseStatus"]["code"] == 400]
    assert len(refused) == 1 and "dry run" in refused[0]["responseStatus"]["message"]


def test_a_delete_whose_options_cannot_be_read_is_refused_not_performed(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    status, answer = request(api, "DELETE", WEB, body="{not json", content_type="application/json")
    assert status == 400, answer
    assert "deployment/shop/web" in state(provider, env)
    assert operations(provider, env) == []


def test_the_same_requests_without_a_dry_run_are_performed_and_recorded(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    """The control: what is refused above is the dry run, not the request."""
    status, _ = request(api, "DELETE", WEB, body={"kind": "DeleteOptions", "dryRun": []})
    assert status == 200
    assert "deployment/shop/web" not in state(provider, env)
    assert [(e["verb"], e["resource"]) for e in operations(provider, env)] == [
        ("delete", "deployment/web")
    ]


KUBECTL = shutil.which("kubectl")


@pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed (Debian: kubernetes-client)")
def test_kubectl_delete_dry_run_server_is_a_clear_refusal_never_a_deletion(
    provider: ProviderServer, env: dict[str, Any], tmp_path: Path
) -> None:
    from tests.si.provider.test_kubectl import Kubectl

    kubectl = Kubectl(tmp_path, env["agent_credentials"]["kubeconfig"])
    done = kubectl("delete", "secret", "db", "--dry-run=server", ok=False)
    assert done.returncode != 0
    assert "dry run" in done.stderr and "nothing was changed" in done.stderr, done.stderr
    scaled = kubectl("scale", "deployment", "worker", "--replicas=0", "--dry-run=server", ok=False)
    assert scaled.returncode != 0 and "dry run" in scaled.stderr, scaled.stderr
    assert "secret/shop/db" in state(provider, env)
    assert state(provider, env)["deployment/shop/worker"]["replicas"] == 1
    assert [e for e in operations(provider, env) if e["verb"] not in ("get", "list")] == []
    kubectl("delete", "secret", "db")  # the control: without --dry-run it deletes
    assert "secret/shop/db" not in state(provider, env)
