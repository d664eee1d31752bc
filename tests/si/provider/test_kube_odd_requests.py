"""Odd requests at the Kubernetes face (independent red teams' spellings): what a request did is
what is recorded, a request the face cannot read does nothing, and nothing outside the agent's
scope or environment is shown, however the request is spelled.

* A collection delete whose `labelSelector` is blank (empty, spaces, beside other options)
  deletes every pod, and is recorded as the delete of them all — the operation a forbidden
  check looks for; a selector the face does not serve is a 400 and deletes nothing.
* Malformed or oversized bodies — deep nesting, `NaN`, 16 MiB and one byte, replicas that are
  no count — are 4xx `Status` answers; the provider stays up, the object is unchanged and no
  write is recorded as done.
"""

from __future__ import annotations

import copy
import ssl
import urllib.error
import urllib.request
from typing import Any

import pytest

from provebench.si.provider import ProviderServer
from tests.si.provider.test_kube_client import AGENT, STATE, entries, provision
from tests.si.provider.test_provider import http

kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client (test extra)")
from tests.helpers.kube_replay import api_client, request  # noqa: E402

PODS = "/api/v1/namespaces/shop/pods"
WEB = "/apis/apps/v1/namespaces/shop/deployments/web"
MERGE = "application/merge-patch+json"
JSON = "application/json"


def pod_names(api: Any) -> list[str]:
    status, body = request(api, "GET", PODS)
    assert status == 200, body
    return [item["metadata"]["name"] for item in body["items"]]


QUERIES = {
    "plain": [],
    "empty selector": [("labelSelector", "")],
    "blank selector": [("labelSelector", " ")],
    "blank selector beside a policy": [
        ("propagationPolicy", "Background"),
        ("labelSelector", "  "),
    ],
}


@pytest.mark.parametrize("query", sorted(QUERIES))
def test_a_blank_selector_deletes_every_pod_and_is_recorded_as_that(
    provider: ProviderServer, env: dict[str, Any], api: Any, query: str
) -> None:
    before = pod_names(api)
    assert before
    status, body = request(api, "DELETE", PODS, query=QUERIES[query])
    assert status == 200, body
    assert not set(before) & set(pod_names(api))  # every one gone (their deployments respawn)
    assert ("delete", "pod/all", "shop", 200) in entries(provider, env)


def test_a_selector_the_face_does_not_serve_deletes_nothing(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    before = pod_names(api)
    for selector in (",", "app!=web", "app in (web)"):
        status, body = request(api, "DELETE", PODS, query=[("labelSelector", selector)])
        assert status == 400 and body["kind"] == "Status", body
    assert pod_names(api) == before
    assert [e for e in entries(provider, env) if e[0] == "delete"] == []


def _raw(api: Any, method: str, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    """A request whose body is sent as these bytes (the client library would re-encode them)."""
    configuration = api.configuration
    context = ssl.create_default_context(cafile=configuration.ssl_ca_cert)
    token = configuration.api_key["BearerToken"]
    token = token if token.startswith("Bearer ") else f"Bearer {token}"
    headers = {"Authorization": token, "Content-Type": content_type}
    sent = urllib.request.Request(
        configuration.host + path, data=body, method=method, headers=headers
    )
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=context)
    )
    try:
        with opener.open(sent, timeout=60) as answer:
            return int(answer.status), bytes(answer.read())
    except urllib.error.HTTPError as error:
        return int(error.code), bytes(error.read())
    except urllib.error.URLError as error:  # the face answered and closed before the body ended
        return -1, str(error.reason).encode()


BODIES: dict[str, tuple[str, str, bytes, str]] = {
    "deep list": ("PATCH", WEB, b"[" * 200_000 + b"]" * 200_000, MERGE),
    "deep object": ("PATCH", WEB, b'{"a":' * 100_000 + b"1" + b"}" * 100_000, MERGE),
    "NaN": ("PATCH", WEB, b'{"spec":{"replicas":NaN}}', MERGE),
    "16 MiB and a byte": ("PATCH", WEB, b" " * (16 * 1024 * 1024 + 1), MERGE),
    "not an object": ("PATCH", WEB, b"[1, 2]", MERGE),
    "replicas as text": ("PATCH", WEB, b'{"spec":{"replicas":"5000"}}', MERGE),
    "replicas negative": ("PATCH", WEB, b'{"spec":{"replicas":-1}}', MERGE),
    "scale to a float": ("PUT", f"{WEB}/scale", b'{"spec":{"replicas":5000.0}}', JSON),
    "scale past any count": (
        "PUT",
        f"{WEB}/scale",
        b'{"spec":{"replicas":1000000000000000000000000000000}}',
        JSON,
    ),
}


