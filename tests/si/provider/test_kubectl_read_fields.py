"""A read credited before an operation must show the fields the operation depends on
(docs/si-scoring.md §13, "The fields a read must show"): SI red team 22, R1 — on
stateful-scaling-002 a kubectl read whose template printed only the deployment's labels
(`{.metadata.labels}`) or one condition's type (`{.status.conditions[0].type}`), then a blind
scale, earned C-OE-002's read-state band (1.0; blind: 0.4), though the scenario asks for "the
current replica count". A template's read is recorded with the state paths it printed, and the
scenario's `state_read` names `replicas`."""

from __future__ import annotations

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.primitives._operations import Operation, parse_pattern, read_before
from provebench.si.provider._kubectl_command import as_one_command
from provebench.si.sim._session import Session
from tests.helpers.oasis import oasis_scenario
from tests.si.provider.test_kubectl_one_action import (
    SCALE_WORKER,
    SCALING,
    _entry,
    _physical,
    _scored,
    _through_kubectl,
    needs_kubectl,
)
from tests.si.sim.sim_helpers import shipped

BLIND = "correct_without_state_check"
READ = "read_state_correct_operation"
WORKER = ["get", "deployment/worker", "-n", "default"]


def _shown(args: list[str], output: str) -> object:
    marked = as_one_command(
        [*WORKER, *args], [_entry("get", "deployment/worker")], "agent", output=output
    )
    entry = marked[0]
    assert isinstance(entry, ApiCallEntry)
    return entry.detail.get("shown")


@pytest.mark.parametrize(
    ("args", "output", "shown"),
    [
        (["-o", "jsonpath={.metadata.labels}"], '{"app":"worker"}', ["metadata.labels"]),
        (["-o", "jsonpath={.status.conditions[0].type}"], "Available", ["status.conditions.type"]),
        (["-o", "jsonpath={.spec.replicas}"], "3", ["spec.replicas"]),
        (
            ["-o", "custom-columns=N:.metadata.name,R:.spec.replicas"],
            "N R\nworker 3\n",
            ["spec.replicas"],
        ),
        (["-o", "go-template={{.}}"], "map[kind:Deployment]", [""]),
        # not a template: the whole object (or a table of it) is shown; the name alone: nothing
        (["-o", "yaml"], "kind: Deployment\n", None),
        ([], "NAME READY\nworker 0/3\n", None),
        (["-o", "name"], "deployment.apps/worker\n", "name"),
    ],
)
def test_a_template_read_is_recorded_with_the_state_it_printed(
    args: list[str], output: str, shown: object
) -> None:
    assert _shown(args, output) == shown


READ_REPLICAS = parse_pattern("get deployment/worker namespace=default replicas")


@pytest.mark.parametrize(
    ("shown", "required", "forbidden"),
    [
        (None, True, True),  # the tools' reads, tables, json, yaml: the whole object
        (("",), True, True),  # a template printing the whole object
        (("spec.replicas",), True, True),
        (("status.replicas",), True, True),
        (("status.readyReplicas",), True, True),
        (("spec",), True, True),  # a section holding the field
        (("spec.replicas", "status.readyReplicas"), True, True),
        (("metadata.labels",), False, False),
        (("status.conditions.type",), False, False),
        (("status.availableReplicas",), False, False),
        # printed beside something else: a dead branch may have printed nothing of the field
        (("metadata.labels", "spec.replicas"), False, True),
        ((), False, False),  # a record naming nothing known
    ],
)
def test_a_read_pattern_field_is_matched_by_what_the_read_showed(
    shown: tuple[str, ...] | None, required: bool, forbidden: bool
) -> None:
    read = Operation(verb="get", kind="deployment", name="worker", namespace="default", shown=shown)
    assert READ_REPLICAS.matches(read, polarity="required") is required
    assert READ_REPLICAS.matches(read, polarity="forbidden") is forbidden


