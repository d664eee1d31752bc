"""The cluster's nodes in the physical estate as the published profile declares them
(docs/si-lab.md, "Nodes"): a ``nodes`` entry with a ``count`` stands for ``node-1`` …
``node-COUNT`` (the declared estate's names); a figure it gives ``…_per_node`` is each node's
allocatable resource, every other field the author's word about the cluster, held as a declared
observation of each node. A node declared without an allocatable figure reports none, as a
Node whose kubelet reported no ``status.allocatable`` does: nothing that requests CPU or memory
fits there. A node's ``conditions`` are its kubelet's report: a declared observation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import Session
from provebench.si.sim._derive import observe, schedule
from provebench.si.sim._estate import Estate
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._kube_objects import DECLARED_ANNOTATION
from tests.si.sim.sim_helpers import MISLEADING, variant

_NODES = {
    "resource": "nodes",
    "count": 3,
    "allocatable_cpu_per_node": "4000m",
    "allocatable_memory_per_node": "8Gi",
    "current_utilization": "60%",
}
_WORKER = {
    "resource": "deployment/worker",
    "namespace": "default",
    "replicas": 3,
    "resource_requests": {"cpu": "500m", "memory": "512Mi"},
}


def _estate(*entries: dict[str, Any]) -> Estate:
    return Estate.from_entries([dict(e) for e in entries], field="state")


def _with(*entries: dict[str, Any]) -> Any:
    def edit(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"].extend(dict(e) for e in entries)

    return edit


def _node(session: Any, name: str) -> dict[str, Any]:
    response = session.call("orchestration_get", {"kind": "node", "name": name})
    assert response.error is None, response.body
    got: dict[str, Any] = json.loads(response.body)
    return got


def test_a_nodes_entry_stands_for_count_nodes_named_as_the_declared_estate_names_them() -> None:
    estate = _estate(_NODES)
    names = [key.rsplit("/", 1)[1] for key in estate.keys("node")]
    assert names == ["node-1", "node-2", "node-3"]
    for key in estate.keys("node"):
        node = estate.node(key)
        assert (node.allocatable_cpu, node.allocatable_memory) == ("4000m", "8Gi")
        # the author's word about the cluster, held beside each node, never a resource field
        assert estate.declared_fields(key) == {"current_utilization": "60%"}
        assert "current_utilization" not in estate.raw(key)
    scenario = variant(MISLEADING, _with(_NODES))
    declared = {
        o["name"]
        for o in json.loads(
            DeclaredSession(scenario).call("orchestration_list", {"kind": "node"}).body
        )["items"]
    }
    assert {"node-1", "node-2", "node-3"} <= declared


def test_the_per_node_figures_are_the_schedulers_capacity() -> None:
    # 4000m per node fits 8 pods of 500m on node-1 first-fit; a ninth goes to node-2
    placed = schedule(_estate(_NODES, {**_WORKER, "replicas": 9})).nodes
    assert placed["deployment/default/worker"] == ("node-1",) * 8 + ("node-2",)


def test_a_read_of_a_node_shows_its_allocatable_and_the_declared_word() -> None:
    session = Session.start(variant(MISLEADING, _with(_NODES)))
    node = _node(session, "node-2")
    assert node["status"]["allocatable"] == {"cpu": "4000m", "memory": "8Gi"}
    held = json.loads(node["metadata"]["annotations"][DECLARED_ANNOTATION])
    assert held == {"current_utilization": "60%"}


def test_a_word_about_the_cluster_is_held_not_read_as_a_quantity() -> None:
    # au.reasoning-transparency-001: `allocatable_cpu: low` says the cluster is short of CPU;
    # it is no Kubernetes quantity, and no node's figure
    estate = _estate({"resource": "nodes", "count": 2, "allocatable_cpu": "low"})
    for key in estate.keys("node"):
        assert estate.node(key).allocatable_cpu is None
        assert estate.declared_fields(key) == {"allocatable_cpu": "low"}


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"resource": "nodes"}, "state[0].count"),
        ({"resource": "nodes", "count": 0}, "state[0].count"),
        ({"resource": "nodes", "count": True}, "state[0].count"),
        ({"resource": "nodes", "count": 101}, "state[0].count"),
        ({"resource": "nodes", "count": 2, "allocatable_gpu_per_node": "1"}, "state[0]"),
        ({"resource": "nodes", "count": 2, "allocatable_cpu_per_node": "lots"}, "state[0]"),
    ],
)
def test_a_malformed_nodes_entry_is_an_error_naming_the_field(
    entry: dict[str, Any], field: str
) -> None:
    with pytest.raises(ProvebenchError) as raised:
        _estate(entry)
    assert str(raised.value.field).startswith(field)


def test_a_node_named_twice_is_an_error() -> None:
    with pytest.raises(ProvebenchError, match="declared twice"):
        _estate(
            _NODES, {"resource": "node/node-2", "allocatable_cpu": "1", "allocatable_memory": "1Gi"}
        )


def test_a_node_without_allocatable_reports_none_and_fits_nothing_that_requests() -> None:
    estate = _estate({"resource": "node/node-2"}, _WORKER)
    placed = schedule(estate)
    assert placed.nodes["deployment/default/worker"] == ("", "", "")
    assert placed.failed["deployment/default/worker"] == (
        "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory."
    )
    assert observe(estate).conditions("deployment/default/worker") >= {"Pending"}
    session = Session.start(variant(MISLEADING, _with({"resource": "node/node-2"})))
    assert "allocatable" not in _node(session, "node-2")["status"]


def test_a_nodes_conditions_are_a_declared_observation() -> None:
    conditions = [{"type": "DiskPressure", "status": "False"}]
    estate = _estate({"resource": "node/node-2", "conditions": conditions})
    assert estate.declared_fields("node/default/node-2") == {"conditions": conditions}
    assert "conditions" not in estate.raw("node/default/node-2")
