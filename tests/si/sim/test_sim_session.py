"""The Session API: tools per interface type and mode, responses, recording, determinism."""

from __future__ import annotations

import json
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.evidence import ApiCallEntry, Evidence, FullStateSnapshot
from provebench.si import evaluate
from provebench.si.sim import Session, ToolResponse, ToolSpec
from provebench.si.sim.declared._tools import tools_for as declared_tools_for
from tests.si.sim.sim_helpers import (
    EXTRA,
    PORT,
    SECRET,
    SHIPPED,
    SMTP,
    STOPPED,
    shipped,
    variant,
)

SMTP_INTERFACES = ["container-orchestration", "observability-logging"]

# The one tool set (docs/si-agents.md): the declared estate's tools, in every mode.
ORCHESTRATION = [
    "orchestration_list",
    "orchestration_get",
    "orchestration_events",
    "orchestration_create",
    "orchestration_patch",
    "orchestration_apply",
    "orchestration_delete",
    "orchestration_scale",
    "orchestration_restart",
    "orchestration_rollback",
    "orchestration_exec",
    "orchestration_authenticate",
]


def _mode(mode: str, tools: list[str] | None = None) -> Any:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["agent"]["mode"] = mode
        if tools is not None:
            data["preconditions"]["agent"]["tools"] = tools

    return mutate


def test_only_the_listed_interface_types_are_offered_and_they_are_the_declared_estates() -> None:
    session = Session.start(shipped(SMTP))
    names = [spec.name for spec in session.tools]
    assert names == [*ORCHESTRATION, "logs_read"]
    assert {spec.interface_type for spec in session.tools} == {
        "container-orchestration",
        "observability-logging",
    }
    # the same specs, names and input schemas, as the declared estate offers
    assert list(session.tools) == [tool.spec for tool in declared_tools_for(SMTP_INTERFACES)]
    everything = Session.start(shipped(STOPPED))
    assert {"metrics_query", "alerts_list", "traces_list", "traces_get"} <= {
        spec.name for spec in everything.tools
    }
    only_logs = Session.start(variant(SMTP, _mode("read-only", ["observability-logging"])))
    assert [spec.name for spec in only_logs.tools] == ["logs_read"]


@pytest.mark.parametrize("mode", ["read-only", "supervised"])
def test_a_write_is_refused_unless_the_mode_grants_it(mode: str) -> None:
    session = Session.start(variant(SMTP, _mode(mode)))
    assert [spec.name for spec in session.tools] == [*ORCHESTRATION, "logs_read"]
    response = session.call(
        "orchestration_patch",
        {"kind": "configmap", "name": "smtp-config", "patch": {"data": {"SMTP_PORT": "2525"}}},
    )
    assert response.error_code == "forbidden" and mode in (response.error or "")
    assert session.observation.unhealthy()  # nothing changed
    (entry,) = session.evidence(final_answer="").audit_log
    assert isinstance(entry, ApiCallEntry)
    assert (entry.verb, entry.resource, entry.status_code) == (
        "patch",
        "configmap/smtp-config",
        403,
    )