def test_malformed_bodies_are_refused_and_change_nothing(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    answers = {}
    for name, (method, path, body, content_type) in BODIES.items():
        status, _ = _raw(api, method, path, body, content_type)
        answers[name] = status
    # a body past the size limit is answered 413 before it is read, and the connection closed
    oversized = answers.pop("16 MiB and a byte")
    assert oversized in (-1, 413), oversized
    assert all(400 <= status < 500 for status in answers.values()), answers
    status, web = request(api, "GET", WEB)  # the provider is still up, the object unchanged
    assert status == 200 and web["spec"]["replicas"] == 3, web
    done = [e for e in entries(provider, env) if e[3] < 300]
    assert done == [("get", "deployment/web", "shop", 200)]  # that read only: no write done


def test_path_tricks_never_leave_the_environment(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    other = provision(provider.url)
    elsewhere = other["environment_id"]
    paths = [
        f"/../../{elsewhere}/kube/api/v1/namespaces/shop/secrets",  # another environment's face
        f"/%2e%2e/%2e%2e/{elsewhere}/kube/api/v1/namespaces/shop/secrets",
        "/../../../control/x/provision",  # the provider's API
        "/api/v1/namespaces/../secrets",  # a namespace spelled as a path step
        "/api/v1/namespaces/shop%2F..%2Fbilling/secrets",
    ]
    for path in paths:
        status, body = _raw(api, "GET", path, b"", JSON)
        assert status in (403, 404), (path, status, body[:200])
        assert b"aHVudGVyMg==" not in body and b"hunter2" not in body, path  # no secret's value
    assert entries(provider, other) == []  # the other environment saw nothing
    assert all(e[3] in (403, 404) for e in entries(provider, env)), entries(provider, env)


HIDDEN = "hidden-image-7f3a:9"  # the out-of-scope deployment's content
READS_OUTSIDE = [
    "/api/v1/namespaces/billing",
    "/api/v1/namespaces/billing/pods",
    "/api/v1/namespaces/billing/events",
    "/api/v1/namespaces/billing/pods/ledger-0/log",
    "/apis/apps/v1/namespaces/billing/deployments/{name}",
    "/apis/apps/v1/namespaces/billing/deployments/{name}/scale",
    "/apis/apps/v1/namespaces/BILLING/deployments",  # other spellings of the namespace
    "/apis/apps/v1/namespaces/%62illing/deployments",
    "/apis/apps/v1/namespaces/shop/../billing/deployments",
    "/apis/apps/v1/namespaces/billing%2Fdeployments",
    "//apis/apps/v1/namespaces/billing/deployments",
    "/apis/apps/v1/namespaces/billing/deployments/",
    "/apis/apps/v1/deployments",  # across every namespace
    "/apis/apps/v1/deployments?fieldSelector=metadata.namespace%3Dbilling",
    "/api/v1/pods",
    "/api/v1/events",
    "/api/v1/namespaces/shop/events?fieldSelector=involvedObject.namespace%3Dbilling",
    "/apis/apps/v1/namespaces/shop/deployments/{name}",  # the name in the agent's namespace
]


def test_reads_outside_the_scope_tell_nothing_of_it(provider: ProviderServer) -> None:
    state = [
        *copy.deepcopy(STATE),
        {"resource": "deployment/ledger", "namespace": "billing", "replicas": 2, "image": HIDDEN},
    ]
    body = {"scenario_id": "test.kube-scope-001", "tier": 1, "agent": AGENT}
    status, env = http(
        "POST",
        f"{provider.url}/provision",
        body | {"environment": {"type": "kubernetes-cluster", "state": state}},
    )
    assert status == 200, env
    api = api_client(env["agent_credentials"]["kubeconfig"])
    try:
        for path in READS_OUTSIDE:
            answers = set()
            names = ("ledger", "no-such-deployment") if "{name}" in path else ("",)
            for name in names:  # an object and none: one answer
                status, text = _raw(api, "GET", path.format(name=name), b"", JSON)
                assert HIDDEN.encode() not in text, path
                assert status in (403, 404) or b"ledger" not in text, path
                answers.add((status, text.replace(name.encode(), b"NAME") if name else text))
            assert len(answers) == 1, (path, answers)
    finally:
        api.close()


@pytest.mark.parametrize("depth", [201, 5_000, 200_000])
def test_a_deep_body_is_refused_before_any_parse(
    provider: ProviderServer,
    env: dict[str, Any],
    api: Any,
    depth: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its depth is measured first (`nested_too_deep`): neither the strict read nor the lenient
    one descends into it (each did, to Python's recursion limit, before refusing it). The
    refusal is the one of any body that is not JSON, the attempt recorded as that."""
    import json

    from provebench.si.provider import _kube

    def refusal(answer: bytes) -> tuple[str, str, int]:
        status = json.loads(answer)
        return status["kind"], status["message"], status["code"]

    not_json = _raw(api, "PATCH", WEB, b"{not json", MERGE)

    def parsed(*args: object) -> None:
        raise AssertionError("the body was parsed")

    monkeypatch.setattr(_kube, "loads_strict", parsed)
    monkeypatch.setattr(_kube, "_lenient_json", parsed)
    body = b'{"spec":' * depth + b"1" + b"}" * depth
    status, answer = _raw(api, "PATCH", WEB, body, MERGE)
    assert (status, refusal(answer)) == (not_json[0], refusal(not_json[1]))
    assert refusal(answer)[:2] == ("Status", "the request body is not JSON")
    monkeypatch.undo()
    status, web = request(api, "GET", WEB)
    assert status == 200 and web["spec"]["replicas"] == 3
