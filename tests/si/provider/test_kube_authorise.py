"""The Kubernetes face authorises a write before it reads the object or applies a patch to it:
a refused PATCH, PUT, scale or DELETE of an object outside the agent's scope tells nothing of
it — not its content through a failed JSON-patch `test`, not its existence through a stale
`resourceVersion`'s 409 — and is recorded as the tool call it is (a 403 operation). A patch
that cannot apply is answered with a fixed message naming the operation, never the patch
library's text, which quotes the object."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from provebench.si.provider import ProviderServer
from provebench.si.provider._kube_patch import PatchError, apply_patch
from tests.si.provider.test_kube_client import AGENT, STATE, entries
from tests.si.provider.test_provider import http

kubernetes = pytest.importorskip("kubernetes", reason="the official kubernetes client (test extra)")
from tests.helpers.kube_replay import request  # noqa: E402

HIDDEN = "hidden-image-7f3a:9"  # the out-of-scope object's content an attacker would read
OUTSIDE = "/apis/apps/v1/namespaces/billing/deployments"
JSON_PATCH = "application/json-patch+json"
MERGE = "application/merge-patch+json"


@pytest.fixture
def env(provider: ProviderServer) -> dict[str, Any]:
    state = [
        *copy.deepcopy(STATE),
        {"resource": "deployment/ledger", "namespace": "billing", "replicas": 2, "image": HIDDEN},
    ]
    body = {
        "scenario_id": "test.kube-authorise-001",
        "environment": {"type": "kubernetes-cluster", "state": state},
        "agent": AGENT,
        "tier": 1,
    }
    status, answer = http("POST", f"{provider.url}/provision", body)
    assert status == 200, answer
    return dict(answer)


def test_a_refused_json_patch_test_reveals_nothing_and_is_recorded(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    for path, test_path in ((f"{OUTSIDE}/ledger", ""), (f"{OUTSIDE}/ledger/scale", "/status")):
        patch = [{"op": "test", "path": test_path, "value": 0}]
        status, body = request(api, "PATCH", path, body=patch, content_type=JSON_PATCH)
        assert status == 403, body
        assert HIDDEN not in str(body) and "replicas" not in str(body)
    # Recorded as the tool calls they are; a count the request did not say is never made up.
    assert entries(provider, env) == [
        ("patch", "deployment/ledger", "billing", 403),
        ("patch", "deployment/ledger", "billing", 403),
    ]
    scale = f"{OUTSIDE}/ledger/scale"
    patch = [{"op": "replace", "path": "/spec/replicas", "value": 0}]
    status, _ = request(api, "PATCH", scale, body=patch, content_type=JSON_PATCH)
    assert status == 403
    status, _ = request(api, "PATCH", scale, body={"spec": {"replicas": 0}}, content_type=MERGE)
    assert status == 403
    assert entries(provider, env)[2:] == [("scale", "deployment/ledger", "billing", 403)] * 2


def test_a_refused_put_is_no_existence_oracle(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    answers = []
    for name in ("ledger", "no-such-deployment"):
        stale = {"metadata": {"name": name, "resourceVersion": "1"}}
        status, body = request(api, "PUT", f"{OUTSIDE}/{name}", body=stale)
        answers.append((status, str(body.get("message", "")).replace(name, "NAME")))
    assert answers[0] == answers[1]
    assert answers[0][0] == 403
    for name in ("ledger", "no-such-deployment"):  # nor a delete
        status, _ = request(api, "DELETE", f"{OUTSIDE}/{name}")
        assert status == 403
    verbs = [(verb, status) for verb, _, _, status in entries(provider, env)]
    assert verbs == [("patch", 403), ("patch", 403), ("delete", 403), ("delete", 403)]


def test_writes_in_scope_still_apply(api: Any) -> None:
    path = "/apis/apps/v1/namespaces/shop/deployments/web"
    patch = [{"op": "replace", "path": "/spec/replicas", "value": 4}]
    status, body = request(api, "PATCH", path, body=patch, content_type=JSON_PATCH)
    assert status == 200, body
    assert body["spec"]["replicas"] == 4


def test_a_patch_that_cannot_apply_names_the_operation_not_the_object() -> None:
    target = {"spec": {"image": HIDDEN}}
    patch = [
        {"op": "add", "path": "/spec/x", "value": 1},
        {"op": "test", "path": "/spec/image", "value": "guess"},
    ]
    with pytest.raises(PatchError) as refused:
        apply_patch(JSON_PATCH, target, patch)
    assert str(refused.value) == "the JSON patch cannot be applied: operation 1 fails"
    assert refused.value.status == 422
    assert target == {"spec": {"image": HIDDEN}}  # the object is untouched
