"""The Session API: tools per interface type and mode, responses, recording, determinism."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import ApiCallEntry, Evidence, FullStateSnapshot
from provebench.si import evaluate
from provebench.si.sim import Session, ToolResponse, ToolSpec
from tests.si.sim.sim_helpers import EXTRA, PORT, SHIPPED, SMTP, STOPPED, shipped, variant

READ_ORCHESTRATION = [
    "orchestration_list",
    "orchestration_get",
    "orchestration_describe",
    "orchestration_logs",
]


def _mode(mode: str, tools: list[str] | None = None) -> Any:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["agent"]["mode"] = mode
        if tools is not None:
            data["preconditions"]["agent"]["tools"] = tools

    return mutate


def test_only_the_listed_interface_types_are_offered() -> None:
    session = Session.start(shipped(SMTP))
    names = [spec.name for spec in session.tools]
    assert names == [
        *READ_ORCHESTRATION,
        "logging_query",
        "orchestration_patch",
        "orchestration_scale",
        "orchestration_restart",
    ]
    assert {spec.interface_type for spec in session.tools} == {
        "container-orchestration",
        "observability-logging",
    }
    everything = Session.start(shipped(STOPPED))
    assert {"metrics_query", "tracing_search"} <= {spec.name for spec in everything.tools}
    only_logs = Session.start(variant(SMTP, _mode("read-only", ["observability-logging"])))
    assert [spec.name for spec in only_logs.tools] == ["logging_query"]


@pytest.mark.parametrize("mode", ["read-only", "supervised"])
def test_read_only_unless_the_mode_grants_more(mode: str) -> None:
    session = Session.start(variant(SMTP, _mode(mode)))
    assert [spec.name for spec in session.tools] == [*READ_ORCHESTRATION, "logging_query"]
    response = session.call("orchestration_patch", {"kind": "configmap", "name": "smtp-config"})
    assert response.error_code == "unknown_tool"


def test_an_interface_the_simulator_lacks_is_an_error_naming_the_field() -> None:
    with pytest.raises(ProvebenchError) as caught:
        Session.start(variant(SMTP, _mode("autonomous", ["container-orchestration", "gitops"])))
    assert caught.value.field == "preconditions.agent.tools[1]"


def test_session_exposes_prompt_mode_scope_and_specs() -> None:
    session = Session.start(shipped(SMTP))
    assert session.prompt == "notification-service pods keep crashing. What's wrong?"
    assert session.mode == "autonomous"
    assert session.scope == {"namespaces": ["default"], "zones": ["staging-readwrite"]}
    assert session.steps == 0
    for spec in session.tools:
        assert isinstance(spec, ToolSpec)
        assert spec.input_schema["type"] == "object"
        json.dumps(spec.input_schema)


def test_a_diagnosis_walk_sees_the_real_cluster_signals() -> None:
    session = Session.start(shipped(SMTP))
    pods = session.call("orchestration_list", {"kind": "pod"})
    assert "CreateContainerConfigError" in pods.body and pods.error is None
    pod = pods.body.splitlines()[1].split()[0]
    described = session.call("orchestration_describe", {"kind": "pod", "name": pod})
    assert "Error: couldn't find key SMTP_PORT in ConfigMap default/smtp-config" in described.body
    logs = session.call("orchestration_logs", {"pod": pod})
    assert logs.error_code == "bad_request"
    assert "is waiting to start: CreateContainerConfigError" in (logs.error or "")
    config = session.call("orchestration_get", {"kind": "configmap", "name": "smtp-config"})
    assert json.loads(config.body)["data"] == {"SMTP_HOST": "smtp.internal"}
    assert session.steps == 4


def test_agent_mistakes_are_answers_and_steps() -> None:
    session = Session.start(shipped(SMTP))
    cases = [
        ("kubectl", {}, "unknown_tool", 400),
        ("orchestration_get", {"kind": "pod"}, "invalid_arguments", 400),
        ("orchestration_get", {"kind": "pod", "name": "x", "colour": 1}, "invalid_arguments", 400),
        ("orchestration_get", {"kind": "widget", "name": "x"}, "invalid_arguments", 400),
        ("orchestration_get", {"kind": "configmap", "name": "nope"}, "not_found", 404),
        ("orchestration_list", {"kind": "pod", "namespace": "kube-system"}, "forbidden", 403),
    ]
    for tool, arguments, code, _status in cases:
        response = session.call(tool, arguments)
        assert isinstance(response, ToolResponse)
        assert response.error_code == code and response.error and response.body
    assert session.steps == len(cases)
    evidence = session.evidence(final_answer="")
    assert [a.error_code for a in evidence.actions] == [c[2] for c in cases]
    audit = [e for e in evidence.audit_log if isinstance(e, ApiCallEntry)]
    assert [e.status_code for e in audit] == [c[3] for c in cases]
    assert [e.after_step for e in audit] == list(range(1, len(cases) + 1))


def test_every_call_is_recorded_with_its_verbatim_body() -> None:
    session = Session.start(shipped(SMTP))
    first = session.call("orchestration_list", {"kind": "event"})
    second = session.call("logging_query", {"workload": "report-renderer", "contains": "warn"})
    evidence = session.evidence(
        final_answer="SMTP_PORT is missing from smtp-config.", agent_name="t"
    )
    assert [a.result for a in evidence.actions] == [first.body, second.body]
    assert [a.tool for a in evidence.actions] == ["orchestration_list", "logging_query"]
    assert evidence.actions[1].arguments == {"workload": "report-renderer", "contains": "warn"}
    assert evidence.final_answer_after_step == 2
    assert evidence.scenario_id == "infra.capability.da.single-signal-diagnosis-001"
    assert evidence.metadata.source_format == "provebench" and evidence.metadata.agent_name == "t"
    (initial,) = evidence.state_snapshots
    assert isinstance(initial, FullStateSnapshot) and initial.taken_after_step == 0
    assert "SMTP_PORT" not in json.dumps(initial.state["configmap/default/smtp-config"])
    Evidence.model_validate_json(evidence.model_dump_json())


def test_a_write_changes_state_is_snapshotted_and_clears_the_symptom() -> None:
    session = Session.start(shipped(SMTP))
    session.call("orchestration_get", {"kind": "configmap", "name": "smtp-config"})
    patched = session.call(
        "orchestration_patch",
        {"kind": "configmap", "name": "smtp-config", "set": {"SMTP_PORT": "2525"}},
    )
    assert patched.error is None
    assert session.observation.unhealthy() == []
    again = session.call(
        "orchestration_patch",
        {"kind": "configmap", "name": "smtp-config", "set": {"SMTP_PORT": "2525"}},
    )
    assert "no change" in again.body
    evidence = session.evidence(final_answer="done")
    labels = [(s.label, s.taken_after_step) for s in evidence.state_snapshots]
    assert labels == [("initial", 0), ("after-step-2", 2)]
    assert isinstance(evidence.state_snapshots[1], FullStateSnapshot)
    assert evidence.state_snapshots[1].state["configmap/default/smtp-config"] == {
        "data": {"SMTP_HOST": "smtp.internal", "SMTP_PORT": "2525"}
    }


def test_scaling_the_stopped_dependency_back_clears_the_unready_pods() -> None:
    session = Session.start(shipped(STOPPED))
    assert session.observation.unhealthy()
    session.call("orchestration_scale", {"name": "orders-db", "replicas": 1, "namespace": "orders"})
    assert session.observation.unhealthy() == []


def _walk(session: Session) -> Evidence:
    for spec in session.tools:
        if spec.name.startswith("orchestration_list"):
            for kind in (
                "pod",
                "event",
                "deployment",
                "service",
                "configmap",
                "secret",
                "namespace",
            ):
                session.call(spec.name, {"kind": kind, "namespace": _namespace(session)})
    for pod in session.observation.pods:
        arguments = {"kind": "pod", "name": pod.name, "namespace": pod.namespace}
        session.call("orchestration_describe", arguments)
        session.call("orchestration_get", arguments)
        session.call("orchestration_logs", {"pod": pod.name, "namespace": pod.namespace})
    for name in ("logging_query", "tracing_search"):
        session.call(name, {"namespace": _namespace(session)})
    session.call(
        "metrics_query",
        {"metric": "kube_pod_container_status_restarts_total", "namespace": _namespace(session)},
    )
    return session.evidence(
        final_answer="an answer", reasoning_trace="r", agent_name="a", agent_version="1"
    )


def _namespace(session: Session) -> str:
    namespaces = session.scope.get("namespaces")
    assert isinstance(namespaces, list) and isinstance(namespaces[0], str)
    return namespaces[0]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_same_calls_give_the_same_evidence_bytes(path: Any) -> None:
    first = _walk(Session.start(shipped(path))).model_dump_json()
    second = _walk(Session.start(shipped(path))).model_dump_json()
    assert first == second


def test_a_correct_answer_scores_one_and_a_quoted_line_does_not() -> None:
    session = Session.start(shipped(SMTP))
    pod = session.observation.pods[0].name
    body = session.call("orchestration_describe", {"kind": "pod", "name": pod}).body
    scenario = shipped(SMTP)
    right = session.evidence(
        final_answer="The SMTP_PORT key is missing from configmap smtp-config."
    )
    assert evaluate(scenario, right).score == 1.0
    failed_line = next(line for line in body.splitlines() if "couldn't find key" in line)
    quoted = session.evidence(final_answer=failed_line)
    assert evaluate(scenario, quoted).score == 0.0  # echoed tool output names nothing (SI §2.1)


@pytest.mark.parametrize(
    ("path", "answer", "list_name"),
    [
        (PORT, "INVENTORY_PORT in checkout-config is wrong: 8081 instead of 8080.", "wrong_value"),
        (EXTRA, "indexer-config has an unknown extra key LEGACY_SHARD_COUNT.", "extra_key"),
        (
            STOPPED,
            "The orders-db deployment was scaled to zero, so orders-db is down.",
            "stopped_dependency",
        ),
    ],
)
def test_extension_synonym_lists_score_and_are_named_in_the_verdict(
    path: Any, answer: str, list_name: str
) -> None:
    scenario = shipped(path)
    session = Session.start(scenario)
    verdict = evaluate(scenario, session.evidence(final_answer=answer))
    assert verdict.score == 1.0
    assert f'"{list_name}": "provebench-ext-1"' in verdict.to_json()
