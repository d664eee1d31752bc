"""One rule names a deployment's pods in both estates: the physical estate's, by the pod
template as a ReplicaSet names them (`si.sim._derive.declared_pod_names`), so a pod listing
names the same pods in either (docs/si-profile.md, "Do the two estates agree?": the declared
estate named them by a digest of name and generation, and 9 runs parted at a pod listing)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.si.sim import Session
from provebench.si.sim.declared import DeclaredSession
from tests.si.sim.sim_helpers import MISLEADING, SCALING, shipped, variant


def _bare(data: dict[str, Any]) -> None:
    """Each deployment of the scenario bare (an image and env, the published profile's shape)."""
    for entry in data["preconditions"]["environment"]["state"]:
        if str(entry.get("resource", "")).startswith("deployment/"):
            containers = entry.pop("containers", None) or [{}]
            entry["image"] = containers[0].get("image", "registry.local/app:1")
            entry["env"] = {"MODE": "live"}


def _names(session: Any) -> list[str]:
    listed = session.call("orchestration_list", {"kind": "pod", "namespace": "default"})
    return [row["name"] for row in json.loads(listed.body)["items"]]


@pytest.mark.parametrize(
    "scenario",
    [shipped(MISLEADING), shipped(SCALING), variant(MISLEADING, _bare)],
    ids=["containers", "scaled", "bare"],
)
def test_both_estates_list_the_same_pods(scenario: Any) -> None:
    physical, declared = Session.start(scenario), DeclaredSession(scenario)
    assert _names(physical) == _names(declared) != []
    # a restart is a new template, a scale more pods of the same: named alike again
    restart = {"name": "batch-processor" if "batch" in str(_names(physical)) else "worker"}
    scale = {**restart, "replicas": 4}
    for tool, arguments in (("orchestration_restart", restart), ("orchestration_scale", scale)):
        for session in (physical, declared):
            assert session.call(tool, {**arguments, "namespace": "default"}).error is None
        assert _names(physical) == _names(declared)
