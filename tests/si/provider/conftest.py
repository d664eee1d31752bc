"""Fixtures the provider tests share: one `si provider` per test module (`server`, also named
`provider`), the conformance answer of a provider whose Kubernetes face serves every
requirement but network policies, and — for the Kubernetes face's tests — a provisioned
environment (`env`, which a module may override with its own state) and an official client
for its endpoint (`api`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from provebench.si.provider import ProviderServer, _conformance


@pytest.fixture(scope="module")
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as provider:
        yield provider


@pytest.fixture
def kubernetes_met(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_conformance, "UNMET", (("network_policy_enforcement", "no traffic"),))


@pytest.fixture(scope="module")
def provider(server: ProviderServer) -> ProviderServer:
    return server


@pytest.fixture
def env(provider: ProviderServer) -> dict[str, Any]:
    from tests.si.provider.test_kube_client import provision

    return provision(provider.url)


@pytest.fixture
def api(env: dict[str, Any]) -> Iterator[Any]:
    pytest.importorskip("kubernetes", reason="the official kubernetes client (test extra)")
    from tests.helpers.kube_replay import api_client

    made = api_client(env["agent_credentials"]["kubeconfig"])
    yield made
    made.close()