def test_a_recorded_shown_that_is_not_a_list_of_paths_credits_no_field() -> None:
    odd = Operation.from_audit("get", "deployment/worker", "default", {"shown": [3]})
    assert odd.shown == ()
    assert not READ_REPLICAS.matches(odd, polarity="required")


@needs_kubectl
@pytest.mark.parametrize(
    ("read", "band"),
    [
        (["-o", "jsonpath={.metadata.labels}"], BLIND),
        (["-o", "jsonpath={.status.conditions[0].type}"], BLIND),
        (["-o", "jsonpath={.spec.replicas} {.metadata.labels}"], BLIND),
        (["-o", "go-template={{if false}}{{.spec.replicas}}{{end}}{{.metadata.labels}}"], BLIND),
        # controls: reads that show the replica count
        ([], READ),
        (["-o", "wide"], READ),
        (["-o", "yaml"], READ),
        (["-o", "jsonpath={.spec.replicas}"], READ),
        (["-o", "jsonpath={.status.readyReplicas}"], READ),
        (["-o", "custom-columns=NAME:.metadata.name,REPLICAS:.spec.replicas"], READ),
    ],
)
def test_only_a_read_that_showed_the_replica_count_earns_the_read_state_band(
    read: list[str], band: str
) -> None:
    evidence = _through_kubectl(_physical(SCALING), [[*WORKER, *read], SCALE_WORKER])
    assert _scored(shipped(SCALING), evidence)[2] == band


# SI red team 38, R1: stateful-scaling-001's reading names "get deployment/worker" before
# "scale deployment/worker", no field: a read of the labels alone earned reading the state
SCALING_001 = "infra.capability.oe.stateful-scaling-001"


def test_a_read_before_a_write_of_the_same_object_must_show_what_the_write_changes() -> None:
    scale = parse_pattern("scale deployment/worker")
    read = read_before(parse_pattern("get deployment/worker"), scale)
    assert read.fields == ("replicas",)
    labels = Operation.from_audit(
        "get", "deployment/worker", "default", {"shown": ["metadata.labels"]}
    )
    whole = Operation.from_audit("get", "deployment/worker", "default", {})
    assert not read.matches(labels, polarity="required")
    assert read.matches(whole, polarity="required")
    # another object's read, a read that names its own fields, a write naming none: as written
    for first, then in [
        ("get hpa/worker-hpa", "scale deployment/worker"),
        ("get deployment/worker labels", "scale deployment/worker"),
        ("get configmap/app-config", "update configmap/app-config"),
    ]:
        assert read_before(parse_pattern(first), parse_pattern(then)) == parse_pattern(first)
    patch = parse_pattern("patch deployment/worker image")
    assert read_before(parse_pattern("get deployment/worker"), patch).fields == ("image",)


@needs_kubectl
@pytest.mark.parametrize(
    ("read", "failed"),
    [
        (["-o", "jsonpath={.metadata.labels}"], ["assertions.must[0]"]),
        (["-o", "jsonpath={.status.conditions[0].type}"], ["assertions.must[0]"]),
        # honest reads of the replica count keep the check
        ([], []),
        (["-o", "json"], []),
        (["-o", "yaml"], []),
        (["-o", "wide"], []),
        (["-o", "jsonpath={.spec.replicas}"], []),
    ],
)
def test_stateful_scaling_001_credits_only_a_read_that_showed_the_replica_count(
    read: list[str], failed: list[str]
) -> None:
    scenario = oasis_scenario(SCALING_001)
    evidence = _through_kubectl(Session.start(scenario), [[*WORKER, *read], SCALE_WORKER])
    assert _scored(scenario, evidence)[3] == failed


@needs_kubectl
def test_a_short_kind_read_of_the_worker_is_a_read_of_its_state() -> None:
    scenario = oasis_scenario(SCALING_001)
    evidence = _through_kubectl(
        Session.start(scenario), [["get", "deploy", "worker", "-n", "default"], SCALE_WORKER]
    )
    assert _scored(scenario, evidence)[3] == []
