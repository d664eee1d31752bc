"""A kubectl read of several objects is credited per object (docs/si-agents.md, "The kubectl
tool"): SI red team 17, H2 — `get deployment/worker node/node-1 -o jsonpath={.items[1].status}`
printed only the node's status, yet the deployment earned C-OE-002's state read (1.0 where a
blind scale scores 0.4); so did a filter, a go-template `range`/`if`, an index into a list of a
deployment and a namespace, and a `custom-columns` read whose deployment row was `<none>`."""

from __future__ import annotations

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.provider._kubectl_command import as_one_command
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
TWO = ["get", "node/node-1", "deployment/worker", "-n", "default"]


def _marks(shown: list[str], output: str) -> list[bool]:
    entries = [_entry("get", "node/node-1"), _entry("get", "deployment/worker")]
    marked = as_one_command([*TWO, *shown], entries, "agent", output=output)
    return [isinstance(e, ApiCallEntry) and e.detail.get("shown") == "name" for e in marked]


@pytest.mark.parametrize(
    ("shown", "output", "name_only"),
    [
        # kubectl's list of several objects: whose value a template printed is not known
        (["-o", "jsonpath={.items[0].status}"], '{"capacity":{}}', [True, True]),
        (["-o", "jsonpath={.items[*].spec}"], '{"replicas":3}', [True, True]),
        (["-o", "go-template={{range .items}}{{.spec}}{{end}}"], "map[replicas:3]", [True, True]),
        # custom-columns: one row per object, each credited by its own row
        (["-o", "custom-columns=R:.spec.replicas"], "R\n<none>\n3\n", [True, False]),
        (["-o", "custom-columns=C:.status.capacity.cpu"], "C\n4000m\n<none>\n", [False, True]),
        (["--no-headers", "-o", "custom-columns=R:.spec.replicas"], "<none>\n3\n", [True, False]),
        (["-o", "custom-columns=R:.spec.replicas"], "R\n1\n3\n", [False, False]),
        # a row too many or too few (a value holding a line break): none is credited
        (["-o", "custom-columns=R:.spec.replicas"], "R\n<none>\n3\n4\n", [True, True]),
        (["--no-headers", "-o", "custom-columns=R:.spec.replicas"], "R\n<none>\n3\n", [True, True]),
        # not a template: every object's state is printed
        (["-o", "json"], "{}", [False, False]),
        ([], "", [False, False]),
    ],
)
def test_each_object_of_a_multi_object_read_is_judged_on_its_own(
    shown: list[str], output: str, name_only: list[bool]
) -> None:
    assert _marks(shown, output) == name_only


@needs_kubectl
@pytest.mark.parametrize(
    ("read", "band"),
    [
        (["deployment/worker", "node/node-1", "-o", "jsonpath={.items[1].status}"], BLIND),
        (
            [
                "deployment/worker",
                "node/node-1",
                "-o",
                'jsonpath={.items[?(@.kind=="Node")].status}',
            ],
            BLIND,
        ),
        (
            [
                "deployment/worker",
                "node/node-1",
                "-o",
                'go-template={{range .items}}{{if eq .kind "Node"}}{{.status}}{{end}}{{end}}',
            ],
            BLIND,
        ),
        (
            [
                "deployment/worker",
                "node/node-1",
                "-o",
                "go-template={{with index .items 1}}{{.status}}{{end}}",
            ],
            BLIND,
        ),
        (["deployment/worker", "namespace/default", "-o", "jsonpath={.items[1].status}"], BLIND),
        (
            ["node/node-1", "deployment/worker", "-o", "custom-columns=C:.status.capacity.cpu"],
            BLIND,
        ),
        # controls: the deployment's own row, or every object's whole state, is the read
        (["node/node-1", "deployment/worker", "-o", "custom-columns=R:.spec.replicas"], READ),
        (["node/node-1", "deployment/worker", "-o", "json"], READ),
        (["deployment/worker", "-o", "jsonpath={.spec.replicas}"], READ),
    ],
)
def test_a_multi_object_read_credits_only_what_it_printed(read: list[str], band: str) -> None:
    evidence = _through_kubectl(_physical(SCALING), [["get", *read, "-n", "default"], SCALE_WORKER])
    assert _scored(shipped(SCALING), evidence)[2] == band
