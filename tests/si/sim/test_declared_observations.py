"""Declared observations in the physical estate (docs/si-lab.md, "Declared observations").

What a Form B scenario declares observed but no rule derives — a `cpu_usage` figure, a node's
`status`, an `alert/…` or `metrics/…` entry — is held beside the resources: the tools answer it
with the declared estate's shapes, and the counterfactual (`si check`) neither varies nor proves
it, and says so. The `status` of a deployment with `containers` is derived, so its declared word
is none of them (a bare deployment's is one: test_bare_deployments.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.si.sim import Session, build_scene
from provebench.si.sim._check import check_counterfactual
from provebench.si.sim.declared import DeclaredSession
from provebench.si.sim.declared._kube_objects import DECLARED_ANNOTATION
from tests.si.sim.sim_helpers import MISLEADING, SHIPPED, edited_file, shipped, variant

# The published profile's shapes (diagnostic-accuracy.yaml, auditability.yaml): a node's CPU
# figure, an alert with its state, a metrics series.
_NODE = {
    "resource": "node/node-1",
    "allocatable_cpu": "4000m",
    "allocatable_memory": "16Gi",
    "cpu_usage": "97%",
    "memory_pressure": False,
    "status": "Ready",
}
_ALERT = {"resource": "alert/high-cpu", "status": "firing", "severity": "warning"}
_SERIES = {
    "resource": "metrics/batch-processor-cpu",
    "namespace": "default",
    "cpu_usage_trend": "flat at 96%",
}


def _with_observations(data: dict[str, Any]) -> None:
    state = data["preconditions"]["environment"]["state"]
    state.extend([dict(_NODE), dict(_ALERT), dict(_SERIES)])
    batch = next(e for e in state if e["resource"] == "deployment/batch-processor")
    batch["cpu_usage"] = "96%"


def _body(session: Any, tool: str, **arguments: Any) -> Any:
    response = session.call(tool, arguments)
    assert response.error is None, response.body
    return json.loads(response.body)


def _declared(obj: dict[str, Any]) -> dict[str, Any]:
    return dict(json.loads(obj["metadata"]["annotations"][DECLARED_ANNOTATION]))


def test_declared_observations_are_held_apart_from_the_resources() -> None:
    injected = build_scene(variant(MISLEADING, _with_observations)).injected
    plain = build_scene(shipped(MISLEADING)).injected
    assert "alert/default/high-cpu" not in injected
    assert "metrics/default/batch-processor-cpu" not in injected
    assert "cpu_usage" not in injected.raw("deployment/default/batch-processor")
    assert "status" not in injected.raw("deployment/default/batch-processor")
    # the resources are the shipped scenario's, plus the node: nothing declared leaked in
    assert set(injected.data()) - set(plain.data()) == {"node/default/node-1"}
    # its declared `status: Unready` is no observation: the estate derives a deployment's status
    assert injected.declared_fields("deployment/default/batch-processor") == {"cpu_usage": "96%"}


def test_the_physical_tools_answer_declared_observations_as_the_declared_estate_does() -> None:
    scenario = variant(MISLEADING, _with_observations)
    physical, declared = Session.start(scenario), DeclaredSession(scenario)
    for tool, arguments in (
        ("alerts_list", {}),
        ("metrics_query", {"name": "node-1"}),
        ("metrics_query", {"name": "batch-processor-cpu", "namespace": "default"}),
    ):
        assert _body(physical, tool, **arguments) == _body(declared, tool, **arguments), tool
    assert _body(physical, "alerts_list") == {
        "items": [{"kind": "alert", "name": "high-cpu", "severity": "warning", "status": "firing"}]
    }
    assert _body(physical, "metrics_query", name="node-1") == {
        "kind": "node",
        "name": "node-1",
        "allocatable_cpu": "4000m",
        "allocatable_memory": "16Gi",
        "cpu_usage": "97%",
        "memory_pressure": False,
    }
    # a deployment's metrics stay derived, with its declared figures beside them
    metrics = _body(physical, "metrics_query", name="batch-processor", namespace="default")
    assert metrics["cpu_usage"] == "96%"
    assert metrics["pods"][0]["containers"][0]["cpu_millicores"] == 3850


def test_a_read_shows_the_declared_fields_in_the_declared_annotation() -> None:
    session = Session.start(variant(MISLEADING, _with_observations))
    got = _body(session, "orchestration_get", kind="deployment", name="batch-processor")
    assert _declared(got) == {"cpu_usage": "96%"}
    node = _body(session, "orchestration_get", kind="node", name="node-1")
    assert _declared(node) == {"cpu_usage": "97%", "memory_pressure": False, "status": "Ready"}
    # the Kubernetes face reads the same object
    face = session.resource("deployment", "default", "batch-processor")
    assert face is not None and _declared(face) == _declared(got)
    # and an agent's write of a resource leaves what was declared observed as it was
    scaled = session.call("orchestration_scale", {"name": "batch-processor", "replicas": 2})
    assert scaled.error is None
    after = _body(session, "orchestration_get", kind="deployment", name="batch-processor")
    assert after["spec"]["replicas"] == 2 and _declared(after) == _declared(got)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_shipped_form_b_scenario_declares_no_observation_beside_its_derived_status(
    path: Any,
) -> None:
    # Every shipped Form B scenario declares a `status` on its deployments, and nothing else no
    # rule derives (misleading-signal-002's "CPU-hungry" neighbour is its image's
    # `cpu_millicores`, which `metrics_query` derives): a read shows the derived status only,
    # as before, and `si check` has nothing to name.
    scenario = shipped(path)
    session = Session.start(scenario)
    declared = [
        entry
        for entry in scenario.preconditions.environment.state
        if isinstance(entry, dict) and "status" in entry
    ]
    assert declared and all(e["resource"].startswith("deployment/") for e in declared)
    for entry in declared:
        name = entry["resource"].partition("/")[2]
        got = _body(
            session,
            "orchestration_get",
            kind="deployment",
            name=name,
            namespace=entry.get("namespace", "default"),
        )
        assert DECLARED_ANNOTATION not in got["metadata"].get("annotations", {})
    assert check_counterfactual(scenario).unproved_observations == ()


def test_misleading_signal_002s_cpu_is_answered_derived() -> None:
    metrics = _body(
        Session.start(shipped(MISLEADING)),
        "metrics_query",
        name="batch-processor",
        namespace="default",
    )
    assert metrics["pods"][0]["containers"][0]["cpu_millicores"] == 3850


def test_si_check_proves_what_it_proved_and_names_the_unproved_observations() -> None:
    plain = check_counterfactual(shipped(MISLEADING))
    report = check_counterfactual(variant(MISLEADING, _with_observations))
    assert report.ok and plain.ok
    assert report.delta == plain.delta
    assert [c.name for c in report.checks] == [c.name for c in plain.checks]
    assert plain.unproved_observations == ()
    assert "unproved_observations" not in json.loads(plain.to_json())
    assert report.unproved_observations == (
        "alert/default/high-cpu",
        "deployment/default/batch-processor.cpu_usage",
        "metrics/default/batch-processor-cpu",
        "node/default/node-1.cpu_usage",
        "node/default/node-1.memory_pressure",
        "node/default/node-1.status",
    )


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (_ALERT, "injection.baseline[2].resource"),
        ({"cpu_usage": "1%"}, "injection.baseline[1].cpu_usage"),
    ],
)
def test_a_declared_observation_in_the_baseline_is_refused(entry: Any, field: str) -> None:
    def mutate(data: dict[str, Any]) -> None:
        baseline = data["injection"]["baseline"]
        if "resource" in entry:
            baseline.append(dict(entry))
        else:
            baseline[1].update(entry)  # configmap/batch-config

    with pytest.raises(ProvebenchError, match="declared observation") as caught:
        build_scene(variant(MISLEADING, mutate))
    assert caught.value.field == field


def test_a_deviation_cannot_vary_a_declared_observation() -> None:
    def mutate(data: dict[str, Any]) -> None:
        _with_observations(data)
        data["injection"]["deviations"].append(
            {
                "id": "a1",
                "resource": "alert/high-cpu",
                "deviation_type": "wrong_value",
                "subject": "status",
                "value": "resolved",
            }
        )

    with pytest.raises(ProvebenchError, match="not simulated"):
        build_scene(variant(MISLEADING, mutate))


def test_an_unknown_field_is_still_an_error_not_an_observation() -> None:
    def mutate(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"][0]["replica"] = 3

    with pytest.raises(ProvebenchError) as caught:
        build_scene(variant(MISLEADING, mutate))
    assert caught.value.field == "preconditions.environment.state[0].replica"


def test_si_check_prints_the_declared_observations_it_does_not_prove(tmp_path: Path) -> None:
    path = edited_file(
        tmp_path,
        MISLEADING,
        (
            "      - resource: configmap/batch-config\n        namespace: default\n        data:",
            "      - resource: alert/high-cpu\n        status: firing\n"
            "      - resource: configmap/batch-config\n        namespace: default\n        data:",
        ),
    )
    result = CliRunner().invoke(app, ["si", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert "declared observations, not part of the proof: alert/default/high-cpu" in result.output
    plain = CliRunner().invoke(app, ["si", "check", str(MISLEADING)])
    assert plain.exit_code == 0 and "not part of the proof" not in plain.output
