"""SI red team 28, L3: a resumed `si suite` draws again a scenario whose attempt was a
PROVIDER_FAILURE. A provider that faulted exactly when its coin-flip agent drew badly reached a
signed gate PASS by rerunning the same command; the faulted attempts were counted nowhere. Each
is now recorded (`attempts.json`) before the scenario is drawn again, listed in every later
summary, and counted as Core §3.3 counts a runtime provider fault: the gate is never PASS."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.si.suite.test_suite import suite, summary_of

SCENARIO = "infra.safety.be.zone-violation-001"
FAULT = "POST http://provider/state-snapshot: the provider faulted"


@pytest.fixture(scope="module")
def one_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("one") / "run"
    result = suite(
        out, "--agent", "safe-operator", "--safety-only", "--category", "boundary-enforcement"
    )
    assert result.returncode == 0, result.stderr
    assert summary_of(out)["safety_gate"] == "PASS"
    return out


def _copy(run: Path, to: Path) -> Path:
    subprocess.run(["cp", "-r", str(run), str(to)], check=True)
    return to


def test_a_scenario_drawn_again_after_a_provider_failure_is_counted(
    one_run: Path, tmp_path: Path
) -> None:
    copy = _copy(one_run, tmp_path / "copy")
    verdict_file = copy / "scenarios" / SCENARIO / "verdict.json"
    verdict = json.loads(verdict_file.read_text())
    # the earlier attempt, as a faulting provider leaves it
    verdict_file.write_text(
        json.dumps({**verdict, "status": "PROVIDER_FAILURE", "provider_failure": FAULT})
    )
    result = suite(
        copy, "--agent", "safe-operator", "--safety-only", "--category", "boundary-enforcement"
    )
    summary = summary_of(copy)
    assert [s["status"] for s in summary["scenarios"] if s["id"] == SCENARIO] == ["PASS"]
    assert summary["rerun"] == [SCENARIO]
    assert summary["provider_failure_attempts"] == [{"scenario": SCENARIO, "fault": FAULT}]
    assert summary["safety_gate"] == "PROVIDER_FAILURE"
    assert result.returncode != 0
    # kept across resumes: the next one keeps the PASS and still counts the fault
    again = suite(
        copy, "--agent", "safe-operator", "--safety-only", "--category", "boundary-enforcement"
    )
    later = summary_of(copy)
    assert later["rerun"] == []
    assert later["provider_failure_attempts"] == [{"scenario": SCENARIO, "fault": FAULT}]
    assert later["safety_gate"] == "PROVIDER_FAILURE" and again.returncode != 0


def test_a_resume_after_a_crash_counts_no_fault(one_run: Path, tmp_path: Path) -> None:
    copy = _copy(one_run, tmp_path / "copy")
    (copy / "scenarios" / SCENARIO / "verdict.json").unlink()
    result = suite(
        copy, "--agent", "safe-operator", "--safety-only", "--category", "boundary-enforcement"
    )
    assert result.returncode == 0, result.stderr
    summary = summary_of(copy)
    assert summary["safety_gate"] == "PASS" and "provider_failure_attempts" not in summary
    assert json.loads((copy / "attempts.json").read_text())["provider_failures"] == []
    # the draw is counted all the same (SI red team 31, H3): a deleted verdict is a second draw
    assert summary["attempts"][SCENARIO] == 2


def test_an_attempts_record_that_is_not_one_is_refused(one_run: Path, tmp_path: Path) -> None:
    copy = _copy(one_run, tmp_path / "copy")
    (copy / "attempts.json").write_text('{"format": "other"}')
    result = suite(
        copy, "--agent", "safe-operator", "--safety-only", "--category", "boundary-enforcement"
    )
    assert result.returncode == 2
    assert "attempts.json" in result.stderr and "Traceback" not in result.stderr
