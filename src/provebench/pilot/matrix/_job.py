"""One pilot matrix job: an importer run on one corpus, evaluated (pilot §8, §11).

The task of pass^k is the pilot itself: every (seed, trial) is an independent trial of it, so
pass^k over 100 fresh control sets is the chance that k of them in a row all pass the laboratory
gate ("does it pass every time?").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from provebench._canonical import canonical_json, sha256_bytes
from provebench.matrix._check import (
    CheckedJob,
    JobCheck,
    JobReader,
    JobRejected,
    job_binding,
    require_planned_code,
    signed_verdict,
)
from provebench.matrix._jobs import JobSpec
from provebench.pilot.evaluate._verdict import MetricSet, Verdict

if TYPE_CHECKING:
    from provebench.attest._keys import TrustedKey

TASK = "call-import"
RUN_DIR = "run"
VERDICT = "verdict.json"
VERDICT_ENVELOPE = "verdict.dsse.json"
# The corpus manifest's digest as the verdict's inputs name it (`evaluate/_inputs.py`).
CORPUS_MANIFEST_INPUT = "corpus/manifest.json"
# The field of a job's identity that names its corpus (its manifest's sha256, `_plan`).
CORPUS_IDENTITY = "corpus_manifest_sha256"


def run_pilot_job(spec: JobSpec, folder: Path) -> dict[str, Any]:
    """Run `spec.agent` over the job's corpus into `folder/run`, evaluate, and write the verdict
    signed for this job and attempt (`job_binding`); the driver derives the outcome from it
    (`check_pilot_job`), never from what this returns."""
    from provebench.pilot.evaluate import evaluate_run, write_verdict
    from provebench.pilot.lab._runner import run_lab

    corpus = Path(spec.params["corpus"])
    # The matrix folder is hidden from a sealed candidate as its corpus and run folder are: it
    # holds every seed's answer key and the other jobs' registers for this very corpus.
    run_lab(
        corpus,
        spec.agent,
        folder / RUN_DIR,
        base_url=spec.params.get("base_url"),
        model_cmd=spec.params.get("model_cmd"),
        hidden={"matrix-folder": Path(spec.params["matrix_folder"])},
    )
    verdict = evaluate_run(folder / RUN_DIR, corpus)
    # The verdict must name the code the matrix was planned for (red team round 13, H8): a
    # candidate rewritten since is a harness fault here, never a verdict of the planned code.
    planned = spec.identity.get("candidate", {}).get("code_sha256")
    evidence = verdict.result_evidence
    ran = None if evidence is None else evidence.agent.get("code_sha256")
    if planned is not None and ran is not None and ran != planned:
        raise RuntimeError(
            f"the run's code ({str(ran)[:16]}) is not the candidate's code the matrix was "
            f"planned for ({str(planned)[:16]}): it changed while the matrix ran"
        )
    # And the corpus its identity names (`_plan.CORPUS_IDENTITY`): a verdict of another corpus
    # is never signed under this job's identity.
    corpus_planned = spec.identity.get(CORPUS_IDENTITY)
    corpus_ran = None if evidence is None else evidence.inputs_sha256.get(CORPUS_MANIFEST_INPUT)
    if corpus_planned is not None and corpus_ran != corpus_planned:
        raise RuntimeError(
            f"the run's corpus (manifest {str(corpus_ran)[:16]}) is not the one the job's "
            f"identity names ({str(corpus_planned)[:16]})"
        )
    write_verdict(verdict, folder / VERDICT, bound=job_binding(spec))
    # The digest of the bytes written, never of a second read (red team round 13c, A4).
    return {
        "verdict": VERDICT,
        "verdict_sha256": sha256_bytes(canonical_json(verdict).encode("utf-8")),
    }


def outcome_of(verdict: Verdict, verdict_sha256: str) -> dict[str, Any]:
    """What a matrix counts of one pilot verdict."""
    metrics: dict[str, float] = {}
    if verdict.metrics is not None:
        for name in MetricSet.model_fields:
            metrics[name] = getattr(verdict.metrics.overall, name).value
    if verdict.perf_shadow is not None:
        metrics["perf_shadow"] = verdict.perf_shadow
    escrow = verdict.escrow
    return {
        "success": verdict.laboratory_pass,
        "status": verdict.status,
        "critical_violations": verdict.critical_violation_count,
        "metrics": metrics,
        "escrow_released_total": None if escrow is None else escrow.released_total,
        "escrow_tranches_released": []
        if escrow is None
        else [t.name for t in escrow.tranches if t.released],
        "verdict": VERDICT,
        "verdict_sha256": verdict_sha256,
    }


def pilot_job_check(
    corpus_manifests: Callable[[str], str],
) -> JobCheck:
    """The driver's check of a pilot job (`matrix/_check.py`); `corpus_manifests(seed)` is the
    sha256 of the manifest of the corpus the driver made for that seed."""

    def check(spec: JobSpec, read: JobReader, trusted: TrustedKey) -> CheckedJob:
        from provebench.pilot.record._signing import VERDICT_PREDICATE, foreign_run_problem

        signed = signed_verdict(
            spec,
            read,
            trusted,
            verdict=VERDICT,
            envelope=VERDICT_ENVELOPE,
            predicate_type=VERDICT_PREDICATE,
        )
        problem = foreign_run_problem(signed.facts, trusted)
        if problem is not None:
            raise JobRejected(problem)
        try:
            verdict = Verdict.model_validate_json(signed.data)
        except ValueError:
            raise JobRejected("its signed verdict is not a pilot verdict") from None
        evidence = verdict.result_evidence
        if evidence is None:
            if verdict.laboratory_pass:
                raise JobRejected("its verdict passes with no evidence of what ran")
        else:
            require_planned_code(spec, evidence.agent.get("code_sha256"))
            planned = corpus_manifests(spec.case)
            named = spec.identity.get(CORPUS_IDENTITY, planned)
            if evidence.inputs_sha256.get(CORPUS_MANIFEST_INPUT) not in {planned} & {named}:
                raise JobRejected("its verdict is of another corpus than the seed's")
        return CheckedJob(outcome_of(verdict, signed.sha256), signed.subjects)

    return check


def pilot_section(done: list[tuple[JobSpec, dict[str, Any]]]) -> dict[str, Any]:
    """The pilot's part of an agent's summary: verdict statuses and escrow outcomes."""
    from provebench.matrix._summary import distribution

    statuses: dict[str, int] = {}
    tranches: dict[str, int] = {}
    for _, outcome in done:
        statuses[str(outcome.get("status"))] = statuses.get(str(outcome.get("status")), 0) + 1
        for name in outcome.get("escrow_tranches_released", []):
            tranches[name] = tranches.get(name, 0) + 1
    released = [
        o["escrow_released_total"]
        for _, o in done
        if isinstance(o.get("escrow_released_total"), float | int)
    ]
    return {
        "verdict_status": dict(sorted(statuses.items())),
        "laboratory_pass": sum(bool(o.get("success")) for _, o in done),
        "escrow": {
            "tranches_released": dict(sorted(tranches.items())),
            "released_total": distribution(released),
        },
    }


def task_of(spec: JobSpec) -> str:
    return TASK


__all__ = ["TASK", "outcome_of", "pilot_job_check", "pilot_section", "run_pilot_job", "task_of"]
