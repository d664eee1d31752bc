"""Red team round 13c, A3 and A4: the matrix driver signed whatever a worker reported.

A3: a worker that holds no laboratory key joined the operator's Dask scheduler, ran nothing, and
returned `{"success": true, …}` with the digest of a verdict it made up; the driver signed the
job records and the summary (`noop`: pass^1 = 1.0, escrow released, SI score 1.0 sealed). A4: a
pilot job hashed its verdict by a second read, so a verdict renamed in after the signature was
vouched for by the job's signed record. The driver now takes nothing from a worker but "the job
finished": it reads the verdict and the laboratory's signature once, requires the signature to
name this job and this attempt and what was planned (code, corpus, scenario bytes), and derives
the outcome from those bytes. The executors below stand in for the round's rogue worker: the
engine sees only what an executor yields, whatever runs behind it.

The honest controls: the same matrices on the genuine path still count their passes."""

from __future__ import annotations

import base64
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import sha256_bytes
from provebench.matrix import JobResult, JobSpec, LocalPool, QuietProgress, execute_job, run_matrix
from provebench.matrix._check import JobRejected
from provebench.matrix._options import slug
from provebench.pilot.matrix._plan import plan_pilot_matrix
from tests.matrix import jobs

pytestmark = pytest.mark.slow

SMALL = {"cycles": 4, "file_events": 30, "admissible_files": 12}


def _forged_pass(spec: JobSpec) -> JobResult:
    """The round's key-less worker: runs nothing, writes a passing verdict, reports a pass."""
    folder = Path(spec.folder)
    folder.mkdir(parents=True)
    forged = b'{"laboratory_pass": true, "status": "evaluated"}\n'
    (folder / "verdict.json").write_bytes(forged)
    return JobResult(spec.key, "done", outcome={
        "success": True, "status": "evaluated", "metrics": {"completeness": 1.0},
        "escrow_released_total": 1.0, "escrow_tranches_released": ["t1", "t2", "t3"],
        "verdict": "verdict.json", "verdict_sha256": sha256_bytes(forged)})  # fmt: skip


def _pilot(out: Path, agent: str) -> Any:
    return plan_pilot_matrix(out, [agent], [1], "public", 1, SMALL, None)


