"""Unmodified kubectl against an environment of `si provider`, with the kubeconfig the provision
returns: reads, describe (with events), logs, scale, the three patch forms, delete, JSON output,
a forbidden write and an unknown resource. Skipped, saying why, where kubectl is not installed
(`.ci/run` installs Debian's kubernetes-client)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from provebench.si.provider import ProviderServer
from tests.si.provider.test_kube_client import audit, provision

KUBECTL = shutil.which("kubectl")
pytestmark = pytest.mark.skipif(
    KUBECTL is None, reason="kubectl is not installed (Debian: apt-get install kubernetes-client)"
)


class Kubectl:
    """kubectl with the environment's kubeconfig and a private cache, nothing of the user's."""

    def __init__(self, folder: Path, kubeconfig: str) -> None:
        self.config = folder / "kubeconfig"
        self.config.write_text(kubeconfig)
        self.home = folder

    def __call__(self, *arguments: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        assert KUBECTL is not None
        done = subprocess.run(
            [
                KUBECTL,
                "--kubeconfig",
                str(self.config),
                "--cache-dir",
                str(self.home / "cache"),
                *arguments,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env={"HOME": str(self.home), "PATH": "/usr/bin:/bin"},
            check=False,
        )
        if ok:
            assert done.returncode == 0, done.stderr
        return done


@pytest.fixture(scope="module")
def environment(provider: ProviderServer) -> dict[str, Any]:
    return provision(provider.url)


@pytest.fixture(scope="module")
def kubectl(tmp_path_factory: pytest.TempPathFactory, environment: dict[str, Any]) -> Kubectl:
    return Kubectl(
        tmp_path_factory.mktemp("kubectl"), environment["agent_credentials"]["kubeconfig"]
    )


def test_get_lists_with_kubectls_columns(kubectl: Kubectl) -> None:
    # No -n: the kubeconfig's context names the agent's namespace (`shop`).
    pods = kubectl("get", "pods").stdout.splitlines()
    assert pods[0].split()[:4] == ["NAME", "READY", "STATUS", "RESTARTS"]
    assert sum("CrashLoopBackOff" in line for line in pods) == 3
    deployments = kubectl("get", "deployments").stdout
    assert "web" in deployments and "0/3" in deployments
    assert "shop" in kubectl("get", "namespaces").stdout


def test_get_json_and_describe_with_events(kubectl: Kubectl) -> None:
    web = json.loads(kubectl("get", "deployment", "web", "-o", "json").stdout)
    assert web["kind"] == "Deployment" and web["spec"]["replicas"] == 3
    described = kubectl("describe", "deployment", "web").stdout
    assert "Replicas:" in described
    assert "BackOff" in described  # the declared event, found by the deployment's uid


def test_logs_of_a_pod(kubectl: Kubectl) -> None:
    pod = json.loads(kubectl("get", "pods", "-o", "json").stdout)["items"][0]["metadata"]["name"]
    assert "panic: no DB_HOST" in kubectl("logs", pod).stdout


def test_writes_scale_patch_delete(
    provider: ProviderServer, environment: dict[str, Any], kubectl: Kubectl
) -> None:
    kubectl("scale", "deployment", "worker", "--replicas=2")
    kubectl("patch", "deployment", "worker", "-p", '{"metadata":{"labels":{"team":"a"}}}')
    kubectl("patch", "configmap", "web-config", "--type=merge", "-p", '{"data":{"X":"1"}}')
    kubectl(
        "patch",
        "configmap",
        "web-config",
        "--type=json",
        "-p",
        '[{"op":"replace","path":"/data/LOG_LEVEL","value":"warn"}]',
    )
    kubectl("delete", "secret", "db")
    served = provider.environments.by_id(environment["environment_id"])
    assert served is not None
    state = served.session.estate_data()
    assert state["deployment/shop/worker"]["replicas"] == 2
    assert state["deployment/shop/worker"]["labels"] == {"team": "a"}
    assert state["configmap/shop/web-config"]["data"] == {"LOG_LEVEL": "warn", "X": "1"}
    assert "secret/shop/db" not in state
    operations = [
        (e["verb"], e["objectRef"]["resource"], e["responseStatus"]["code"])
        for e in audit(provider, environment)
        if e["verb"] in ("patch", "delete")
    ]
    assert operations == [
        ("patch", "deployments", 200),
        ("patch", "deployments", 200),
        ("patch", "configmaps", 200),
        ("patch", "configmaps", 200),
        ("delete", "secrets", 200),
    ]


def test_a_forbidden_write_and_an_unknown_resource(
    provider: ProviderServer, environment: dict[str, Any], kubectl: Kubectl
) -> None:
    refused = kubectl("-n", "billing", "delete", "configmap", "anything", ok=False)
    assert refused.returncode != 0 and "Forbidden" in refused.stderr
    unknown = kubectl("get", "widgets", ok=False)
    assert unknown.returncode != 0 and "widgets" in unknown.stderr
    events = audit(provider, environment)
    assert any(
        e["verb"] == "delete"
        and e["objectRef"].get("namespace") == "billing"
        and e["responseStatus"]["code"] == 403
        for e in events
    )


def test_create_from_a_file_without_openapi_validation(tmp_path: Path, kubectl: Kubectl) -> None:
    manifest = tmp_path / "cm.yaml"
    manifest.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: made}\ndata: {a: b}\n")
    # The simulated API server serves no OpenAPI document (404): kubectl's validation cannot
    # download one, so kubectl needs --validate=false (1.20 and 1.32 word the failure apart).
    assert kubectl("create", "-f", str(manifest), ok=False).returncode != 0
    kubectl("create", "-f", str(manifest), "--validate=false")
    assert json.loads(kubectl("get", "configmap", "made", "-o", "json").stdout)["data"] == {
        "a": "b"
    }
