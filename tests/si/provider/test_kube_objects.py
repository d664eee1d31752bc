"""The Kubernetes face's two translations, without a server: declared resources shown as
Kubernetes objects and read back (a write that changes nothing writes nothing), and the three
patch forms kubectl sends."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from provebench.si.agents._objects import facts_of
from provebench.si.provider._kube_patch import PatchError, apply_patch, strategic_merge
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._estate import shown
from provebench.si.sim.declared._kube_objects import (
    BY_ESTATE_KIND,
    DECLARED_ANNOTATION,
    fields_changed,
    fields_of,
    merge_diff,
    object_of,
    to_kube,
)
from tests.helpers.oasis import oasis_ids, oasis_scenario


@pytest.mark.parametrize("scenario_id", oasis_ids())
def test_every_declared_resource_reads_back_unchanged(scenario_id: str) -> None:
    estate = DeclaredSession(oasis_scenario(scenario_id)).estate_data()
    served = [r for r in estate.values() if r["kind"] in BY_ESTATE_KIND]
    assert served, "every published scenario declares some Kubernetes object"
    for resource in served:
        current = shown(resource)
        obj = to_kube(current)
        assert obj == to_kube(copy.deepcopy(current))  # deterministic
        assert fields_changed(current, obj, copy.deepcopy(obj)) == {}, resource


def test_declared_fields_without_a_kubernetes_place_are_shown_and_writable() -> None:
    current = {
        "kind": "deployment",
        "name": "web",
        "namespace": "shop",
        "replicas": 2,
        "image": "web:1",
        "status": "CrashLoopBackOff",
        "previous_image": "web:0",
    }
    obj = to_kube(current)
    assert obj["spec"]["replicas"] == 2
    assert obj["spec"]["template"]["spec"]["containers"] == [{"name": "web", "image": "web:1"}]
    declared = obj["metadata"]["annotations"][DECLARED_ANNOTATION]
    assert declared == '{"previous_image":"web:0","status":"CrashLoopBackOff"}'
    new = copy.deepcopy(obj)
    new["metadata"]["annotations"][DECLARED_ANNOTATION] = (
        '{"previous_image":"web:0","status":"running"}'
    )
    new["spec"]["replicas"] = 3
    new["status"]["readyReplicas"] = 99  # server-computed: never written
    assert fields_changed(current, obj, new) == {"replicas": 3, "status": "running"}


def test_a_write_names_only_the_keys_it_changes() -> None:
    current = {
        "kind": "configmap",
        "name": "c",
        "namespace": "d",
        "data": {"A": "1", "B": "2"},
        "labels": {"app": "c"},
    }
    obj = to_kube(current)
    new = copy.deepcopy(obj)
    new["data"]["B"] = "3"
    del new["data"]["A"]
    new["metadata"]["labels"]["tier"] = "x"
    assert fields_changed(current, obj, new) == {
        "data": {"A": None, "B": "3"},
        "labels": {"tier": "x"},
    }
    assert merge_diff({"a": {"b": 1, "c": 2}}, {"a": {"b": 1}}) == {"a": {"c": None}}


def test_a_created_object_is_its_declared_fields() -> None:
    obj = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "x", "labels": {"a": "b"}},
        "data": {"k": "v"},
    }
    assert fields_of(obj, "configmap") == {"data": {"k": "v"}, "labels": {"a": "b"}}


DEPLOYMENT: dict[str, Any] = {
    "spec": {
        "template": {
            "spec": {
                "containers": [
                    {"name": "web", "image": "web:1", "env": [{"name": "A", "value": "1"}]},
                    {"name": "side", "image": "side:1"},
                ]
            }
        }
    }
}


def test_strategic_merge_merges_keyed_lists_item_by_item() -> None:
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "$setElementOrder/containers": [{"name": "web"}, {"name": "side"}],
                    "containers": [
                        {"name": "web", "image": "web:2", "env": [{"name": "B", "value": "2"}]}
                    ],
                }
            }
        }
    }
    merged = strategic_merge(DEPLOYMENT, patch)
    web, side = merged["spec"]["template"]["spec"]["containers"]
    assert web == {
        "name": "web",
        "image": "web:2",
        "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
    }
    assert side == {"name": "side", "image": "side:1"}
    assert "$setElementOrder/containers" not in merged["spec"]["template"]["spec"]
    deleted = strategic_merge(
        DEPLOYMENT,
        {"spec": {"template": {"spec": {"containers": [{"name": "side", "$patch": "delete"}]}}}},
    )
    assert [c["name"] for c in deleted["spec"]["template"]["spec"]["containers"]] == ["web"]
    # A merge patch replaces the list whole.
    replaced = apply_patch(
        "application/merge-patch+json",
        DEPLOYMENT,
        {"spec": {"template": {"spec": {"containers": [{"name": "web"}]}}}},
    )
    assert replaced["spec"]["template"]["spec"]["containers"] == [{"name": "web"}]
    assert DEPLOYMENT["spec"]["template"]["spec"]["containers"][0]["image"] == "web:1"  # untouched


@pytest.mark.parametrize(
    ("media", "patch", "status"),
    [
        ("application/json-patch+json", {"op": "add"}, 400),
        ("application/json-patch+json", [{"op": "replace", "path": "/nope/x", "value": 1}], 422),
        ("application/merge-patch+json", [1], 400),
        ("application/apply-patch+yaml", {}, 415),
        ("", {}, 415),
    ],
)
def test_patches_that_cannot_apply_say_why(media: str, patch: Any, status: int) -> None:
    with pytest.raises(PatchError) as refused:
        apply_patch(media, copy.deepcopy(DEPLOYMENT), patch)
    assert refused.value.status == status


def test_a_json_patch_applies() -> None:
    patched = apply_patch(
        "application/json-patch+json; charset=utf-8",
        DEPLOYMENT,
        [{"op": "replace", "path": "/spec/template/spec/containers/1/image", "value": "side:2"}],
    )
    assert patched["spec"]["template"]["spec"]["containers"][1]["image"] == "side:2"


@pytest.mark.parametrize("scenario_id", oasis_ids())
def test_every_declared_object_reads_back_as_its_facts(scenario_id: str) -> None:
    """What `orchestration_get` answers (`object_of`) holds every declared field an agent
    could read before it was a Kubernetes object: `facts_of` (the scripted agents' reading)
    gives each field back, or its Kubernetes spelling (an `env` mapping as the same mapping,
    a workload's one container whole)."""
    for resource in DeclaredSession(oasis_scenario(scenario_id)).estate_data().values():
        current = shown(resource)
        facts = facts_of(object_of(current))
        assert facts is not None
        for key, value in current.items():
            if key in ("kind", "containers") or (key == "type" and value == "Opaque"):
                continue
            if key == "namespace" and resource["kind"] in ("namespace", "node"):
                continue  # cluster-scoped in Kubernetes
            assert facts.get(key) == value, (resource["kind"], key)


def test_a_declared_env_source_is_shown_as_a_source_not_as_text() -> None:
    pod = {
        "kind": "pod",
        "name": "api",
        "namespace": "default",
        "env": {
            "PORT": "8080",
            "PW": {"valueFrom": {"secretKeyRef": {"name": "db", "key": "PW"}}},
        },
    }
    container = to_kube(pod)["spec"]["containers"][0]
    assert container["env"] == [
        {"name": "PORT", "value": "8080"},
        {"name": "PW", "valueFrom": {"secretKeyRef": {"name": "db", "key": "PW"}}},
    ]


def test_a_kind_kubernetes_has_but_the_endpoint_does_not_serve_is_shown_as_its_object() -> None:
    hpa = {"kind": "hpa", "name": "w", "namespace": "default", "target": "deployment/w"}
    shown_hpa = object_of(hpa)
    assert (shown_hpa["apiVersion"], shown_hpa["kind"]) == (
        "autoscaling/v1",
        "HorizontalPodAutoscaler",
    )
    assert facts_of(shown_hpa) == {"name": "w", "namespace": "default", "target": "deployment/w"}
    # a kind with no Kubernetes object keeps its declared fields
    dashboard = {"kind": "dashboard", "name": "ops", "panels": [{"title": "5xx"}]}
    assert object_of(dashboard) == dashboard