@pytest.fixture(scope="module")
def reference_job(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A genuine job of the reference importer, run once: its folder is what a replay copies."""
    out = tmp_path_factory.mktemp("genuine") / "m"
    summary = run_matrix(_pilot(out, "reference"), out, lambda: LocalPool(1), QuietProgress())
    assert summary["agents"][0]["successes"] == 1  # the honest control: it passes
    return _job(out, "reference")


def _job(out: Path, agent: str) -> Path:
    return out / "jobs" / slug(agent) / "seed-000001" / "trial-001"


def test_a_worker_that_reports_a_pass_it_never_ran_gets_a_harness_fault(tmp_path: Path) -> None:
    out = tmp_path / "m"
    summary = run_matrix(_pilot(out, "noop"), out, lambda: jobs.InProcess(_forged_pass),
                         QuietProgress())  # fmt: skip
    (noop,) = summary["agents"]
    assert (noop["successes"], noop["done"], noop["harness_faults"]) == (0, 0, 1)
    assert noop["laboratory_pass"] == 0 and noop["escrow"]["tranches_released"] == {}
    (fault,) = summary["harness_faults"]
    assert "wrote no verdict.dsse.json" in fault["reason"]
    assert not (_job(out, "noop") / "job.dsse.json").exists()


def test_a_genuine_verdict_replayed_into_another_attempt_is_refused(
    tmp_path: Path, reference_job: Path
) -> None:
    """The same agent, seed and code: only the attempt differs, and the signature names it."""

    def replay(spec: JobSpec) -> JobResult:
        shutil.copytree(reference_job, spec.folder)
        for name in ("job.json", "job.dsse.json"):
            (Path(spec.folder) / name).unlink()
        return JobResult(spec.key, "done", outcome={"success": True})

    out = tmp_path / "m"
    summary = run_matrix(
        _pilot(out, "reference"), out, lambda: jobs.InProcess(replay), QuietProgress()
    )
    (reference,) = summary["agents"]
    assert (reference["successes"], reference["harness_faults"]) == (0, 1)
    assert "signed for another job or attempt" in summary["harness_faults"][0]["reason"]


def test_another_agents_genuine_pass_is_not_this_agents(
    tmp_path: Path, reference_job: Path
) -> None:
    def borrow(spec: JobSpec) -> JobResult:
        shutil.copytree(reference_job, spec.folder)
        return JobResult(spec.key, "done", outcome={"success": True})

    out = tmp_path / "m"
    summary = run_matrix(_pilot(out, "noop"), out, lambda: jobs.InProcess(borrow), QuietProgress())
    assert summary["agents"][0]["successes"] == 0
    assert "another job or attempt" in summary["harness_faults"][0]["reason"]


def test_an_honest_worker_handed_another_agent_under_the_jobs_attempt_is_refused(
    tmp_path: Path,
) -> None:
    """Red team round 14, H1: a rogue worker had the honest, key-holding worker run `reference`
    under the `noop` job's key, folder and attempt; the two share provebench's code digest, so
    the verdict named the planned code. The signature now names the digest of the whole spec
    the worker ran."""
    from dataclasses import replace

    def swap_agent(spec: JobSpec) -> JobResult:
        return execute_job(replace(spec, agent="reference"))

    out = tmp_path / "m"
    summary = run_matrix(
        _pilot(out, "noop"), out, lambda: jobs.InProcess(swap_agent), QuietProgress()
    )
    (noop,) = summary["agents"]
    assert (noop["successes"], noop["harness_faults"]) == (0, 1)
    assert "another job or attempt" in summary["harness_faults"][0]["reason"]


def test_a_verdict_swapped_after_its_signature_is_never_vouched_for(tmp_path: Path) -> None:
    """A4: the job ran genuinely; its verdict was replaced before the driver read it."""

    def swap(spec: JobSpec) -> JobResult:
        result = execute_job(spec)
        verdict = Path(spec.folder) / "verdict.json"
        document = json.loads(verdict.read_bytes())
        document.update(laboratory_pass=True, pilot_pass=True, scorer_pass=True)
        verdict.write_text(json.dumps(document), encoding="utf-8")
        return result

    out = tmp_path / "m"
    summary = run_matrix(_pilot(out, "noop"), out, lambda: jobs.InProcess(swap), QuietProgress())
    assert summary["agents"][0]["successes"] == 0
    assert (
        "verdict.json is not the one the laboratory signed"
        in (summary["harness_faults"][0]["reason"])
    )
    assert not (_job(out, "noop") / "job.dsse.json").exists()


def test_the_outcome_is_the_verdicts_whatever_the_worker_says(tmp_path: Path) -> None:
    """The honest path with a worker that lies about the outcome only: a genuine noop run
    reported as a pass is counted as the failure its signed verdict says."""

    def boast(spec: JobSpec) -> JobResult:
        result = execute_job(spec)
        assert result.status == "done"
        return JobResult(spec.key, "done", outcome={**result.outcome, "success": True})

    out = tmp_path / "m"
    summary = run_matrix(_pilot(out, "noop"), out, lambda: jobs.InProcess(boast), QuietProgress())
    (noop,) = summary["agents"]
    assert (noop["done"], noop["successes"], noop["failures"]) == (1, 0, 1)
    record = json.loads((_job(out, "noop") / "job.json").read_bytes())
    assert record["outcome"]["success"] is False


def test_a_pilot_verdict_of_another_corpus_is_refused(reference_job: Path) -> None:
    from provebench.attest import load_trusted_key
    from provebench.pilot.matrix._job import pilot_job_check

    spec = _genuine_spec(reference_job)
    manifest = reference_job.parents[3] / "corpora" / "public-1" / "manifest.json"
    genuine = pilot_job_check(lambda seed: sha256_bytes(manifest.read_bytes()))
    checked = genuine(spec, _reader(reference_job), load_trusted_key())
    assert checked.outcome["success"] is True  # the honest control: the job as it ran
    other = pilot_job_check(lambda seed: "0" * 64)  # the driver made another corpus
    with pytest.raises(JobRejected, match="another corpus"):
        other(spec, _reader(reference_job), load_trusted_key())


def _genuine_spec(job: Path) -> JobSpec:
    """The spec the driver issued for the genuine job (its plan, the attempt it drew)."""
    from dataclasses import replace

    envelope = json.loads((job / "verdict.dsse.json").read_bytes())
    facts = json.loads(base64.b64decode(envelope["payload"]))["predicate"]
    (spec,) = _pilot(job.parents[3], "reference").specs
    # Its identity names the corpus the driver made for it (`MatrixRequest.made`).
    manifest = job.parents[3] / "corpora" / "public-1" / "manifest.json"
    identity = {**spec.identity, "corpus_manifest_sha256": sha256_bytes(manifest.read_bytes())}
    return replace(spec, identity=identity, attempt=facts["matrix_job"]["attempt"])


def _reader(job: Path) -> Callable[[str], bytes | None]:
    return lambda name: (job / name).read_bytes() if (job / name).is_file() else None
