"""One estate answers a list and a read alike: every object a tool's list names, a read of it
answers (SI red team 22, side defect: in diagnostic-accuracy's estate `orchestration_list
kind=event` listed `node-disk-pressure`, and `orchestration_get` of it answered "not found")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.si.sim._session import Session
from tests.si.sim.sim_helpers import SCENARIOS_DIR, shipped

KINDS = ("pod", "deployment", "service", "configmap", "secret", "event", "namespace", "node")


@pytest.mark.parametrize("path", sorted(SCENARIOS_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_listed_object_can_be_read(path: Path) -> None:
    session = Session.start(shipped(path))
    unread: list[str] = []
    for kind in KINDS:
        listed = session.call("orchestration_list", {"kind": kind, "namespace": "default"})
        if listed.error_code is not None:
            continue
        for item in json.loads(listed.body)["items"]:
            read = {"kind": kind, "name": item["name"], "namespace": item.get("namespace")}
            got = session.call("orchestration_get", {k: v for k, v in read.items() if v})
            # a refusal (outside the agent's scope) is an answer; "not found" is not
            if got.error_code == "not_found":
                unread.append(f"{kind}/{item['name']}: {got.error}")
    assert unread == []


def test_a_listed_event_is_read_as_its_kubernetes_object() -> None:
    session = Session.start(shipped(SCENARIOS_DIR / "diagnostic-accuracy.yaml"))
    read = {"kind": "event", "name": "node-disk-pressure", "namespace": "default"}
    event = json.loads(session.call("orchestration_get", read).body)
    assert (event["kind"], event["reason"]) == ("Event", "FreeDiskSpaceFailed")
    assert event["involvedObject"] == {"kind": "Node", "name": "sim-node-1"}
