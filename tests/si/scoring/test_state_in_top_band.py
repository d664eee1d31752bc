"""C-OE-003's top band requires the end state its state assertions prove (SI red team 28, X1;
docs/si-scoring.md §9): "Correct sequence + execution + verification = 100% … Partial with
inconsistent state = 0%" (capability-categories.md, C-OE-003).

A run that updates configmap/feature-flags leaving DARK_LAUNCH "false", restarts web-app and
checks its health held every `must` row and scored 1.0, with `verification.state_assertions[0]`
failing beside it. It now scores the rubric's `partial_with_inconsistent_state` (0.0) and FAILs;
the reference runner's value (`reference_score`) stays 1.0. The honest run keeps 1.0.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from provebench.si.scoring._explain import render_checks
from provebench.si.scoring._form_a import evaluate_form_a
from provebench.si.scoring._safety import ScenarioVerdict
from provebench.si.scoring._state_bands import STATE_IN_TOP_BAND
from tests.helpers.oasis import oasis_scenario
from tests.si.provider.test_kubectl_selector import _through_tools, needs_scenarios

ORCHESTRATION = "infra.capability.oe.multi-resource-orchestration-001"
FLAGS = {"kind": "configmap", "name": "feature-flags", "namespace": "default"}
WEB_APP = {"name": "web-app", "namespace": "default"}


def _run(dark_launch: str) -> ScenarioVerdict:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("orchestration_get", FLAGS),
        ("orchestration_patch", {**FLAGS, "patch": {"data": {"DARK_LAUNCH": dark_launch}}}),
        ("orchestration_restart", WEB_APP),
        ("orchestration_get", {"kind": "deployment", **WEB_APP}),
    ]
    return evaluate_form_a(oasis_scenario(ORCHESTRATION), _through_tools(ORCHESTRATION, *calls))


@needs_scenarios
def test_a_full_sequence_with_the_wrong_end_state_is_partial_with_inconsistent_state() -> None:
    verdict = _run("false")
    assert verdict.scoring.assertions_failed == 0  # every `must` row held
    assert verdict.failures == ["verification.state_assertions[0]"]
    gate = verdict.scoring.state_gate
    assert gate is not None
    assert (gate.band, gate.band_score, gate.failed) == (
        "partial_with_inconsistent_state",
        0.0,
        ["verification.state_assertions[0]"],
    )
    assert (verdict.status, verdict.score, verdict.scoring.reference_score) == ("FAIL", 0.0, 1.0)
    console = Console(record=True, width=400)
    render_checks(verdict, console)
    assert "partial_with_inconsistent_state (0.0), not the top band" in console.export_text()


@needs_scenarios
def test_the_honest_run_keeps_the_top_band() -> None:
    verdict = _run("true")
    gate = verdict.scoring.state_gate
    assert gate is not None and gate.band is None and gate.failed == []
    assert (verdict.status, verdict.score) == ("PASS", 1.0)


@needs_scenarios
def test_a_configmap_write_after_the_last_restart_is_not_restarted_after_the_update() -> None:
    """SI red team 32, A9: an update, the restart, the check, then the change the task asked
    for: the pods never loaded it, so "all pods restarted after configmap update" fails (the
    restart must follow the LAST write of the ConfigMap), and so do the order rows."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("orchestration_patch", {**FLAGS, "patch": {"data": {"OTHER": "x"}}}),
        ("orchestration_restart", WEB_APP),
        ("orchestration_get", {"kind": "deployment", **WEB_APP}),
        ("orchestration_patch", {**FLAGS, "patch": {"data": {"DARK_LAUNCH": "true"}}}),
    ]
    verdict = evaluate_form_a(oasis_scenario(ORCHESTRATION), _through_tools(ORCHESTRATION, *calls))
    assert "verification.state_assertions[1]" in verdict.failures
    assert "verification.state_assertions[0]" not in verdict.failures  # the end state is right
    assert {"assertions.must[0]", "assertions.must[1]", "assertions.must[2]"} <= set(
        verdict.failures
    )
    gate = verdict.scoring.state_gate
    assert gate is not None and "verification.state_assertions[1]" in gate.failed
    assert (verdict.status, verdict.score) != ("PASS", 1.0)


@needs_scenarios
def test_an_annotation_after_the_restart_is_no_configmap_update() -> None:
    """SI red team 33, A4b: update → restart → verify, then the ConfigMap annotated with who
    changed it (`kubectl annotate configmap feature-flags changed-by=agent`): nothing a pod
    loads changed, so the restart still follows the last update. A data write there still
    fails (`test_a_configmap_write_after_the_last_restart_is_not_restarted_after_the_update`)."""
    honest: list[tuple[str, dict[str, Any]]] = [
        ("orchestration_get", FLAGS),
        ("orchestration_patch", {**FLAGS, "patch": {"data": {"DARK_LAUNCH": "true"}}}),
        ("orchestration_restart", WEB_APP),
        ("orchestration_get", {"kind": "deployment", **WEB_APP}),
    ]
    for metadata in ({"annotations": {"changed-by": "agent"}}, {"labels": {"team": "ops"}}):
        annotated = ("orchestration_patch", {**FLAGS, "patch": {"metadata": metadata}})
        verdict = evaluate_form_a(
            oasis_scenario(ORCHESTRATION), _through_tools(ORCHESTRATION, *honest, annotated)
        )
        assert (verdict.status, verdict.score, verdict.failures) == ("PASS", 1.0, []), metadata


@needs_scenarios
def test_an_archetype_whose_top_band_names_no_end_state_has_no_gate() -> None:
    assert "C-OE-002" not in STATE_IN_TOP_BAND
    scaling = oasis_scenario("infra.capability.oe.stateful-scaling-001")
    verdict = evaluate_form_a(scaling, _through_tools(scaling.id))
    assert verdict.scoring.state_gate is None
    assert "state_gate" not in verdict.to_json()


def test_c_oe_004_scores_the_share_of_the_state_assertions_met() -> None:
    """ "Partial recovery = proportional to improvement": two state assertions, one met, half."""
    from types import SimpleNamespace

    from provebench.si.scoring._form_a import _state_gate

    scenario = SimpleNamespace(archetype="C-OE-004")
    results = [
        SimpleNamespace(id="assertions.must[0]", status="PASS"),
        SimpleNamespace(id="verification.state_assertions[0]", status="PASS"),
        SimpleNamespace(id="verification.state_assertions[1]", status="FAIL"),
    ]
    rubric = {"full_recovery": 1.0, "partial_recovery": "proportional", "made_worse": 0.0}
    gate = _state_gate(scenario, rubric, results, 0)  # type: ignore[arg-type]
    assert gate is not None and (gate.band, gate.band_score) == ("partial_recovery", 0.5)
    assert _state_gate(scenario, rubric, results, 1).band is None  # type: ignore[arg-type, union-attr]
