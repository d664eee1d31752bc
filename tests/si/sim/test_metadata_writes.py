"""A metadata write — labels and annotations, on any object the estate holds — is one rule in
both estates: performed, recorded by the fields it names, and (in the physical estate) no new
generation (SI red team 27, K5: an honest `kubectl annotate` of a deployment was refused 422 by
the physical estate and performed by the declared one; docs/si-profile.md, "Do the two estates
agree?")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from tests.si.sim.sim_helpers import MISLEADING, shipped, variant

_NS = "default"
# one object of each kind the scenario holds, and its namespace (declared: `_with_namespace`)
_TARGETS = (
    ("deployment", "batch-processor"),
    ("configmap", "batch-config"),
    ("service", "session-store"),
    ("namespace", _NS),
)
_BOTH = pytest.mark.parametrize(
    "start", [Session.start, DeclaredSession], ids=["physical", "declared"]
)


def _with_namespace(data: dict[str, Any]) -> None:
    """The scenario's namespace declared, with a label of its own (both estates hold it)."""
    entry = {"resource": f"namespace/{_NS}", "labels": {"team": "ops"}}
    data["preconditions"]["environment"]["state"].append(entry)


def _scenario() -> Any:
    return variant(MISLEADING, _with_namespace)


def _named(kind: str, name: str) -> dict[str, Any]:
    return {"kind": kind, "name": name} | ({} if kind == "namespace" else {"namespace": _NS})


def _patch(kind: str, name: str, patch: dict[str, Any]) -> dict[str, Any]:
    return _named(kind, name) | {"patch": patch}


def _written(session: Any, spelling: str) -> list[tuple[Any, ...]]:
    """Each target labelled and annotated in ``spelling`` (the object's, or the fields'), and
    what the audit log recorded of each write."""
    for kind, name in _TARGETS:
        given = {"labels": {"tier": "backend"}, "annotations": {"note": "scaled for load"}}
        patch = {"metadata": given} if spelling == "object" else given
        response = session.call("orchestration_patch", _patch(kind, name, patch))
        assert response.error is None, (kind, response.body)
    evidence = session.evidence(final_answer="")
    return [
        (e.verb, e.resource, e.status_code, e.detail.get("fields"))
        for e in evidence.audit_log
        if isinstance(e, ApiCallEntry) and e.verb == "patch"
    ]


@pytest.mark.parametrize("spelling", ["object", "fields"])
def test_both_estates_perform_a_metadata_write_and_record_it_alike(spelling: str) -> None:
    physical = _written(Session.start(_scenario()), spelling)
    declared = _written(DeclaredSession(_scenario()), spelling)
    assert physical == declared
    assert [entry[2] for entry in physical] == [200] * len(_TARGETS)
    assert physical[0][3] == ["annotations.note", "labels.tier"]


def test_the_physical_estate_shows_what_the_write_set() -> None:
    session = Session.start(_scenario())
    _written(session, "object")
    for kind, name in _TARGETS:
        read = session.call("orchestration_get", _named(kind, name))
        metadata = json.loads(read.body)["metadata"]
        assert metadata["labels"]["tier"] == "backend", kind
        assert metadata["annotations"]["note"] == "scaled for load", kind
    # merged over what a read showed: a deployment declared without labels keeps `app`
    state = session.estate_data()
    assert state["deployment/default/batch-processor"]["labels"] == {
        "app": "batch-processor",
        "tier": "backend",
    }
    services = session.call("orchestration_list", {"kind": "service", "selector": "tier:backend"})
    assert [row["name"] for row in json.loads(services.body)["items"]] == ["session-store"]


def _bare(data: dict[str, Any]) -> None:
    """batch-processor as a bare deployment declared in a crash loop (its word until written)."""
    for entry in data["preconditions"]["environment"]["state"]:
        if entry.get("resource") == "deployment/batch-processor":
            entry.clear()
            entry.update(
                resource="deployment/batch-processor",
                namespace=_NS,
                image="registry.local/batch-processor:1.9.3",
                status="CrashLoopBackOff",
            )


def test_a_label_write_is_no_new_generation() -> None:
    # Kubernetes keeps a Deployment's labels apart from its pod template's: relabelling it
    # leaves its pods' labels and names, the services that select them, and what was declared
    # observed of them (a bare deployment's status) as they were
    session = Session.start(variant(MISLEADING, _bare))
    before = session.observation
    pods = [(p.name, p.labels) for p in before.pods]
    relabel = {"labels": {"app": "renamed", "tier": "x"}, "annotations": {"why": "audit"}}
    response = session.call("orchestration_patch", _patch("deployment", "batch-processor", relabel))
    assert response.error is None, response.body
    after = session.observation
    assert [(p.name, p.labels) for p in after.pods] == pods
    assert after.estate.declared_fields("deployment/default/batch-processor")["status"] == (
        "CrashLoopBackOff"
    )
    manifest = json.loads(
        session.call("orchestration_get", {"kind": "deployment", "name": "batch-processor"}).body
    )
    assert manifest["metadata"]["labels"] == {"app": "renamed", "tier": "x"}
    assert manifest["spec"]["selector"]["matchLabels"] == {"app": "batch-processor"}
    # a selector over deployments matches the deployment's own labels
    chosen = session.call("orchestration_list", {"kind": "deployment", "selector": "app:renamed"})
    assert [r["name"] for r in json.loads(chosen.body)["items"]] == ["batch-processor"]


@_BOTH
@pytest.mark.parametrize(
    # in any case: a real API server refuses an uppercase key prefix (SI red team 30)
    "key",
    ["provebench.dev/declared", "Provebench.dev/declared", "PROVEBENCH.DEV/Declared"],
)
def test_the_estates_own_annotation_is_refused_in_either(start: Any, key: str) -> None:
    session = start(shipped(MISLEADING))
    before = session.estate_data()
    planted = {"annotations": {key: '{"status": "running"}'}}
    response = session.call("orchestration_patch", _patch("configmap", "batch-config", planted))
    assert response.error_code == "unsupported_field"
    assert "provebench.dev/declared" in (response.error or "")
    assert session.estate_data() == before


def test_a_metadata_write_beside_a_field_the_estate_cannot_hold_is_not_performed() -> None:
    session = Session.start(shipped(MISLEADING))
    before = session.estate_data()
    both = {"metadata": {"labels": {"tier": "backend"}}, "immutable": True}
    response = session.call("orchestration_patch", _patch("configmap", "batch-config", both))
    assert response.error_code == "unsupported_field"
    assert session.estate_data() == before  # whole or not at all


def test_a_label_of_a_string_only() -> None:
    session = Session.start(shipped(MISLEADING))
    wrong = {"labels": {"tier": 3}}
    response = session.call("orchestration_patch", _patch("service", "session-store", wrong))
    assert response.error is not None and "labels.tier must be a string" in response.error
