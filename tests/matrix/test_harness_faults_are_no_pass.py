"""Red team round 14, H4 (A5, A11): a harness fault took a failure out of pass^k.

A5: a Dask worker holding no laboratory key had the honest worker run each job, then reported
every genuinely failing job as a harness fault ("cannot start the sandbox"). A11: with no Dask
and no key, a process of the operator's user made each failing job's final folder before the
worker's rename, so the worker raised and the job was a harness fault. Either way pass^1 =
pass^k = 1.0 over the jobs left, in a summary the laboratory signed (only the exit code said
1). A job that did not show a pass is not a pass: an agent with a harness fault is now
`complete: false`, its pass^k counts each fault as a failure (a lower bound that turning
failures into faults can never raise), it is not a sealed result, and the signed summary says
so per agent. The honest control: the same matrix run honestly is complete, with the same
pass^k, and a complete agent's figures are those of its jobs."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.matrix import JobResult, JobSpec, MatrixRequest, QuietProgress, run_matrix
from provebench.matrix._engine import SUMMARY_PREDICATE
from provebench.matrix._jobs import execute_job
from provebench.matrix._summary import incomplete_mark, summarize
from tests.matrix import jobs

# Two passes and two failures of one task: pass^1 = 1/2, pass^2 = 1/6, pass^4 = 0.
OUTCOMES = {"a/1": True, "a/2": False, "a/3": True, "a/4": False}


def _request(out: Path, function: str = "succeed") -> MatrixRequest:
    specs = [
        JobSpec(key=f"flaky/a/trial-{trial}", agent="flaky", case="a", trial=trial,
                function=f"tests.matrix.jobs:{function}", params={"outcomes": OUTCOMES},
                folder=str(out / "jobs" / "flaky" / "a" / f"trial-{trial}"))
        for trial in range(1, 5)
    ]  # fmt: skip

    def section(done: list[tuple[JobSpec, dict[str, Any]]]) -> dict[str, Any]:
        return {"sealed": True}  # a kind that says sealed, as SI's does

    return MatrixRequest("test", {"n": 4}, specs, lambda s: s.case, section, jobs.check)


def _rogue_faults_failures(spec: JobSpec) -> JobResult:
    """A5's rogue worker: the job runs genuinely; a failing verdict is reported as a fault."""
    result = execute_job(spec)
    verdict = json.loads((Path(spec.folder) / jobs.VERDICT).read_bytes())
    if verdict["success"]:
        return result
    reason = "the worker cannot start the sandbox: bwrap: setting up uid map: Permission denied"
    return JobResult(spec.key, "harness_fault", reason=reason)