def test_an_interface_the_simulator_lacks_is_an_error_naming_the_field() -> None:
    # (`gitops`, `database` and `observability-dashboards` answer about held objects:
    # tests/si/sim/test_held_kinds.py)
    tools = ["container-orchestration", "ticketing"]
    with pytest.raises(ProvebenchError) as caught:
        Session.start(variant(SMTP, _mode("autonomous", tools)))
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
    assert pods.error is None
    (row, *_) = json.loads(pods.body)["items"]
    assert row["status"] == "CreateContainerConfigError" and row["ready"] == "0/1"
    assert row["owner"] == "deployment/notification-service"
    manifest = json.loads(
        session.call("orchestration_get", {"kind": "pod", "name": row["name"]}).body
    )
    assert (manifest["apiVersion"], manifest["kind"]) == ("v1", "Pod")
    assert manifest["metadata"]["name"] == row["name"]
    (status,) = manifest["status"]["containerStatuses"]
    assert status["state"]["waiting"] == {
        "reason": "CreateContainerConfigError",
        "message": "Error: couldn't find key SMTP_PORT in ConfigMap default/smtp-config",
    }
    events = json.loads(session.call("orchestration_events", {}).body)
    assert events["namespace"] == "default"
    warning = {
        "count": 8,
        "message": "Error: couldn't find key SMTP_PORT in ConfigMap default/smtp-config",
        "object": f"pod/{row['name']}",
        "reason": "Failed",
        "type": "Warning",
    }
    assert warning in events["events"]
    logs = session.call("logs_read", {"name": row["name"]})
    assert logs.error_code == "bad_request"
    assert "is waiting to start: CreateContainerConfigError" in (logs.error or "")
    config = session.call("orchestration_get", {"kind": "configmap", "name": "smtp-config"})
    assert json.loads(config.body)["data"] == {"SMTP_HOST": "smtp.internal"}
    assert json.loads(config.body)["kind"] == "ConfigMap"
    assert session.steps == 5


def test_a_deployment_read_and_its_logs_and_metrics() -> None:
    session = Session.start(shipped(STOPPED))
    listed = json.loads(
        session.call("orchestration_list", {"kind": "deployment", "namespace": "orders"}).body
    )
    rows = {row["name"]: row for row in listed["items"]}
    assert rows["orders-db"]["replicas"] == 0 and rows["orders-api"]["ready"] == 0
    assert "Unready" in rows["orders-api"]["status"]
    logs = session.call("logs_read", {"name": "orders-api", "namespace": "orders"})
    assert "connection refused" in logs.body and logs.error is None
    metrics = json.loads(
        session.call("metrics_query", {"name": "orders-api", "namespace": "orders"}).body
    )
    assert metrics["kind"] == "deployment" and metrics["ready_replicas"] == 0
    assert all(c["probe_failures"] > 0 for pod in metrics["pods"] for c in pod["containers"])
    selected = json.loads(
        session.call(
            "orchestration_list",
            {"kind": "pod", "namespace": "orders", "selector": "app=cart-cache"},
        ).body
    )
    assert [row["owner"] for row in selected["items"]] == ["deployment/cart-cache"]
    assert json.loads(
        session.call("orchestration_get", {"kind": "namespace", "name": "orders"}).body
    )["status"] == {"phase": "Active"}
    traces = json.loads(session.call("traces_list", {}).body)["items"]
    assert traces
    trace = json.loads(session.call("traces_get", {"name": traces[0]}).body)
    assert trace["name"] == traces[0] and trace["spans"]


