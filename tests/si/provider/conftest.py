"""Fixtures the provider tests share: one `si provider` per test module, and the conformance
answer of a provider whose Kubernetes face serves every requirement but network policies."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from provebench.si.provider import ProviderServer, _conformance


@pytest.fixture(scope="module")
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as provider:
        yield provider


@pytest.fixture
def kubernetes_met(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_conformance, "UNMET", (("network_policy_enforcement", "no traffic"),))