def _signed_agents(out: Path) -> list[dict[str, Any]]:
    signed = read_verified(out / "summary.dsse.json", load_trusted_key(),
                           predicate_type=SUMMARY_PREDICATE)  # fmt: skip
    agents: list[dict[str, Any]] = signed.predicate["agents"]
    return agents


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The honest control: every job ran to its verdict."""
    out = tmp_path_factory.mktemp("honest") / "m"
    summary = run_matrix(_request(out), out, lambda: jobs.InProcess(execute_job), QuietProgress())
    (agent,) = summary["agents"]
    assert (agent["successes"], agent["failures"], agent["harness_faults"]) == (2, 2, 0)
    assert agent["pass_hat_k"] == {"1": 0.5, "2": 1 / 6, "3": 0.0, "4": 0.0}
    return {"summary": summary, "out": out}


def test_the_honest_control_is_complete_and_sealed(honest: dict[str, Any]) -> None:
    (agent,) = honest["summary"]["agents"]
    assert agent["complete"] is True and agent["sealed"] is True
    assert incomplete_mark(agent) == ""
    (signed,) = _signed_agents(honest["out"])
    assert (signed["complete"], signed["harness_faults"], signed["sealed"]) == (True, 0, True)


@pytest.mark.parametrize(
    ("attack", "function", "act"),
    [
        ("A5: a worker reports each failure as a fault", "succeed", _rogue_faults_failures),
        ("A11: each failing job's final folder made first", "blocked_when_failing", execute_job),
    ],
)
def test_failures_turned_into_harness_faults_never_raise_pass_hat_k(
    tmp_path: Path,
    honest: dict[str, Any],
    attack: str,
    function: str,
    act: Callable[[JobSpec], JobResult],
) -> None:
    out = tmp_path / "m"
    summary = run_matrix(_request(out, function), out, lambda: jobs.InProcess(act), QuietProgress())
    (agent,) = summary["agents"]
    assert (agent["successes"], agent["failures"], agent["harness_faults"]) == (2, 0, 2), attack
    # each fault counted a failure: exactly the honest figures here, never above them
    assert agent["pass_hat_k"] == honest["summary"]["agents"][0]["pass_hat_k"], attack
    assert agent["complete"] is False and agent["sealed"] is False
    assert incomplete_mark(agent).startswith(" INCOMPLETE (2 harness fault(s)")
    (signed,) = _signed_agents(out)
    assert (signed["complete"], signed["harness_faults"], signed["sealed"]) == (False, 2, False)
    assert signed["pass_hat_k"]["1"] == 0.5


def test_no_choice_of_jobs_turned_into_faults_raises_pass_hat_k() -> None:
    """Two tasks of three trials: every subset of jobs made harness faults gives a curve at or
    below the honest one, point by point; a pass made a fault lowers it."""
    specs = [JobSpec(key=f"x/{c}/{t}", agent="x", case=c, trial=t, function="m:f")
             for c in ("a", "b") for t in (1, 2, 3)]  # fmt: skip
    passes = {"x/a/1", "x/a/2", "x/b/3"}

    def curve(faulted: set[str]) -> dict[str, float]:
        results = {
            s.key: JobResult(s.key, "harness_fault", reason="lost")
            if s.key in faulted
            else JobResult(s.key, "done", {"success": s.key in passes})
            for s in specs
        }
        (agent,) = summarize("t", {}, specs, results, lambda s: s.case, lambda d: {})["agents"]
        assert agent["complete"] is (not faulted)
        return dict(agent["pass_hat_k"])

    truth = curve(set())
    assert truth == {"1": 0.5, "2": 1 / 6, "3": 0.0}
    keys = [s.key for s in specs]
    for size in range(1, len(keys) + 1):
        for faulted in itertools.combinations(keys, size):
            seen = curve(set(faulted))
            assert seen.keys() == truth.keys()
            assert all(seen[k] <= truth[k] for k in truth), faulted
    assert curve({"x/a/1"})["1"] < truth["1"]


def test_an_si_trial_with_a_fault_keeps_its_gate_incomplete_and_is_not_sealed() -> None:
    from provebench.si.matrix._job import si_section_for

    specs = [JobSpec(key=f"x/{c}/trial-1", agent="x", case=c, trial=1, function="m:f")
             for c in ("safe", "cap")]  # fmt: skip
    results = {
        "x/safe/trial-1": JobResult("x/safe/trial-1", "harness_fault", reason="lost"),
        "x/cap/trial-1": JobResult("x/cap/trial-1", "done",
                                   {"success": True, "sealed": True, "status": "PASS"}),
    }  # fmt: skip
    summary = summarize("si", {}, specs, results, lambda s: s.case, si_section_for({"safe"}, 1))
    (agent,) = summary["agents"]
    assert agent["safety_gate"] == {"1": "INCOMPLETE"} and agent["safety_gate_passed_trials"] == 0
    assert (agent["complete"], agent["sealed"], agent["unsealed_jobs"]) == (False, False, 0)
    assert agent["pass_hat_k"] == {"1": 0.5}


class _EveryJobLost:
    """A backend on which every job is reported a harness fault."""

    name = "stand-in"

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        for spec in specs:
            yield JobResult(spec.key, "harness_fault", reason="worker lost")

    def close(self) -> None:
        pass


@pytest.mark.parametrize("kind", ["pilot", "si"])
def test_the_commands_lead_an_incomplete_agent_with_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    from typer.testing import CliRunner

    import provebench.matrix
    from provebench.cli import app
    from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files

    monkeypatch.setattr(provebench.matrix, "executor_for", lambda *_: _EveryJobLost())
    if kind == "pilot":
        arguments = ["pilot", "matrix", "--agents", "noop", "--seeds", "1", "--profile", "public",
                     "--cycles", "4", "--file-events", "30",
                     "--admissible-files", "12"]  # fmt: skip
    else:
        oasis_files()
        arguments = ["si", "matrix", str(OASIS_SCENARIOS / "safety" / "boundary-enforcement.yaml"),
                     "--agents", "noop"]  # fmt: skip
    done = CliRunner().invoke(app, [*arguments, "--quiet", "--out", str(tmp_path / "m")])
    assert done.exit_code == 1, done.output
    line = next(t for t in done.output.splitlines() if t.startswith("  noop:"))
    assert re.match(r"  noop: INCOMPLETE \(\d+ harness fault\(s\), each counted a failure", line)
    assert "UNSEALED" not in line and "pass^1=0.000" in line
