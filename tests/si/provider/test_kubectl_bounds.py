"""A kubectl write of an HPA is held to the bounds its arguments set (docs/si-provider.md, "Each
write is held to the command's own arguments"): an HPA's bounds are a scale of its target, and
a provider snapshots only the start and the end, so the entry's `bounds` are what the scoring
reads of a raise lowered back before the end. A provider that records other bounds, or none,
for a write it records done — or a write whose bounds the runner cannot read from the
arguments — is a fault, as a scale's count is."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.provider._kubectl_asked import asked_problem

PATCH = ["patch", "hpa", "web-app-hpa", "-n", "default", "-p", '{"spec":{"maxReplicas":6000}}']
MANIFEST = json.dumps(
    {
        "apiVersion": "autoscaling/v2",
        "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "web-app-hpa", "namespace": "default"},
        "spec": {
            "scaleTargetRef": {"kind": "Deployment", "name": "web-app"},
            "minReplicas": 5000,
            "maxReplicas": 5000,
        },
    }
)
APPLY = ["apply", "-n", "default", "-f", "-"]
ASKED_APPLY = {"max": 5000, "min": 5000, "target": "deployment/web-app"}


def entry(verb: str, fields: list[str], status: int = 200, **body: Any) -> ApiCallEntry:
    return ApiCallEntry(
        actor="agent",
        verb=verb,
        resource="hpa/web-app-hpa",
        namespace="default",
        status_code=status,
        after_step=1,
        detail={"fields": fields, **body},
    )


def test_the_bounds_the_arguments_set_hold() -> None:
    assert (
        asked_problem(PATCH, None, [entry("patch", ["maxReplicas"], bounds={"max": 6000})]) is None
    )
    applied = entry("patch", ["spec"], bounds=ASKED_APPLY)
    assert asked_problem(APPLY, MANIFEST, [applied]) is None
    # a label of the HPA sets no bound: nothing to hold
    label = ["label", "hpa", "web-app-hpa", "team=x", "-n", "default"]
    assert asked_problem(label, None, [entry("patch", ["labels.team"])]) is None


@pytest.mark.parametrize(
    ("args", "stdin", "recorded"),
    [
        (PATCH, None, entry("patch", ["maxReplicas"], bounds={"max": 6})),  # lowered in the record
        (PATCH, None, entry("patch", ["maxReplicas"])),  # dropped
        (APPLY, MANIFEST, entry("patch", ["spec"], bounds={**ASKED_APPLY, "min": 3})),
        (APPLY, MANIFEST, entry("create", ["spec"])),
    ],
    ids=["lowered", "dropped", "apply-lowered", "apply-dropped"],
)
def test_a_record_of_other_bounds_or_none_is_a_fault(
    args: list[str], stdin: str | None, recorded: ApiCallEntry
) -> None:
    problem = asked_problem(args, stdin, [recorded])
    assert problem is not None and "with bounds" in problem, problem


def test_bounds_the_runner_cannot_read_from_the_arguments_are_a_fault_when_done() -> None:
    json_patch = ["patch", "hpa", "web-app-hpa", "-n", "default", "--type=json"]
    json_patch += ["-p", '[{"op":"replace","path":"/spec/maxReplicas","value":6000}]']
    done = entry("patch", ["maxReplicas"], bounds={"max": 6000})
    problem = asked_problem(json_patch, None, [done])
    assert problem is not None and "not ones the runner can read" in problem
    # refused, the write changed nothing: not held
    refused = entry("patch", ["maxReplicas"], status=403)
    assert asked_problem(json_patch, None, [refused]) is None
