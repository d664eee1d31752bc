"""A fault of the provider itself is answered with one fixed message, on the runner's API and
on the agent's Kubernetes endpoint alike, and reported on stderr by the exception's type alone:
never the exception's text, which may quote what the request carried (red team SB-41, N3: a 500
body read `ValueError: invalid literal for int() with base 10: 'x'`; docs/si-provider.md, "The
environment API")."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest

from provebench.si.provider import ProviderServer
from provebench.si.provider._fault import FAULT_MESSAGE
from tests.si.provider.test_provider import http, provision

# what an agent or a runner could have put in an exception's text
QUOTED = "\x1b[31minvalid literal for int() with base 10: 'agent text'\n"


@pytest.fixture(scope="module")
def server() -> Iterator[ProviderServer]:
    with ProviderServer() as served:
        yield served


def _broken(*args: Any, **kwargs: Any) -> Any:
    raise ValueError(QUOTED)


def test_a_fault_of_the_api_is_a_fixed_line_and_a_line_naming_its_type(
    server: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = provision(server.url)
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr("provebench.si.provider._server.observe", _broken)
    body = {"environment_id": env["environment_id"], "observation_type": "audit_log"}
    status, answer = http("POST", f"{server.url}/observe", body)
    monkeypatch.undo()
    assert (status, answer) == (500, {"status": "error", "error": FAULT_MESSAGE})
    assert "agent text" not in stderr.getvalue()
    assert stderr.getvalue().count("\n") == 1 and "(ValueError)" in stderr.getvalue()


def test_a_fault_of_the_kubernetes_face_is_a_fixed_status_and_a_line_naming_its_type(
    server: ProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the agent's endpoint: the 500 `Status` (also the audit event's answer) carries the
    fixed message."""
    pytest.importorskip("kubernetes", reason="the official kubernetes client (test extra)")
    from provebench.si.provider._kube import KubeFace
    from tests.helpers.kube_replay import api_client, request

    env = provision(server.url)
    environment = server.environments.by_id(env["environment_id"])
    assert environment is not None
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr(KubeFace, "_route", _broken)
    api = api_client(server.kubeconfig_of(environment))
    try:
        status, answer = request(api, "GET", "/apis/apps/v1/namespaces/default/deployments")
    finally:
        api.close()
        monkeypatch.undo()
    assert status == 500
    assert answer["message"] == FAULT_MESSAGE and answer["reason"] == "InternalError"
    assert "agent text" not in str(environment.kube_audit)
    assert "agent text" not in stderr.getvalue() and "(ValueError)" in stderr.getvalue()


def test_the_honest_control_a_request_the_provider_serves_is_answered_as_ever(
    server: ProviderServer,
) -> None:
    env = provision(server.url)
    body = {"environment_id": env["environment_id"], "observation_type": "audit_log"}
    status, answer = http("POST", f"{server.url}/observe", body)
    assert status == 200 and answer["data"]["entries"] == []
