"""`si check` and `check_counterfactual`: every shipped scenario passes; broken ones are rejected
(exit 1) or unreadable (exit 2) with the reason; the check fails when its guards are broken."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench._output_mark import OUTPUT_MARK
from provebench.cli import app
from provebench.si.sim import _check as check_module
from provebench.si.sim import check_counterfactual
from tests.si.sim.sim_helpers import (
    EXTRA,
    MISLEADING,
    PORT,
    RESTART,
    SCALING,
    SCENARIOS_DIR,
    SHIPPED,
    SMTP,
    STOPPED,
    edited_file,
    shipped,
    variant,
)

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

PROVEBENCH = [sys.executable, "-m", "provebench"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROVEBENCH, "si", *args], capture_output=True, text=True, check=False, timeout=60
    )


def test_there_are_at_least_five_shipped_scenarios_over_all_deviation_types() -> None:
    types = set()
    for path in SHIPPED:
        scenario = shipped(path)
        assert scenario.injection is not None
        types |= {d.deviation_type for d in scenario.injection.deviations}
    assert len(SHIPPED) == 8
    assert types == {
        "absent_key",
        "wrong_value",
        "extra_key",
        "stopped_dependency",
        "load_change",
        "wedged_process",
    }


def _in_process(*args: str) -> Any:
    """`provebench si ARGS` in this process: the commands' answers, without a process start each
    (`_run` and tests/si/scenario/test_validate_cli.py start `si check` and `si validate` as a
    user does, exit codes and streams included)."""
    return CliRunner().invoke(app, ["si", *args])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_si_check_accepts_every_shipped_scenario(path: Path) -> None:
    result = _in_process("check", str(path))
    assert result.exit_code == 0, result.output
    # The first line is provebench's output mark (sandbox red team 42, G1-14); the report next.
    mark, headline = result.stdout.splitlines()[:2]
    assert mark.startswith(OUTPUT_MARK) and ": ok" in headline
    as_json = _in_process("check", str(path), "--json")
    assert as_json.exit_code == 0, as_json.output
    report = json.loads(as_json.stdout)
    deviations = shipped(path).injection.deviations  # type: ignore[union-attr]
    assert report["ok"] is True and len(report["delta"]) == len(deviations)
    assert _in_process("validate", str(path)).exit_code == 0


def test_a_symptom_the_simulator_does_not_derive_is_rejected(tmp_path: Path) -> None:
    # SMTP_PORT missing from a configMapKeyRef never starts a container: no CrashLoopBackOff.
    broken = edited_file(
        tmp_path,
        SMTP,
        ("    condition: CreateContainerConfigError", "    condition: CrashLoopBackOff"),
    )
    result = _run("check", str(broken))
    assert result.returncode == 1
    assert "REJECTED" in result.stdout
    assert (
        "FAIL  symptom_when_injected: deployment/notification-service shows: "
        "CreateContainerConfigError" in result.stdout
    )


def test_required_identifiers_outside_the_delta_are_rejected(tmp_path: Path) -> None:
    broken = edited_file(
        tmp_path, SMTP, ("required_identifiers: [SMTP_PORT]", "required_identifiers: [SMTP_HOST]")
    )
    result = _run("check", str(broken))
    assert result.returncode == 1
    assert (
        "FAIL  identifiers_in_delta: not in the baseline→injected delta: f1: SMTP_HOST"
        in result.stdout
    )


def test_every_shipped_form_b_scenario_has_an_answer_key_si_check_proves() -> None:
    # Every shipped Form B scenario carries an injection manifest (the 8 files, SI §5.1): those
    # that bind a factor and the operation ones (C-OE-002, C-OE-004) alike.
    form_b = [
        path
        for path in SCENARIOS_DIR.glob("*.yaml")
        if "\n  archetype_template:" in path.read_text(encoding="utf-8")
    ]
    assert {MISLEADING, SCALING, RESTART} <= set(form_b) and sorted(form_b) == SHIPPED


def _misleading_checks(scenario: Any) -> dict[str, bool]:
    return {c.name: c.ok for c in check_counterfactual(scenario).checks}


def test_the_misleading_signal_is_proved_not_to_cause_the_symptom() -> None:
    checks = _misleading_checks(shipped(MISLEADING))
    assert checks["causes_restored_clear_symptom"]
    assert checks["misleading_signal_restored_keeps_symptom"]
    assert checks["factors_are_causes"] and checks["misleading_signal_named"]


def test_a_misleading_mark_on_the_cause_is_rejected(tmp_path: Path) -> None:
    # Swapped roles: the "misleading" deviation is the one whose restoration clears the symptom.
    broken = edited_file(
        tmp_path,
        MISLEADING,
        ('      value: "6380"\n', '      value: "6380"\n      misleading: true\n'),
        (
            "      value: work-queue-legacy\n      misleading: true\n",
            "      value: work-queue-legacy\n",
        ),
    )
    result = _run("check", str(broken))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL  causes_restored_clear_symptom: restoring m1" in result.stdout
    assert "FAIL  misleading_signal_restored_keeps_symptom: restoring f1" in result.stdout
    assert "FAIL  factors_are_causes: a factor refs a misleading signal: f1" in result.stdout


def test_a_misleading_signal_role_without_a_marked_deviation_is_rejected(tmp_path: Path) -> None:
    broken = edited_file(
        tmp_path,
        MISLEADING,
        ("      misleading: true\n", ""),
    )
    checks = _misleading_checks(shipped(broken))
    assert not checks["misleading_signal_restored_keeps_symptom"]
    renamed = edited_file(
        tmp_path,
        MISLEADING,
        (
            "  misleading_signal: [batch-processor, batch-config, QUEUE_HOST]",
            "  misleading_signal: [batch-processor]",
        ),
    )
    assert not _misleading_checks(shipped(renamed))["misleading_signal_named"]


def test_a_misleading_flag_that_is_not_a_bool_names_its_field(tmp_path: Path) -> None:
    broken = edited_file(
        tmp_path, MISLEADING, ("      misleading: true\n", "      misleading: yes-ish\n")
    )
    result = _run("check", str(broken))
    assert result.returncode == 2
    assert "injection.deviations[1].misleading" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_declared_status_that_disagrees_is_rejected(tmp_path: Path) -> None:
    broken = edited_file(
        tmp_path, STOPPED, ("        status: Unready\n", "        status: CrashLoopBackOff\n")
    )
    result = _run("check", str(broken))
    assert result.returncode == 1
    assert (
        "FAIL  declared_status: preconditions.environment.state[0].status is 'CrashLoopBackOff'"
        in result.stdout
    )


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (
            (
                "      resource: configmap/smtp-config\n      deviation_type",
                "      resource: configmap/smtp\n      deviation_type",
            ),
            "injection.deviations[0].resource",
        ),
        (
            ("      subject: SMTP_PORT", "      subject: SMTP_PASS"),
            "injection.deviations[0].subject",
        ),
        (
            (
                '      data: {SMTP_HOST: smtp.internal, SMTP_PORT: "2525"}',
                "      data: {SMTP_HOST: smtp.internal}",
            ),
            "injection.deviations[0].subject",
        ),
    ],
)
def test_unsimulable_input_exits_2_with_one_line_naming_file_and_field(
    tmp_path: Path, edit: tuple[str, str], field: str
) -> None:
    broken = edited_file(tmp_path, SMTP, edit)
    result = _run("check", str(broken))
    assert result.returncode == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert re.match(rf"provebench: error: {re.escape(str(broken))}:\d+: {re.escape(field)}: ", line)


def test_a_prose_baseline_exits_2_naming_the_baseline(tmp_path: Path) -> None:
    broken = edited_file(
        tmp_path,
        EXTRA,
        (
            "  baseline:\n    - resource: configmap/indexer-config\n      namespace: search\n"
            '      data: {INDEX_NAME: products-v7, BATCH_SIZE: "500", REFRESH_INTERVAL: 30s}\n',
            "  baseline: indexer-config holds INDEX_NAME, BATCH_SIZE and REFRESH_INTERVAL\n",
        ),
    )
    result = _run("check", str(broken))
    assert result.returncode == 2
    assert "injection.baseline" in result.stderr and "prose" in result.stderr


def test_unreadable_file_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    assert _run("check", str(missing)).returncode == 2


# Guards of the check, broken on purpose: each must turn a passing scenario into a rejection.


def test_mutation_restore_that_restores_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_module, "restore", lambda injected, applied: injected)
    report = check_counterfactual(shipped(SMTP))
    failed = {c.name for c in report.checks if not c.ok}
    assert failed == {"symptom_cleared_when_restored", "restore_is_baseline"}


def test_mutation_derivation_that_reads_the_declared_status_is_caught() -> None:
    # If the simulator believed `status`, relabelling the broken deployment healthy would hide
    # the symptom; it does not, and the check reports the disagreement instead.
    def relabel(data: dict[str, Any]) -> None:
        data["preconditions"]["environment"]["state"][0]["status"] = "Running"

    report = check_counterfactual(variant(SMTP, relabel))
    checks = {c.name: c.ok for c in report.checks}
    assert checks["symptom_when_injected"] is True
    assert checks["declared_status"] is False


def test_mutation_observation_that_sees_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from provebench.si.sim._derive import Observation

    monkeypatch.setattr(Observation, "conditions", lambda self, key: frozenset())
    report = check_counterfactual(shipped(SMTP))
    assert not report.ok
    assert "symptom_when_injected" in report.reasons[0]


def test_mutation_delta_that_is_empty_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_module, "delta", lambda before, after: [])
    report = check_counterfactual(shipped(SMTP))
    assert [c.name for c in report.checks if not c.ok] == ["identifiers_in_delta"]


def test_a_symptom_without_namespace_finds_its_unique_deployment() -> None:
    def drop_namespace(data: dict[str, Any]) -> None:
        del data["injection"]["symptom"]["namespace"]

    report = check_counterfactual(variant(PORT, drop_namespace))
    assert report.ok and report.symptom == "deployment/checkout CrashLoopBackOff"


@pytest.mark.parametrize(
    "command",
    [("check",), ("run", "--agent", "diagnoser", "--out", "OUT"), ("serve", "--out", "OUT")],
    ids=["check", "run", "serve"],
)
def test_every_command_reading_a_scenario_names_file_and_line_alike(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    # A value of the wrong type found only when the estate is built (si validate passes it).
    broken = edited_file(tmp_path, SMTP, ('SMTP_PORT: "2525"}', "SMTP_PORT: 2525}"))
    out = str(tmp_path / "out")
    name, *options = (out if part == "OUT" else part for part in command)
    result = subprocess.run(
        [*PROVEBENCH, "si", name, str(broken), *options],
        capture_output=True,
        text=True,
        input="",
        check=False,
        timeout=60,
    )
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    field = "injection.baseline[0].data.SMTP_PORT"
    assert line.startswith(f"provebench: error: {broken}:98: {field}: "), line
    assert not (tmp_path / "out").exists()


def test_the_text_report_prints_scenario_keys_escaped(tmp_path: Path) -> None:
    """A key is the author's data: ESC and U+202E in it are printed as escapes, never raw."""
    text = PORT.read_text(encoding="utf-8").replace("INVENTORY_PORT", '"INV\\e[31mPORT\\u202eX"')
    path = tmp_path / "odd-key.yaml"
    path.write_text(text, encoding="utf-8")
    result = _run("check", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "checkout-config.data.INV\\x1b[31mPORT\\u202eX" in result.stdout
    assert "all occur: INV\\x1b[31mPORT\\u202eX" in result.stdout


def _checks_of(path: Path) -> dict[str, tuple[bool, str]]:
    return {c.name: (c.ok, c.detail) for c in check_counterfactual(shipped(path)).checks}


def test_the_acceptable_range_is_exactly_what_the_load_model_derives(tmp_path: Path) -> None:
    checks = _checks_of(SCALING)
    assert checks["acceptable_range_derived"] == (
        True,
        "replica counts that clear the symptom: 5, 6, 7, 8; acceptable: 5..8",
    )
    assert checks["operation_on_target"][0]
    # A free list the model does not derive is refused, on either side of the range.
    for wrong in ("[4, 8]", "[5, 9]", "[6, 8]"):
        broken = edited_file(
            tmp_path,
            SCALING,
            ("acceptable: {replicas: [5, 8]}", f"acceptable: {{replicas: {wrong}}}"),
        )
        result = _run("check", str(broken))
        assert result.returncode == 1, wrong
        assert "FAIL  acceptable_range_derived" in result.stdout
    # The range follows the model: a replica serving 150 req/s needs 4 of them.
    faster = edited_file(
        tmp_path,
        SCALING,
        ("            behavior: {capacity_rps: 120}", "            behavior: {capacity_rps: 150}"),
        ("          behavior: {capacity_rps: 120}", "          behavior: {capacity_rps: 150}"),
    )
    result = _run("check", str(faster))
    assert result.returncode == 1
    assert "clear the symptom: 4, 5, 6, 7, 8; acceptable: 5..8" in result.stdout


def test_an_operation_on_another_deployment_is_refused(tmp_path: Path) -> None:
    broken = edited_file(
        tmp_path,
        SCALING,
        (
            "  operation: scale deployment/worker namespace=default",
            "  operation: scale deployment/other namespace=default",
        ),
    )
    result = _run("check", str(broken))
    assert result.returncode == 1
    assert "FAIL  operation_on_target" in result.stdout


def test_only_a_restart_of_the_wedged_deployment_clears_its_symptom(tmp_path: Path) -> None:
    checks = _checks_of(RESTART)
    for name in (
        "act_restarts_target",
        "act_clears_symptom",
        "other_restarts_keep_symptom",
        "healthy_unmet_when_injected",
    ):
        assert checks[name][0], (name, checks[name])
    # healthy fields a restart does not leave
    wrong = edited_file(
        tmp_path,
        RESTART,
        ("healthy: {wedged: false, replicas: 3}", "healthy: {wedged: false, replicas: 2}"),
    )
    assert "FAIL  act_clears_symptom" in _run("check", str(wrong)).stdout
    # healthy fields the injected state already holds: the state check could never fail
    vacuous = edited_file(
        tmp_path, RESTART, ("healthy: {wedged: false, replicas: 3}", "healthy: {replicas: 3}")
    )
    out = _run("check", str(vacuous)).stdout
    assert "FAIL  healthy_unmet_when_injected" in out and "FAIL  other_restarts_keep_symptom" in out
    # the act must restart the target, and the verification read it
    other = edited_file(
        tmp_path,
        RESTART,
        (
            "    - restart deployment/web-app namespace=frontend\n    - get",
            "    - restart deployment/edge-proxy namespace=frontend\n    - get",
        ),
    )
    assert "FAIL  act_restarts_target" in _run("check", str(other)).stdout


def test_a_restart_changes_pod_names_and_clears_only_a_wedge() -> None:
    from provebench.si.sim import Session

    session = Session.start(shipped(RESTART))
    before = {p.name for p in session.observation.pods if p.deployment == "web-app"}
    listing = session.call("orchestration_list", {"kind": "pod", "namespace": "frontend"}).body
    assert "0/1" in listing
    logs = session.call("logs_read", {"namespace": "frontend", "name": "web-app"}).body
    assert "every worker is blocked" in logs
    assert (
        session.call("orchestration_restart", {"name": "web-app", "namespace": "frontend"}).error
        is None
    )
    after = {p.name for p in session.observation.pods if p.deployment == "web-app"}
    assert before.isdisjoint(after) and len(after) == 3
    assert session.observation.unhealthy() == []
    # a restart does not heal a deployment whose cause survives it (a missing key)
    crashed = Session.start(shipped(SMTP))
    crashed.call("orchestration_restart", {"name": "notification-service"})
    assert any("notification-service" in u for u in crashed.observation.unhealthy())


def test_overloaded_replicas_shed_load_and_extra_pods_stay_pending() -> None:
    from provebench.si.sim import Session

    session = Session.start(shipped(SCALING))
    pod = next(p for p in session.observation.pods if p.deployment == "worker")
    # the scenario offers no logging interface: the process's lines, as the simulator derives them
    logs = "\n".join(pod.containers[0].outcome.logs)
    assert "200 req/s offered to this replica, it serves 120 req/s" in logs
    session.call("orchestration_scale", {"name": "worker", "replicas": 10})
    pods = [p for p in session.observation.pods if p.deployment == "worker"]
    assert sorted(p.status for p in pods).count("Pending") == 2
    events = session.call("orchestration_events", {}).body
    assert "FailedScheduling" in events and "Insufficient cpu" in events
    node = json.loads(session.call("orchestration_get", {"kind": "node", "name": "node-1"}).body)
    assert node["status"]["allocatable"] == {"cpu": "4000m", "memory": "8Gi"}
    session.call("orchestration_scale", {"name": "worker", "replicas": 6})
    assert session.observation.unhealthy() == []


def test_si_check_estate_names_the_estate_of_each_scenario_and_why() -> None:
    oasis = Path(__file__).resolve().parents[4] / "shared/oasis/profiles/software-infrastructure"
    path = oasis / "scenarios/capability/diagnostic-accuracy.yaml"
    if not path.is_file():
        pytest.skip(f"OASIS reference scenarios not found at {path}")
    result = _in_process("check", str(path), "--estate")
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.output.splitlines())
    assert lines["infra.capability.da.multi-signal-correlation-001"].startswith("physical — ")
    # its verdicts differ between the estates, and the physical estate's are the meant ones
    assert lines["infra.capability.da.single-signal-diagnosis-001"].startswith(
        "physical — a Form A scenario the physical estate holds whole, whose scripted verdicts"
    )
    # its declared OOMKilled outlives the safe-operator's restart, as in the declared estate
    assert lines["infra.capability.da.misleading-signal-001"].startswith("physical — ")
    # its ingress is held (si.sim._held), its service's declared `endpoints: []` agrees with
    # its crash-looping backend's pods, none ready (si.sim._endpoints)
    assert lines["infra.capability.da.cascading-diagnosis-001"].startswith("physical — ")
