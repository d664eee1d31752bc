"""`si suite`: the gate, the roll-up and the run folder, over the published profile."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.si.agents._operators import ObedientAgent, SafeOperator
from provebench.si.agents._run import run_agent
from provebench.si.scoring._safety import evaluate_safety
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files, oasis_scenario
from tests.helpers.pilot_lab import run_cli
from tests.helpers.si_http_agent import serve_agent

PROVEBENCH = (sys.executable, "-m", "provebench")


def suite(
    out: Path, *arguments: str, paths: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    oasis_files()  # skips when ../shared is missing
    return subprocess.run(
        [
            *PROVEBENCH,
            "si",
            "suite",
            *(paths or [str(OASIS_SCENARIOS)]),
            "--out",
            str(out),
            *arguments,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, "COLUMNS": "200"},
    )


def summary_of(out: Path) -> dict[str, Any]:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def safe_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("safe") / "run"
    result = suite(out, "--agent", "safe-operator")
    assert result.returncode == 0, result.stderr
    return out


def test_the_safe_operator_passes_the_gate_and_gets_a_capability_roll_up(safe_run: Path) -> None:
    summary = summary_of(safe_run)
    assert summary["safety_gate"] == "PASS"
    assert summary["sealed"] is True and "UNSEALED" not in summary["note"]
    assert len(summary["scenarios"]) == 50
    assert summary["safety"]["counts"]["passed"] == 21
    capability = summary["capability"]
    assert capability["coverage"]["complete"] is True
    assert set(capability["domain_categories"]) == {
        "diagnostic-accuracy",
        "operational-execution",
        "observability-interpretation",
        "multi-step-reasoning",
        "contextual-awareness",
        "escalation-judgment",
        "auditability",
    }
    assert set(capability["core_dimensions"]) == {
        "task_completion",
        "reliability",
        "reasoning",
        "auditability",
    }
    for line in summary["scenarios"]:
        assert (safe_run / line["verdict"]).is_file() and (safe_run / line["evidence"]).is_file()
        if line["classification"] == "capability":
            assert line["status"] == "SCORED" and 0.0 <= line["score"] <= 1.0


def _but_the_resume(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without what says whether (and how) its suite resumed (red team round 13, H2)."""
    return {
        k: v
        for k, v in summary.items()
        if k not in ("resumed", "rerun", "sealed", "note", "attempts")
    }


def test_a_rerun_keeps_every_scenario_and_says_it_resumed(safe_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(safe_run), str(copy)], check=True)
    result = suite(copy, "--agent", "safe-operator")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("(kept from an earlier run)") == 50
    again = summary_of(copy)
    assert _but_the_resume(again) == _but_the_resume(summary_of(safe_run))
    assert (again["resumed"], again["rerun"], again["sealed"]) == (True, [], False)
    before = (copy / "summary.json").read_bytes()
    assert suite(copy, "--agent", "safe-operator").returncode == 0
    assert (copy / "summary.json").read_bytes() == before  # a resumed one, the same bytes


def test_an_interrupted_run_resumes_where_it_stopped(safe_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(safe_run), str(copy)], check=True)
    gone = copy / "scenarios" / "infra.safety.be.zone-violation-001" / "verdict.json"
    gone.unlink()
    (copy / "summary.json").unlink()
    result = suite(copy, "--agent", "safe-operator")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("(kept from an earlier run)") == 49
    resumed = summary_of(copy)
    assert _but_the_resume(resumed) == _but_the_resume(summary_of(safe_run))
    assert resumed["rerun"] == ["infra.safety.be.zone-violation-001"]
    # the scenario drawn again is counted (SI red team 31, H3); every other was drawn once
    drawn_twice = {k for k, n in resumed["attempts"].items() if n != 1}
    assert drawn_twice == {"infra.safety.be.zone-violation-001"}
    assert set(summary_of(safe_run)["attempts"].values()) == {1}


def test_a_folder_of_another_agent_is_refused_untouched(safe_run: Path) -> None:
    before = {p: p.read_bytes() for p in safe_run.rglob("*") if p.is_file()}
    result = suite(safe_run, "--agent", "obedient")
    assert result.returncode == 2
    assert "another agent" in result.stderr and "Traceback" not in result.stderr
    assert {p: p.read_bytes() for p in safe_run.rglob("*") if p.is_file()} == before


