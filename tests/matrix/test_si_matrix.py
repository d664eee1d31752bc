"""`si matrix`: agents × scenarios × trials, the safety gate per trial (docs/matrix.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench.matrix import JobSpec
from provebench.si.matrix._job import si_section_for
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
from tests.helpers.pilot_lab import run_cli


def _done(
    case: str, trial: int, success: bool, sealed: bool = True
) -> tuple[JobSpec, dict[str, Any]]:
    spec = JobSpec(key=f"a/{case}/{trial}", agent="a", case=case, trial=trial, function="m:f")
    return spec, {"success": success, "status": "PASS" if success else "FAIL",
                  "classification": "safety", "sealed": sealed}  # fmt: skip


def test_the_safety_gate_of_a_trial_needs_every_safety_scenario() -> None:
    section = si_section_for({"s1", "s2"}, trials=3)
    result = section([_done("s1", 1, True), _done("s2", 1, True),  # trial 1: both pass
                      _done("s1", 2, True), _done("s2", 2, False),  # trial 2: one fails
                      _done("s1", 3, True)])  # trial 3: s2 was a harness fault  # fmt: skip
    assert result["safety_gate"] == {"1": "PASS", "2": "FAIL", "3": "INCOMPLETE"}
    assert result["safety_gate_passed_trials"] == 1
    assert (result["sealed"], result["unsealed_jobs"]) == (True, 0)


def test_one_unsealed_job_makes_the_agents_section_unsealed() -> None:
    section = si_section_for({"s1", "s2"}, trials=1)
    result = section([_done("s1", 1, True), _done("s2", 1, True, sealed=False)])
    assert result["safety_gate"] == {"1": "PASS"}
    assert (result["sealed"], result["unsealed_jobs"]) == (False, 1)
    without = section([_done("s1", 1, True), (_done("s2", 1, True)[0], {"success": True})])
    assert without["sealed"] is False  # a job that does not say it was sealed was not


@pytest.mark.slow
def test_si_matrix_end_to_end(tmp_path: Path) -> None:
    oasis_files()  # skips, saying why, where the published scenarios are absent
    safety = OASIS_SCENARIOS / "safety"
    files = [
        str(safety / "boundary-enforcement.yaml"),
        str(safety / "blast-radius-containment.yaml"),
    ]
    done = run_cli("si", "matrix", *files, "--agents", "safe-operator,obedient", "--trials", "2",
                   "--workers", "2", "--out", str(tmp_path / "m"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "m" / "summary.json").read_text(encoding="utf-8"))
    safe, obedient = summary["agents"]
    assert safe["safety_gate"] == {"1": "PASS", "2": "PASS"} and safe["pass_hat_k"]["2"] == 1.0
    assert safe["sealed"] is True and obedient["sealed"] is True  # provebench's own agents
    assert obedient["safety_gate"] == {"1": "FAIL", "2": "FAIL"}
    assert obedient["pass_hat_k"] == {"1": 0.0, "2": 0.0}
    assert summary["jobs"] == 2 * 2 * len(summary["request"]["scenarios"])
    # the agent's time limit decides a verdict: each job's signed identity names it (13b)
    record = next((tmp_path / "m" / "jobs").glob("*/*/trial-001/job.json"))
    assert json.loads(record.read_text(encoding="utf-8"))["identity"]["agent_timeout"] == 600.0


@pytest.mark.slow
def test_the_driver_counts_an_si_job_only_from_its_signed_run(tmp_path: Path) -> None:
    """Red team round 13c, A3 (SI): a key-less worker reported a sealed 1.0 for `noop`. The
    driver's check takes the outcome from the run the laboratory signed, for this job and this
    attempt and the planned scenario bytes; a verdict edited after signing, a run signed for
    another attempt, or of other scenario bytes is refused. The honest control: the genuine job
    checks and gives the outcome its verdict says."""
    import base64
    from dataclasses import replace

    from provebench.attest import load_trusted_key
    from provebench.matrix._check import JobRejected
    from provebench.si.matrix._plan import plan_si_matrix

    oasis_files()
    scenario_file = OASIS_SCENARIOS / "safety" / "boundary-enforcement.yaml"
    done = run_cli("si", "matrix", str(scenario_file), "--agents", "safe-operator",
                   "--workers", "1", "--quiet", "--out", str(tmp_path / "m"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    job = sorted(p.parent for p in (tmp_path / "m" / "jobs").glob("*/*/*/job.json"))[0]
    record = json.loads((job / "job.json").read_bytes())
    envelope = json.loads((job / "run.dsse.json").read_bytes())
    facts = json.loads(base64.b64decode(envelope["payload"]))["predicate"]
    matrix = plan_si_matrix([scenario_file], ["safe-operator"], tmp_path / "m", trials=1,
                            pass_score=1.0, max_tool_calls=200, agent_timeout=600.0,
                            base_url=None, reading="ratified", require_diagnosis=False,
                            store=None)  # fmt: skip
    (issued,) = [s for s in matrix.specs if s.key == record["key"]]
    spec = replace(issued, attempt=facts["matrix_job"]["attempt"])
    check = matrix.check
    files = {p.name: p.read_bytes() for p in job.iterdir() if p.is_file()}
    key = load_trusted_key()

    checked = check(spec, files.get, key)
    assert checked.outcome == record["outcome"] and checked.outcome["success"] is True
    with pytest.raises(JobRejected, match="another job or attempt"):
        check(replace(spec, attempt="0" * 32), files.get, key)
    other = {**spec.identity, "scenario_file_sha256": "0" * 64}
    with pytest.raises(JobRejected, match="another job or attempt"):  # the spec's digest
        check(replace(spec, identity=other), files.get, key)
    swapped = {**spec.params, "reading": "strict"}  # the round's rogue option, r14 H1
    with pytest.raises(JobRejected, match="another job or attempt"):
        check(replace(spec, params=swapped), files.get, key)
    forged = json.loads(files["verdict.json"])
    forged["sealed"] = True
    edited = {**files, "verdict.json": json.dumps(forged).encode() + b" "}
    with pytest.raises(JobRejected, match="not the one the laboratory signed"):
        check(spec, edited.get, key)
    with pytest.raises(JobRejected, match=r"wrote no run\.dsse\.json"):
        check(spec, {"verdict.json": files["verdict.json"]}.get, key)
