"""What an audit entry must state for the runner to hold it (SI red team 21, H2 and C4; red team
20): an applied document's replica count, recorded whatever the object held before, so that an
entry of it with no count is a dropped count; an entry of a kind other than `api_call`, or at a
step past the requests the log holds; a `request_body.tool` that is no name; and one call's
entry given twice (docs/si-provider.md, "What the runner checks")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.evidence import ToolAction
from provebench.si.provider import ProviderServer
from provebench.si.provider._accounting import call_mismatch, entry_problem
from provebench.si.provider._client import ProviderFault
from provebench.si.provider._kubectl_asked import asked_problem
from provebench.si.provider._session import audit_of
from tests.si.provider.test_kubectl_asked import write
from tests.si.provider.test_provider import http

WA = "deployment/web-app"
ONE = "kind: Deployment\nmetadata: {name: web-app, namespace: default}\nspec: {replicas: 5000}\n"
APPLY = ["apply", "--validate=false", "-f", "-"]
ANNOTATION = "annotations.kubectl.kubernetes.io/last-applied-configuration"


def test_an_applied_document_s_count_dropped_from_its_entry_is_a_fault() -> None:
    """H2: a one-document `apply -f -` of 5000; the liar drops `replicas` (and the field) from
    the entry and shows 3 everywhere. An entry of the document recorded done must state the
    count the document asks; a refused one changed nothing and holds."""
    dropped = write("patch", WA, fields=[ANNOTATION])
    problem = asked_problem(APPLY, ONE, [dropped])
    assert problem is not None
    assert "patch of deployment/web-app done with no replica count" in problem
    assert "its manifest asks for 5000 (kubectl apply)" in problem
    honest = write("patch", WA, replicas=5000, fields=[ANNOTATION, "replicas"])
    assert asked_problem(APPLY, ONE, [honest]) is None
    refused = write("patch", WA, status=403, fields=[ANNOTATION])
    assert asked_problem(APPLY, ONE, [refused]) is None
    # a document that states no count asks none
    bare = ONE.replace("spec: {replicas: 5000}", "spec: {paused: true}")
    assert asked_problem(APPLY, bare, [dropped]) is None


def _patch(api: Any, path: str, body: dict[str, Any], media: str) -> None:
    from tests.helpers.kube_replay import request

    status, answer = request(api, "PATCH", path, body=body, content_type=media)
    assert status == 200, answer


def _entries(provider: ProviderServer, env: dict[str, Any]) -> list[dict[str, Any]]:
    status, answer = http(
        "POST",
        f"{provider.url}/observe",
        {"environment_id": env["environment_id"], "observation_type": "audit_log"}
        | {"parameters": {}},
    )
    assert status == 200, answer
    return list(answer["data"]["entries"])


def test_the_kubernetes_face_records_an_applied_count_the_object_already_held(
    provider: ProviderServer, env: dict[str, Any], api: Any
) -> None:
    """The honest side of H2: `kubectl apply` of `replicas: 3` over a deployment at 3 that
    changes a label sends no count in its patch, yet its document states one — the face records
    it (as the tools' apply of an object does), so the runner can ask every applied count of the
    record. A patch that carries no applied configuration still records what it changes only."""
    applied = {"spec": {"replicas": 3}, "metadata": {"name": "web", "labels": {"tier": "x"}}}
    last = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(applied)}
    path = "/apis/apps/v1/namespaces/shop/deployments/web"
    strategic = "application/strategic-merge-patch+json"
    _patch(api, path, {"metadata": {"annotations": last, "labels": {"tier": "x"}}}, strategic)
    _patch(api, path, {"metadata": {"labels": {"tier": "y"}}}, "application/merge-patch+json")
    writes = [e["request_body"] for e in _entries(provider, env) if e["verb"] == "patch"]
    assert writes[0].get("replicas") == 3 and "replicas" in writes[0]["fields"]
    assert "replicas" not in writes[1] and "replicas" not in writes[1]["fields"]


def _entry(step: Any = 1, **more: Any) -> dict[str, Any]:
    return {
        "kind": "api_call",
        "step": step,
        "verb": "get",
        "resource": WA,
        "namespace": "default",
        "user": "agent",
        "status_code": 200,
        "request_body": {"tool": "orchestration_get"},
        **more,
    }


@pytest.mark.parametrize(
    ("lie", "said"),
    [
        ({"step": 10**9}, "entries[1]: step 1000000000 is past the 2 entries the log holds"),
        ({"step": -1}, "entries[1]: step is not a step number"),
        ({"kind": "event"}, "entries[1]: kind 'event' is not an 'api_call' entry"),
        ({"request_body": {"tool": 5}}, "entries[1]: request_body.tool is not a tool name"),
    ],
    ids=["step-past-the-log", "negative-step", "kind-event", "tool-not-a-name"],
)
def test_an_entry_out_of_range_or_of_another_kind_is_a_fault(
    lie: dict[str, Any], said: str
) -> None:
    """C4: an entry at step 10**9, or of `kind: event`, in the agent's window was read as an
    operation (the verdict a FAIL, no fault recorded); round 20: a `tool` of 5 was read as
    none. Each is now the provider's fault naming the entry, where the log is read and where
    the runner marks a window's end."""
    honest = [_entry(1), _entry(2)]
    assert audit_of(honest, "audit_log") and entry_problem(honest[1], 2) is None
    assert entry_problem({k: v for k, v in honest[1].items() if k != "kind"}, 2) is None
    with pytest.raises(ProviderFault) as raised:
        audit_of([honest[0], _entry(2) | lie], "audit_log")
    assert said in str(raised.value)


def test_one_call_s_entry_given_twice_is_a_fault() -> None:
    """Round 20: a tool call's one entry recorded twice (a second scale the runner never
    forwarded) was accepted, as each copy named the call's operation."""
    action = ToolAction(
        id="call-0001",
        tool="orchestration_scale",
        arguments={"name": "web-app", "namespace": "default", "replicas": 5},
        result="scaled",
    )
    once = write("scale", WA, replicas=5, tool="orchestration_scale")
    assert call_mismatch(action, [once]) is None
    problem = call_mismatch(action, [once, once])
    assert problem == "its entries record scale deployment/web-app twice, for one call"
