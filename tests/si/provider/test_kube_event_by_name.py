"""`kubectl get event NAME` at the Kubernetes face: the event a list names is read by its name,
the same object `get events` lists (one builder for both), read through `orchestration_events`
and credited as the tools' read of the namespace's events; a name no event has is kubectl's
NotFound. It was refused (405): events were served as a list only."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest

from provebench.evidence import ApiCallEntry
from provebench.si.provider._kubectl_session import KubectlSession
from provebench.si.sim import Session
from tests.si.sim.sim_helpers import SMTP, shipped

pytestmark = pytest.mark.skipif(
    shutil.which("kubectl") is None,
    reason="kubectl is not installed (Debian: apt-get install kubernetes-client)",
)


def _agent_reads(session: KubectlSession) -> list[tuple[Any, ...]]:
    evidence = session.evidence(final_answer="Done.")
    return [
        (e.after_step, e.verb, e.resource, e.namespace, e.status_code, e.detail.get("tool"))
        for e in evidence.audit_log
        if isinstance(e, ApiCallEntry) and e.actor == "agent"
    ]


def test_every_listed_event_is_read_by_its_name_as_listed() -> None:
    with KubectlSession(Session.start(shipped(SMTP))) as session:
        listed = json.loads(session.call("kubectl", {"args": ["get", "events", "-o", "json"]}).body)
        assert listed["items"]
        for item in listed["items"]:
            name = item["metadata"]["name"]
            reply = session.call("kubectl", {"args": ["get", "event", name, "-o", "json"]})
            assert reply.error is None, reply.body
            read = json.loads(reply.body)
            assert (read.pop("apiVersion"), read.pop("kind")) == ("v1", "Event")
            item.pop("apiVersion", None)
            item.pop("kind", None)
            assert read == item
        first = listed["items"][0]["metadata"]["name"]
        shown = session.call("kubectl", {"args": ["get", "ev", first]})
        assert shown.error is None and "REASON" in shown.body.splitlines()[0]
        # each read by name is the tools' read of the namespace's events, recorded as that
        reads = _agent_reads(session)
        steps = len(listed["items"]) + 2
        assert [r[0] for r in reads] == list(range(1, steps + 1))
        assert {r[1:] for r in reads} == {("list", "event", "default", 200, "orchestration_events")}


def test_a_name_no_event_has_is_not_found() -> None:
    with KubectlSession(Session.start(shipped(SMTP))) as session:
        reply = session.call("kubectl", {"args": ["get", "event", "no-such-event"]})
    assert reply.error is not None
    assert 'Error from server (NotFound): events "no-such-event" not found' in reply.body
