"""Red team round 13, H3 and H8: what a resumed matrix keeps, and what it says.

H3: the round deleted a nondeterministic agent's failed jobs between reruns until pass^3 read
1.0; the unsigned summary said nothing. H8: a resumed pilot matrix kept the verdicts of the
candidate's earlier code under the same spec. Each job record now signs the matrix's nonce and
the job's identity (the candidate's code digest and options), and is kept only for the same; a
rerun over an earlier attempt is `resumed: true` in a summary the laboratory signs, naming the
jobs it ran again; a candidate whose code changed while the jobs ran gets no summary. The honest
controls: an uninterrupted matrix is not resumed and its signed summary verifies; a genuine
resume keeps its own jobs and still counts them."""

from __future__ import annotations

import json
import secrets
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.attest._envelope import AttestationError, read_verified
from provebench.matrix import JobSpec, LocalPool, MatrixRequest, QuietProgress, run_matrix
from tests.matrix import jobs

FAILS = {"b/1": False}  # the job the round's same-user process deletes


def _request(specs: list[JobSpec], recheck: Any = None) -> MatrixRequest:
    def section(done: list[tuple[JobSpec, dict[str, Any]]]) -> dict[str, Any]:
        return {"sealed": True}

    return MatrixRequest(
        "test", {"n": len(specs)}, specs, lambda s: s.case, section, jobs.check, recheck=recheck
    )


def _specs(out: Path, code: str = "v1", outcomes: dict[str, bool] | None = None) -> list[JobSpec]:
    return [
        JobSpec(
            key=f"agent/{case}/trial-1",
            agent="agent",
            case=case,
            trial=1,
            function="tests.matrix.jobs:succeed",
            params={"outcomes": FAILS if outcomes is None else outcomes},
            folder=str(out / "jobs" / "agent" / case / "trial-1"),
            identity={"candidate": {"spec": "agent", "code_sha256": code}},
        )
        for case in ("a", "b")
    ]


def _run(out: Path, specs: list[JobSpec], recheck: Any = None) -> dict[str, Any]:
    return run_matrix(_request(specs, recheck), out, lambda: LocalPool(1), QuietProgress())


def _signed(out: Path) -> dict[str, Any]:
    signed = read_verified(
        out / "summary.dsse.json",
        load_trusted_key(),
        predicate_type="urn:provebench:matrix-summary:1",
    )
    return signed.predicate


def test_an_uninterrupted_matrix_is_signed_and_not_resumed(tmp_path: Path) -> None:
    out = tmp_path / "m"
    summary = _run(out, _specs(out))
    assert summary["resumed"] is False and "rerun" not in summary
    assert summary["agents"][0]["sealed"] is True
    assert summary["agents"][0]["pass_hat_k"] == {"1": 0.5}
    predicate = _signed(out)
    assert predicate["resumed"] is False and predicate["agents"][0]["successes"] == 1
    (out / "summary.json").write_text(json.dumps({**summary, "agents": []}), encoding="utf-8")
    with pytest.raises(AttestationError, match=r"summary\.json"):
        _signed(out)  # an edited summary does not verify


def test_a_deleted_failed_job_is_drawn_again_and_the_matrix_says_resumed(tmp_path: Path) -> None:
    out = tmp_path / "m"
    _run(out, _specs(out))
    shutil.rmtree(out / "jobs" / "agent" / "b")  # the round's same-user process
    again = _run(out, _specs(out, outcomes={}))  # this time b draws a pass
    assert again["agents"][0]["pass_hat_k"] == {"1": 1.0}
    assert again["resumed"] is True and again["rerun"] == ["agent/b/trial-1"]
    assert again["agents"][0]["sealed"] is False  # not a sealed headline
    predicate = _signed(out)
    assert (predicate["resumed"], predicate["rerun"]) == (True, ["agent/b/trial-1"])


def test_another_matrixs_signed_job_planted_in_the_folder_is_run_again(tmp_path: Path) -> None:
    lucky, victim = tmp_path / "lucky", tmp_path / "victim"
    _run(lucky, _specs(lucky, outcomes={}))  # the same agent, b passed in that matrix
    _run(victim, _specs(victim))
    shutil.rmtree(victim / "jobs" / "agent" / "b")
    shutil.copytree(lucky / "jobs" / "agent" / "b", victim / "jobs" / "agent" / "b")
    again = _run(victim, _specs(victim))
    assert again["rerun"] == ["agent/b/trial-1"]  # another matrix's nonce: not kept
    assert again["agents"][0]["pass_hat_k"] == {"1": 0.5}


