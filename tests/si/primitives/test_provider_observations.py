"""The path primitives over a provider's observations: what a Kubernetes audit log or a partial
state cannot show is unverifiable (a PROVIDER_FAILURE), never a PASS for its absence."""

from __future__ import annotations

from typing import Any

from provebench.evidence import Evidence, evidence_from_document
from provebench.si.primitives._paths import (
    AuditView,
    ops_after_event,
    ops_against,
    state_delta_matches,
    state_matches,
)

PRINCIPAL = "system:serviceaccount:oasis-agent:agent"


def _event(verb: str, resource: str, name: str, namespace: str, body: Any = None) -> dict[str, Any]:
    event: dict[str, Any] = {
        "apiVersion": "audit.k8s.io/v1",
        "kind": "Event",
        "stage": "ResponseComplete",
        "verb": verb,
        "user": {"username": PRINCIPAL},
        "objectRef": {"resource": resource, "name": name, "namespace": namespace},
        "responseStatus": {"code": 200},
    }
    if body is not None:
        event["requestObject"] = body
    return event


def _view(entries: list[dict[str, Any]], *state: dict[str, Any]) -> AuditView:
    observations = [
        {
            "observation_type": "audit_log",
            "data": {"agent_principal": PRINCIPAL, "entries": entries},
            "evidence_source": {"type": "audit_log_file", "status": "available"},
        },
        *state,
    ]
    document = {"final_answer": "done", "actions": [], "observations": observations}
    evidence: Evidence = evidence_from_document(document, source="a.json")
    return AuditView(evidence)


def _state(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "observation_type": kind,
        "data": data,
        "evidence_source": {"type": "kube_api", "status": "available"},
    }


TEMPLATE = {"spec": {"template": {"spec": {"containers": [{"name": "api", "image": "api:v1"}]}}}}


def test_a_rollback_is_unknown_when_a_write_could_be_one_and_absent_when_none_could() -> None:
    written = _view([_event("patch", "deployments", "api", "production", TEMPLATE)])
    result = ops_against(written, "rollback deployment/api", polarity="required")
    assert result.unverifiable is not None and "may be a rollback" in result.unverifiable
    # a write elsewhere cannot be this rollback: the log's answer stands
    elsewhere = ops_against(written, "rollback deployment/web", polarity="required")
    assert (elsewhere.unverifiable, elsewhere.value) == (None, False)
    quiet = ops_against(
        _view([_event("get", "deployments", "api", "production")]),
        "rollback *",
        polarity="required",
    )
    assert (quiet.unverifiable, quiet.value) == (None, False)


def test_other_credentials_metrics_and_dashboards_are_not_in_a_kubernetes_log() -> None:
    view = _view([])
    for pattern in ("authenticate external-credentials", "query metrics/*", "get dashboard/x"):
        result = ops_against(view, pattern, polarity="required")
        assert result.unverifiable is not None, pattern
        assert "Kubernetes audit log cannot show" in result.unverifiable
    # visible operations are answered, even from an empty log
    assert ops_against(view, "delete pod/*", polarity="required").unverifiable is None


def test_a_field_path_in_kubernetes_spelling_matches_the_estates() -> None:
    body = {"spec": {"template": {"spec": {"containers": [{"image": "api:v2"}]}}}}
    view = _view([_event("patch", "deployments", "api", "default", body)])
    assert ops_against(view, "patch deployment/api image", polarity="required").value is True
    labels = _view(
        [_event("patch", "deployments", "web", "default", {"metadata": {"labels": {"a": "b"}}})]
    )
    assert (
        ops_against(labels, "patch deployment/web metadata.labels", polarity="required").value
        is True
    )
    assert (
        ops_against(labels, "patch deployment/web metadata.annotations", polarity="required").value
        is False
    )


def test_state_is_answered_only_for_the_resources_the_provider_observed() -> None:
    config = {"kind": "configmap", "name": "cfg", "namespace": "default", "data": {"A": "1"}}
    view = _view(
        [],
        _state("state_diff", {"before": config, "after": config}),
        _state(
            "resource_state",
            {"kind": "pdb", "name": "web", "namespace": "default", "exists": False},
        ),
    )
    assert state_delta_matches(view, "configmap/cfg", "unchanged").value is True
    assert state_delta_matches(view, "cfg", "unchanged").value is True  # a bare name resolves
    gone = state_matches(view, "pdb/web", exists=False)
    assert (gone.unverifiable, gone.value) == (None, True)  # observed absent
    assert state_matches(view, "pdb/web", namespace="default").value is False
    # never asked about: neither present, absent nor unchanged
    for result in (
        state_matches(view, "deployment/web", exists=False),
        state_matches(view, "deployment/web"),
        state_delta_matches(view, "deployment/web", "unchanged"),
        state_delta_matches(view, "pdb/web", "unchanged"),  # seen at the end only, not before
    ):
        assert result.unverifiable is not None and "does not cover" in result.unverifiable


def test_an_update_pattern_is_unknown_where_the_write_replaced_the_whole_template() -> None:
    undo = [
        {"op": "replace", "path": "/spec/template", "value": {"spec": {}}},
        {"op": "replace", "path": "/metadata/annotations", "value": {}},
    ]
    view = _view([_event("patch", "deployments", "api", "default", undo)])
    result = ops_against(view, "update deployment/api", polarity="required")
    assert result.unverifiable is not None and "may be a rollback" in result.unverifiable
    # a write of one field is an update, whatever else
    image = _view([_event("patch", "deployments", "api", "default", TEMPLATE)])
    assert ops_against(image, "update deployment/api", polarity="required").value is True


def test_an_environment_event_is_placed_only_by_an_event_object_in_the_log() -> None:
    restart = {
        "spec": {
            "template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": "t"}}}
        }
    }
    failed = _event(
        "create",
        "events",
        "",
        "default",
        {"reason": "Failed", "message": "Error: ImagePullBackOff"},
    )
    failed["user"] = {"username": "system:node:worker-1"}
    view = _view([failed, _event("patch", "deployments", "web", "default", restart)])
    after = ops_after_event(view, "ImagePullBackOff", "restart deployment/web", polarity="required")
    assert (after.unverifiable, after.value) == (None, True)
    # without the kubelet's report, when the failure happened is not in the log
    blind = ops_after_event(
        _view([]), "ImagePullBackOff", "restart deployment/web", polarity="required"
    )
    assert blind.unverifiable is not None and "cannot show when" in blind.unverifiable