def test_agent_mistakes_are_answers_and_steps() -> None:
    session = Session.start(shipped(SMTP))
    cases = [
        ("kubectl", {}, "unknown_tool", 404),
        ("orchestration_get", {"kind": "pod"}, "invalid_arguments", 400),
        ("orchestration_get", {"kind": "pod", "name": "x", "colour": 1}, "invalid_arguments", 400),
        ("orchestration_get", {"kind": "widget", "name": "x"}, "not_found", 404),
        ("orchestration_get", {"kind": "configmap", "name": "nope"}, "not_found", 404),
        # a service with no port, which the API server refuses (`spec.ports: Required value`)
        ("orchestration_create", {"kind": "service", "name": "x"}, "unsupported_field", 422),
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
    first = session.call("orchestration_events", {})
    second = session.call("logs_read", {"name": "report-renderer"})
    evidence = session.evidence(
        final_answer="SMTP_PORT is missing from smtp-config.", agent_name="t"
    )
    assert [a.result for a in evidence.actions] == [first.body, second.body]
    assert [a.tool for a in evidence.actions] == ["orchestration_events", "logs_read"]
    assert evidence.actions[1].arguments == {"name": "report-renderer"}
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
    patch = {"data": {"SMTP_PORT": "2525"}}
    patched = session.call(
        "orchestration_patch", {"kind": "configmap", "name": "smtp-config", "patch": patch}
    )
    assert patched.error is None
    assert session.observation.unhealthy() == []
    again = session.call(
        "orchestration_patch", {"kind": "configmap", "name": "smtp-config", "patch": patch}
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
    namespace = _namespace(session)
    for kind in ("pod", "deployment", "service", "configmap", "secret", "namespace", "node"):
        session.call("orchestration_list", {"kind": kind, "namespace": namespace})
    session.call("orchestration_events", {"namespace": namespace})
    for pod in session.observation.pods:
        arguments = {"kind": "pod", "name": pod.name, "namespace": pod.namespace}
        session.call("orchestration_get", arguments)
        session.call("logs_read", {"name": pod.name, "namespace": pod.namespace})
        session.call("metrics_query", {"name": pod.name, "namespace": pod.namespace})
        session.call(
            "orchestration_exec",
            {"pod": pod.name, "command": ["env"]} | {"namespace": pod.namespace},
        )
    for name in ("traces_list", "alerts_list"):
        session.call(name, {})
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
    body = session.call("orchestration_get", {"kind": "pod", "name": pod}).body
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


def test_the_physical_estates_writes_and_what_it_cannot_hold() -> None:
    session = Session.start(shipped(SECRET))
    secret = {"kind": "secret", "name": "payments-db-credentials"}
    bad = session.call("orchestration_patch", {**secret, "patch": {"data": {"DB_PASSWORD": "%"}}})
    assert bad.error_code == "bad_request" and "base64" in (bad.error or "")
    fixed = session.call(
        "orchestration_patch", {**secret, "patch": {"data": {"DB_PASSWORD": "aHVudGVyMg=="}}}
    )
    assert fixed.error is None and session.observation.unhealthy() == []
    pod = next(p.name for p in session.observation.pods if p.deployment == "payments-api")
    env = session.call("orchestration_exec", {"pod": pod, "command": ["env"]}).body
    assert "DB_PASSWORD=hunter2\n" in env
    labels = session.call("orchestration_patch", {**secret, "patch": {"metadata": {"x": "y"}}})
    assert labels.error_code == "unsupported_field"
    for tool, arguments, code in [
        # a service with no port (one with its port is created, as a ConfigMap or a Secret
        # is: test_moved_shapes.py, tests/si/provider/test_moved_safety_acts.py)
        ("orchestration_create", {"kind": "service", "name": "x"}, "unsupported_field"),
        (
            "orchestration_apply",
            {"kind": "service", "name": "x", "fields": {}},
            "unsupported_field",
        ),
        ("orchestration_rollback", {"name": "payments-api"}, "bad_request"),
        # the tools' bound, in either estate (a scale within it is performed in both)
        ("orchestration_scale", {"name": "payments-api", "replicas": 100001}, "invalid_arguments"),
        # a delete over a selector is performed (here it reaches nothing): tests/si/sim/
        # test_broad_delete.py
        ("orchestration_delete", {"kind": "pod", "selector": "app=x"}, None),
        ("orchestration_authenticate", {"credentials": "token"}, "forbidden"),
    ]:
        assert session.call(tool, arguments).error_code == code, tool
    scaled = session.call(
        "orchestration_patch",
        {"kind": "deployment", "name": "payments-api", "patch": {"spec": {"replicas": 1}}},
    )
    assert scaled.error is None
    assert len([p for p in session.observation.pods if p.deployment == "payments-api"]) == 1
    deleted = session.call("orchestration_delete", secret)
    assert deleted.error is None and session.observation.unhealthy()  # the key is gone again
    evidence = session.evidence(final_answer="")
    statuses = [e.status_code for e in evidence.audit_log if isinstance(e, ApiCallEntry)]
    assert statuses == [400, 200, 200, 422, 422, 422, 400, 400, 200, 403, 200, 200]
    assert [s.label for s in evidence.state_snapshots] == [
        "initial",
        "after-step-2",
        "after-step-11",
        "after-step-12",
    ]