def test_a_job_planted_while_a_fresh_matrix_runs_is_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team round 13b, H3: the round stopped a fresh matrix once matrix.json (its nonce)
    was written, ran copies of it on that matrix.json until each job passed, and planted those
    signed jobs in its folder. Here both matrices draw the same nonce, and the plant lands in
    the attack's window (after matrix.json is written, before the jobs are looked at)."""
    from provebench.matrix import _engine

    drawn = secrets.token_hex
    monkeypatch.setattr(
        _engine.secrets,
        "token_hex",
        lambda n: "ab" * n if n == _engine.NONCE_BYTES else drawn(n),
    )
    lucky, victim = tmp_path / "lucky", tmp_path / "victim"
    _run(lucky, _specs(lucky, outcomes={}))  # the same matrix's copy, where b drew a pass

    def plant(nonce: str) -> None:
        assert json.loads((victim / "matrix.json").read_bytes())["nonce"] == nonce == "ab" * 16
        shutil.copytree(lucky / "jobs", victim / "jobs")

    request = replace(_request(_specs(victim)), prepare=plant)
    summary = run_matrix(request, victim, lambda: LocalPool(1), QuietProgress())
    assert summary["resumed"] is False  # it began in an empty folder: a sealed sample
    assert summary["agents"][0]["pass_hat_k"] == {"1": 0.5}  # b was drawn here, and failed
    record = json.loads((victim / "jobs/agent/b/trial-1/job.json").read_text(encoding="utf-8"))
    assert record["outcome"]["success"] is False
    assert _signed(victim)["agents"][0]["successes"] == 1


def test_jobs_of_the_candidates_earlier_code_are_run_again(tmp_path: Path) -> None:
    """matrix.json here does not name the code (the pilot's and SI's do, and are refused
    first): each job record's signed identity alone decides."""
    out = tmp_path / "m"
    _run(out, _specs(out, code="honest", outcomes={}))
    again = _run(out, _specs(out, code="blind"))
    assert again["rerun"] == ["agent/a/trial-1", "agent/b/trial-1"]
    assert again["agents"][0]["pass_hat_k"] == {"1": 0.5}
    record = json.loads((out / "jobs/agent/a/trial-1/job.json").read_text(encoding="utf-8"))
    assert record["identity"]["candidate"]["code_sha256"] == "blind"


def test_a_genuine_resume_keeps_its_own_jobs_and_still_counts_them(tmp_path: Path) -> None:
    out = tmp_path / "m"
    first = _run(out, _specs(out))
    (out / "summary.json").unlink()  # a driver killed before its summary
    again = _run(out, _specs(out))
    assert again["resumed"] is True and again["rerun"] == []
    assert again["agents"][0]["pass_hat_k"] == first["agents"][0]["pass_hat_k"]


def test_code_changed_while_the_jobs_ran_gets_no_summary(tmp_path: Path) -> None:
    out = tmp_path / "m"

    def changed() -> None:
        raise ProvebenchError("the code of agent 'agent' changed while the matrix ran")

    with pytest.raises(ProvebenchError, match="changed while the matrix ran"):
        _run(out, _specs(out), recheck=changed)
    assert not (out / "summary.json").exists() and not (out / "summary.dsse.json").exists()


def test_the_pilot_matrix_names_each_candidates_code_and_refuses_a_changed_one(
    tmp_path: Path,
) -> None:
    from provebench.pilot.matrix._plan import plan_pilot_matrix

    code = tmp_path / "cand" / "flip.py"
    code.parent.mkdir()
    code.write_text(
        "from provebench.pilot.agents.defective._base import CorrectImporter\n"
        "class Flip(CorrectImporter):\n    name = 'flip'\n    version = '1'\n",
        encoding="utf-8",
    )
    out = tmp_path / "m"
    agent = f"{code}:Flip"
    honest = plan_pilot_matrix(out, [agent], [1], "public", 1, {}, None)
    digest = honest.request["candidates"][agent]["code_sha256"]
    assert honest.specs[0].identity["candidate"]["code_sha256"] == digest
    assert honest.recheck is not None
    honest.recheck()  # the same code: nothing to say
    with code.open("a", encoding="utf-8") as changed:  # the round's flip.py, rewritten
        changed.write("# now another importer\n")
    with pytest.raises(ProvebenchError, match="changed while the matrix ran"):
        honest.recheck()
    blind = plan_pilot_matrix(out, [agent], [1], "public", 1, {}, None)
    assert blind.request["candidates"][agent]["code_sha256"] != digest
    assert blind.specs[0].identity != honest.specs[0].identity


def test_a_pilot_job_whose_verdict_names_other_code_is_a_harness_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The code rewritten between the plan and the job's run: the verdict names the code that
    ran, which is not the planned one, and the job raises (a harness fault, never a verdict)."""
    from types import SimpleNamespace

    from provebench.pilot import evaluate
    from provebench.pilot.lab import _runner
    from provebench.pilot.matrix._job import run_pilot_job

    ran = SimpleNamespace(result_evidence=SimpleNamespace(agent={"code_sha256": "b" * 64}))
    monkeypatch.setattr(_runner, "run_lab", lambda *args, **kwargs: None)
    monkeypatch.setattr(evaluate, "evaluate_run", lambda *args: ran)
    spec = JobSpec(
        key="flip/seed-000001/trial-001",
        agent="flip.py:Flip",
        case="1",
        trial=1,
        function="provebench.pilot.matrix._job:run_pilot_job",
        params={"corpus": str(tmp_path / "corpus"), "matrix_folder": str(tmp_path)},
        identity={"candidate": {"spec": "flip.py:Flip", "code_sha256": "a" * 64}},
    )
    with pytest.raises(RuntimeError, match="changed while the matrix ran"):
        run_pilot_job(spec, tmp_path / "job")
    assert not (tmp_path / "job" / "verdict.json").exists()
