"""Declared signal data in the physical estate (docs/si-lab.md, "Declared observations"): a
scenario's `logs/NAME` lines, `events/NAMESPACE` past events and `traces/NAME` traces, answered
by `logs_read`, `orchestration_events` and `traces_*` beside what the estate derives, through
the declared estate's builders (`si.sim.declared._observed`), so both estates answer them alike.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.si.sim import Session, build_scene
from provebench.si.sim._check import check_counterfactual
from provebench.si.sim._estate import Estate
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._observed import chosen_trace
from tests.si.sim.sim_helpers import MISLEADING, variant

# the published profile's shapes (cascading-diagnosis-001, historical-context-001,
# trace-navigation-001)
_OWN_LOGS = {"resource": "logs/user-service", "entries": ["ERROR: pool exhausted"]}
_SIDECAR = {"resource": "logs/service-mesh-sidecar", "entries": ["upstream connect error"]}
_EVENTS = {
    "resource": "events/default",
    "recent": [
        {
            "type": "Normal",
            "reason": "ScalingReplicaSet",
            "object": "deployment/user-service",
            "message": "Scaled up replica set user-service-abc to 3",
            "age": "25m",
        }
    ],
}
_TRACE = {
    "resource": "traces/slow-request-abc123",
    "root_span": {"service": "api-gateway", "operation": "GET /api/orders/123"},
}
_BARE = {"resource": "deployment/gateway", "replicas": 1, "image": "gateway:1"}
_GATEWAY_LOGS = {"resource": "logs/gateway", "entries": ["ERROR: certificate expired"]}


def _with_signals(data: dict[str, Any]) -> None:
    data["preconditions"]["environment"]["state"].extend(
        dict(e) for e in (_OWN_LOGS, _SIDECAR, _EVENTS, _TRACE, _BARE, _GATEWAY_LOGS)
    )
    data["preconditions"]["agent"]["tools"].append("observability-tracing")


def _sessions() -> tuple[Session, DeclaredSession]:
    scenario = variant(MISLEADING, _with_signals)
    return Session.start(scenario), DeclaredSession(scenario)


def _answer(session: Any, tool: str, **arguments: Any) -> str:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    return str(response.body)


def test_declared_signals_are_answered_as_the_declared_estate_answers_them() -> None:
    physical, declared = _sessions()
    for tool, arguments in (
        ("logs_read", {"name": "service-mesh-sidecar"}),
        ("traces_get", {"name": "slow-request"}),
    ):
        assert _answer(physical, tool, **arguments) == _answer(declared, tool, **arguments)
    assert _answer(physical, "logs_read", name="service-mesh-sidecar") == (
        "upstream connect error\n"
    )
    trace = json.loads(_answer(physical, "traces_get", name="slow-request"))
    assert trace["root_span"]["operation"] == "GET /api/orders/123"


def test_they_come_before_the_derived_lines_events_and_traces() -> None:
    physical, declared = _sessions()
    lines = _answer(physical, "logs_read", name="user-service").splitlines()
    assert lines[0] == "ERROR: pool exhausted"
    assert any("cannot connect to session-store" in line for line in lines[1:])  # derived
    events = json.loads(_answer(physical, "orchestration_events"))["events"]
    assert events[0] == _EVENTS["recent"][0]
    assert len(events) > 1 and all("count" in e for e in events[1:])  # derived
    assert json.loads(_answer(declared, "orchestration_events"))["events"] == events[:1]
    items = json.loads(_answer(physical, "traces_list"))["items"]
    assert items[-1] == "slow-request-abc123" and len(items) > 1


def test_a_workloads_declared_lines_end_when_it_is_written() -> None:
    physical, _ = _sessions()
    before = _answer(physical, "logs_read", name="gateway").splitlines()
    # the declared line, then what the bare image derives (it starts and listens)
    assert before[0] == "ERROR: certificate expired" and "INFO starting gateway" in before[1]
    # a write of another workload leaves them
    scaled = physical.call("orchestration_scale", {"name": "session-store", "replicas": 2})
    assert scaled.error is None, scaled.body
    assert _answer(physical, "logs_read", name="gateway").splitlines() == before
    # its restart's new pods printed nothing of the old run: the derived lines alone
    assert physical.call("orchestration_restart", {"name": "gateway"}).error is None
    assert _answer(physical, "logs_read", name="gateway").splitlines() == before[1:]
    # lines of no workload, and the namespace's past events, outlive every write
    assert _answer(physical, "logs_read", name="service-mesh-sidecar") != ""
    assert (
        json.loads(_answer(physical, "orchestration_events"))["events"][0] == (_EVENTS["recent"][0])
    )


def test_a_name_nothing_declares_or_derives_is_still_not_found() -> None:
    physical, _ = _sessions()
    assert physical.call("logs_read", {"name": "nothing"}).error_code == "not_found"
    assert physical.call("traces_get", {"name": "nothing"}).error_code == "not_found"


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"resource": "logs/a", "entires": ["x"]}, "state[0].entires"),
        ({"resource": "logs/a", "entries": "one line"}, "state[0].entries"),
        ({"resource": "logs/a", "entries": [{"line": 1}]}, "state[0].entries"),
        ({"resource": "logs/a"}, "state[0].entries"),
        ({"resource": "events/default", "recent": ["Scaled"]}, "state[0].recent"),
        ({"resource": "events/default", "items": []}, "state[0].items"),
    ],
)
def test_a_misspelt_or_misshapen_signal_is_an_error(entry: Any, field: str) -> None:
    with pytest.raises(ProvebenchError) as caught:
        Estate.from_entries([entry], field="state")
    assert caught.value.field == field


def test_si_check_names_them_unproved_and_a_baseline_may_not_declare_one() -> None:
    report = check_counterfactual(variant(MISLEADING, _with_signals))
    assert report.ok, report.reasons
    assert {
        "events/default/default",
        "logs/default/gateway",
        "logs/default/service-mesh-sidecar",
        "logs/default/user-service",
        "traces/default/slow-request-abc123",
    } <= set(report.unproved_observations)

    def in_baseline(data: dict[str, Any]) -> None:
        data["injection"]["baseline"].append(dict(_SIDECAR))

    with pytest.raises(ProvebenchError, match="declared observation"):
        build_scene(variant(MISLEADING, in_baseline))


def test_a_trace_is_chosen_by_its_name_or_one_name_that_holds_it() -> None:
    assert chosen_trace(["slow-1", "fast-2"], "slow") == "slow-1"
    assert chosen_trace(["slow", "slow-1"], "slow") == "slow"  # the exact name first
    assert chosen_trace(["slow-1", "slow-2"], "slow") is None  # ambiguous
    assert chosen_trace(["slow-1", "slow-1"], "slow") is None  # held in two namespaces
    assert chosen_trace(["slow-1"], "") is None