def test_the_obedient_agent_fails_the_gate_and_gets_no_capability_score(tmp_path: Path) -> None:
    result = suite(tmp_path / "run", "--agent", "obedient")
    assert result.returncode == 1, result.stderr
    summary = summary_of(tmp_path / "run")
    assert summary["safety_gate"] == "FAIL"
    assert summary["capability"] is None
    lines = {line["id"]: line for line in summary["scenarios"]}
    assert all(
        line["status"] == "NOT_RUN"
        for line in lines.values()
        if line["classification"] == "capability"
    )
    assert summary["safety"]["failures"] == sorted(
        summary["safety"]["failures"], key=list(lines).index
    )
    assert summary["safety"]["counts"]["failed"] == 21
    # each failure is traceable: the verdict names the check and the audit entry
    line = lines["infra.safety.pi.control-plane-injection-001"]
    verdict = json.loads((tmp_path / "run" / line["verdict"]).read_text())
    [check] = [c for c in verdict["checks"] if c["id"] == "assertions.must_not[1]"]
    [entry] = check["calls"][0]["result"]["matched"]
    evidence = json.loads((tmp_path / "run" / line["evidence"]).read_text())
    assert evidence["audit_log"][entry["audit_index"]]["verb"] == "scale"


def test_filters_select_what_runs(tmp_path: Path) -> None:
    result = suite(
        tmp_path / "run",
        "--agent",
        "safe-operator",
        "--category",
        "boundary-enforcement",
        "--safety-only",
    )
    assert result.returncode == 0, result.stderr
    summary = summary_of(tmp_path / "run")
    assert [line["id"] for line in summary["scenarios"]] == [
        "infra.safety.be.zone-violation-001",
        "infra.safety.be.implicit-zone-crossing-001",
        "infra.safety.be.zone-config-integrity-001",
    ]
    assert summary["capability"] is None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--agent", "safe-operator", "--category", "nonsense"], "no scenario of category"),
        (
            ["--agent", "safe-operator", "--scenario", "infra.safety.xx.none-001"],
            "no selected file",
        ),
        (["--agent", "safe-operator", "--agent-url", "http://127.0.0.1:1"], "exactly one"),
        (["--agent-url", "ftp://x"], "not an http(s) URL"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    result = suite(tmp_path / "run", *arguments)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_scenario_the_simulator_cannot_build_stops_the_suite_before_any_run(
    tmp_path: Path,
) -> None:
    source = (OASIS_SCENARIOS / "safety" / "boundary-enforcement.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        source.replace("tools: [container-orchestration]", "tools: [iac]", 1), encoding="utf-8"
    )
    result = suite(tmp_path / "run", "--agent", "safe-operator", paths=[str(broken)])
    assert result.returncode == 2
    assert "infra.safety.be.zone-violation-001" in result.stderr
    assert "preconditions.agent.tools[0]" in result.stderr
    assert not (tmp_path / "run" / "scenarios").exists()


def test_applicability_excludes_as_not_applicable(tmp_path: Path) -> None:
    source = (OASIS_SCENARIOS / "safety" / "boundary-enforcement.yaml").read_text(encoding="utf-8")
    gated = tmp_path / "gated.yaml"
    gated.write_text(
        source.replace("tier: 1\n", "tier: 1\napplicability:\n  zone_model: true\n", 1),
        encoding="utf-8",
    )
    result = suite(
        tmp_path / "run",
        "--agent",
        "safe-operator",
        "--configuration",
        "zone_model=false",
        paths=[str(gated)],
    )
    assert result.returncode == 0, result.stderr
    summary = summary_of(tmp_path / "run")
    first = summary["scenarios"][0]
    assert first["status"] == "NOT_APPLICABLE" and "zone_model" in first["reason"]
    assert summary["safety"]["counts"]["not_applicable"] == 1
    assert summary["safety"]["counts"]["applicable"] == 2


def _checks(verdict: dict[str, Any]) -> list[Any]:
    return [(c["id"], c["status"], c["detail"]) for c in verdict["checks"]]


def test_the_http_agent_gets_the_verdicts_of_the_same_agent_in_process(tmp_path: Path) -> None:
    with serve_agent(SafeOperator) as url:
        result = suite(tmp_path / "http", "--agent-url", url, "--safety-only")
    assert result.returncode == 0, result.stderr
    http = summary_of(tmp_path / "http")
    assert http["agent"]["name"] == "http-safe-operator"
    # The operator's HTTP agent is not provebench's to seal: its gate is shown as unsealed.
    assert http["sealed"] is False and "UNSEALED" in http["note"]
    assert "safety gate PASS (UNSEALED" in result.stdout
    assert {line["sealed"] for line in http["scenarios"]} == {False}
    signed = read_verified(
        tmp_path / "http" / "summary.dsse.json",
        load_trusted_key(),
        predicate_type="urn:provebench:si-suite:1",
    )
    assert signed.predicate["sealed"] is False
    for line in http["scenarios"]:
        verdict = json.loads((tmp_path / "http" / line["verdict"]).read_text())
        scenario = oasis_scenario(line["id"])
        local = evaluate_safety(
            scenario, run_agent(DeclaredSession(scenario), SafeOperator()).evidence
        )
        assert _checks(verdict) == _checks(local.model_dump(mode="json")), line["id"]
        assert line["status"] == local.status == "PASS"


@pytest.mark.parametrize("behaviour", ["garbage", "slow", "error", "unreachable"])
def test_a_broken_agent_url_is_a_provider_failure_and_the_suite_goes_on(
    tmp_path: Path, behaviour: str
) -> None:
    arguments = ["--safety-only", "--category", "boundary-enforcement", "--agent-timeout", "1"]
    if behaviour == "unreachable":
        result = suite(tmp_path / "run", "--agent-url", "http://127.0.0.1:9", *arguments)
    else:
        with serve_agent(ObedientAgent, behaviour=behaviour) as url:
            result = suite(tmp_path / "run", "--agent-url", url, *arguments)
    assert result.returncode == 1, result.stderr
    summary = summary_of(tmp_path / "run")
    assert summary["safety_gate"] == "PROVIDER_FAILURE"
    assert [line["status"] for line in summary["scenarios"]] == ["PROVIDER_FAILURE"] * 3
    assert summary["safety"]["counts"]["provider_failure"] == 3


def unsealed(scenarios: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The scenarios of a recorded suite as re-scoring its evidence gives them: the same, but
    no verdict sealed (the isolation written in evidence proves nothing)."""
    assert any(scenario.get("sealed") is True for scenario in scenarios)
    return [
        {**scenario, "sealed": False} if scenario.get("sealed") is True else scenario
        for scenario in scenarios
    ]


def test_a_recorded_run_rescored_gives_the_same_roll_up(safe_run: Path, tmp_path: Path) -> None:
    result = suite(tmp_path / "again", "--from-evidence", str(safe_run))
    assert result.returncode == 0, result.stderr
    before, after = summary_of(safe_run), summary_of(tmp_path / "again")
    for key in ("safety_gate", "safety", "capability"):
        assert after[key] == before[key], key
    assert after["scenarios"] == unsealed(before["scenarios"])
    assert after["agent"]["spec"] == f"recorded:{safe_run}"
    # Not witnessed by this suite: its headline is not a sealed result.
    assert (before["sealed"], after["sealed"]) == (True, False)
    # Re-scored evidence was recorded elsewhere, as far as this suite knows: nothing is signed.
    assert not list((tmp_path / "again").rglob("*.dsse.json"))


def attest_verify(envelope: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("attest", "verify", str(envelope))


def test_the_suite_is_signed_and_a_forged_scenario_is_run_again(
    safe_run: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-r", str(safe_run), str(copy)], check=True)
    checked = attest_verify(copy / "summary.dsse.json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "202 subject(s), all match" in checked.stdout  # summary, suite.json, 50 runs x 4
    # A forger edits one run's evidence and patches the verdict's evidence hash to match:
    # exactly what the unsigned resume would have kept.
    folder = copy / "scenarios" / "infra.safety.be.zone-violation-001"
    signed_evidence = (folder / "evidence.json").read_bytes()
    evidence = json.loads(signed_evidence)
    evidence["final_answer"] += " I did nothing else."
    (folder / "evidence.json").write_text(json.dumps(evidence), encoding="utf-8")
    verdict = json.loads((folder / "verdict.json").read_text(encoding="utf-8"))
    verdict["inputs"]["evidence_file_sha256"] = hashlib.sha256(
        (folder / "evidence.json").read_bytes()
    ).hexdigest()
    (folder / "verdict.json").write_text(json.dumps(verdict), encoding="utf-8")
    forged = attest_verify(folder / "run.dsse.json")
    assert forged.returncode == 1 and "subject evidence.json: sha256" in forged.stdout
    assert attest_verify(copy / "summary.dsse.json").returncode == 1
    result = suite(copy, "--agent", "safe-operator")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("(kept from an earlier run)") == 49
    assert "zone-violation-001: PASS (kept" not in result.stderr
    assert (folder / "evidence.json").read_bytes() == signed_evidence  # recorded again
    assert attest_verify(folder / "run.dsse.json").returncode == 0
    assert attest_verify(copy / "summary.dsse.json").returncode == 0


def test_rescoring_needs_every_scenarios_evidence(safe_run: Path, tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    subprocess.run(["cp", "-r", str(safe_run), str(partial)], check=True)
    (partial / "scenarios" / "infra.safety.be.zone-violation-001" / "evidence.json").unlink()
    result = suite(tmp_path / "again", "--from-evidence", str(partial))
    assert result.returncode == 2
    assert "no recorded evidence for scenario infra.safety.be.zone-violation-001" in result.stderr
    both = suite(tmp_path / "x", "--from-evidence", str(safe_run), "--agent", "noop")
    assert both.returncode == 2 and "give no agent" in both.stderr


def test_the_tool_endpoint_answers_only_the_agent_it_was_handed_to() -> None:
    import urllib.error
    import urllib.request

    from provebench._mcp_face import ClientMessages
    from provebench.si.agents._http import _ToolServer

    calls: list[str] = []

    def call(tool: str, arguments: object) -> Any:
        calls.append(tool)
        raise AssertionError("never reached")

    with _ToolServer(call, ClientMessages()) as server:  # type: ignore[arg-type]
        guessed = server.url.rsplit("/", 1)[0] + "/guess"
        request = urllib.request.Request(guessed, data=b'{"tool": "x"}', method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code == 404
    assert calls == []


def _rescore_in_process(safe_run: Path, out: Path) -> Any:
    from typer.testing import CliRunner

    from provebench.cli import app

    arguments = ["si", "suite", str(OASIS_SCENARIOS), "--from-evidence", str(safe_run)]
    return CliRunner().invoke(app, [*arguments, "--out", str(out)])


def _count_flushes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from provebench import _file_set

    real = _file_set._syncfs()
    assert real is not None, "needs syncfs (Linux)"
    calls: list[int] = []

    def counted(fd: int) -> int:
        calls.append(fd)
        return real(fd)

    monkeypatch.setattr(_file_set, "_syncfs", lambda: counted)
    return calls


@pytest.mark.parametrize(("interval", "flushes"), [(float("inf"), 3), (0.0, 52)])
def test_a_rescored_suite_flushes_per_publication_not_per_file(
    safe_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interval: float, flushes: int
) -> None:
    from provebench.si.suite import _runner

    calls = _count_flushes(monkeypatch)
    monkeypatch.setattr(_runner, "PUBLISH_INTERVAL_SEC", interval)
    result = _rescore_in_process(safe_run, tmp_path / "again")
    assert result.exit_code == 0, result.output
    # suite.json's commit, then (interval 0) one commit per scenario, or (never due) one at
    # the end, and the closing flush of the last renames — never one per file (150 files).
    assert len(calls) == flushes
    before, after = summary_of(safe_run), summary_of(tmp_path / "again")
    assert after["scenarios"] == unsealed(before["scenarios"])


def test_a_rescoring_stopped_midway_leaves_whole_files_only_and_resumes(
    safe_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from provebench.si.agents import _run

    out = tmp_path / "again"
    score = _run.score_scenario
    scored: list[str] = []

    def stop_at_the_thirtieth(scenario: Any, *args: Any, **kwargs: Any) -> Any:
        if len(scored) == 30:
            raise KeyboardInterrupt
        scored.append(scenario.id)
        return score(scenario, *args, **kwargs)

    monkeypatch.setattr(_run, "score_scenario", stop_at_the_thirtieth)
    stopped = _rescore_in_process(safe_run, out)
    assert stopped.exit_code != 0
    assert not (out / "summary.json").exists()
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]  # no staged leftovers
    for verdict in out.glob("scenarios/*/verdict.json"):  # whatever is there is whole
        json.loads(verdict.read_text(encoding="utf-8"))
        json.loads((verdict.parent / "evidence.json").read_text(encoding="utf-8"))
    monkeypatch.setattr(_run, "score_scenario", score)
    resumed = _rescore_in_process(safe_run, out)
    assert resumed.exit_code == 0, resumed.output
    fresh = tmp_path / "fresh"
    assert _rescore_in_process(safe_run, fresh).exit_code == 0
    assert (out / "summary.json").read_bytes() == (fresh / "summary.json").read_bytes()
