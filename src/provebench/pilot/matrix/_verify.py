"""`provebench pilot matrix-verify OUT`: a revealed control matrix ran on the committed corpora
(docs/matrix.md, "Hidden control sets").

From the published opening (`reveal.json`, checked against the commitment signed before any
job ran, `_secret.py`) every seed's corpus is generated again, and every job's signed record
must be the record of the job its folder holds — signed for that key, agent, candidate, seed
and trial of this matrix — and name that seed's corpus's manifest: so the corpora were fixed
before the jobs, by a secret no candidate held, and are the generator's (pilot §11, §16)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench.attest._envelope import read_verified
from provebench.attest._keys import TrustedKey


def _planned_jobs(agents: list[str], seeds: list[int], trials: int) -> list[tuple[str, int, int]]:
    """Every (agent, seed, trial) the request makes, as `plan_pilot_matrix` plans them."""
    return [
        (agent, seed, trial) for seed in seeds for agent in agents for trial in range(1, trials + 1)
    ]


# What `matrix.json` holds beside the request: its format, kind, nonce and store (none of which
# defines a job: the nonce is checked by every signed record that names it).
_NOT_REQUEST = frozenset({"format", "kind", "nonce", "store"})


def _refuse_unsigned_request(out: Path, request: dict[str, Any], trusted: TrustedKey) -> None:
    """`matrix.json` must say what the commitment signed before any job ran — agents,
    candidates, seeds, trials, sizes, profile, endpoint: an agent dropped from it (its job
    folders deleted) or `trials` lowered passed, since every check below reads the request
    (pilot red team 31, A3)."""
    from provebench.matrix._engine import MANIFEST_FILE
    from provebench.pilot.matrix._secret import COMMITMENT_FILE, committed_request

    signed = committed_request(out, trusted)
    for field in sorted((signed.keys() | request.keys()) - _NOT_REQUEST):
        if request.get(field) != signed.get(field):
            raise ProvebenchError(
                f"matrix.json's {field} is not the one signed with the matrix's commitment "
                f"({COMMITMENT_FILE}) before any job ran",
                path=out / MANIFEST_FILE,
                field=field,
            )


def _refuse_other_summary(out: Path, agents: list[str], expected: int, trusted: TrustedKey) -> None:
    """The signed summary (which signs `matrix.json`'s bytes too) must count the jobs the
    request makes, for its agents."""
    from provebench.matrix._engine import SUMMARY_ENVELOPE, SUMMARY_FILE, SUMMARY_PREDICATE

    facts = read_verified(out / SUMMARY_ENVELOPE, trusted, predicate_type=SUMMARY_PREDICATE)
    said = facts.predicate
    listed = [a.get("agent") for a in said.get("agents") or [] if isinstance(a, dict)]
    if listed != agents:
        raise ProvebenchError(
            "the signed summary's agents are not the request's",
            path=out / SUMMARY_FILE,
            field="agents",
        )
    if said.get("jobs") != expected:
        raise ProvebenchError(
            f"the signed summary counts {said.get('jobs')} job(s), not the {expected} the "
            "request makes",
            path=out / SUMMARY_FILE,
            field="jobs",
        )


def verify_matrix(out: Path, trusted: TrustedKey) -> int:
    """Check the matrix in `out`; returns the number of job records checked. One line
    (`ProvebenchError`) at the first thing that does not hold."""
    from provebench._canonical import written_sha256
    from provebench.matrix._engine import (
        JOB_ENVELOPE,
        JOB_PREDICATE,
        JOBS_DIR,
        MANIFEST_FILE,
    )
    from provebench.matrix._options import slug
    from provebench.pilot._limits import CONTROL_PROFILE
    from provebench.pilot.corpus import corpus_config, write_corpus
    from provebench.pilot.corpus._folder import MANIFEST_FILE as CORPUS_MANIFEST
    from provebench.pilot.matrix._job import CORPUS_IDENTITY
    from provebench.pilot.matrix._secret import REVEAL_FILE, revealed_secret
    from provebench.sandbox._private import private_folder

    request = read_json_file(out / MANIFEST_FILE)
    agents, seeds = request.get("agents"), request.get("seeds")
    candidates = request.get("candidates")
    profile, sizes, trials = request.get("profile"), request.get("sizes"), request.get("trials")
    if request.get("kind") != "pilot" or profile != CONTROL_PROFILE:
        raise ProvebenchError(
            "not a control-profile pilot matrix (only its corpora are secret and revealed)",
            path=out / MANIFEST_FILE,
            field="profile",
        )
    if not (
        isinstance(agents, list)
        and isinstance(seeds, list)
        and all(type(s) is int for s in seeds)
        and isinstance(sizes, dict)
        and all(isinstance(a, str) for a in agents)
        and type(trials) is int
        and isinstance(candidates, dict)
    ):
        raise ProvebenchError("not a matrix request", path=out / MANIFEST_FILE, field="seeds")
    _refuse_unsigned_request(out, request, trusted)
    secret = revealed_secret(out, trusted)
    published = read_json_file(out / REVEAL_FILE).get("generator_seeds")
    if published != {str(s): secret.generator_seed(s) for s in sorted(seeds)}:
        raise ProvebenchError(
            "the published generator seeds are not the ones the opening gives",
            path=out / REVEAL_FILE,
            field="generator_seeds",
        )
    manifests: dict[int, str] = {}
    scratch = private_folder("verify")
    try:
        for seed in seeds:
            config = corpus_config(
                seed=secret.generator_seed(seed),
                profile=CONTROL_PROFILE,
                overrides=sizes,
            )
            folder = scratch / str(seed)
            write_corpus(config, folder, private=True)
            digest = written_sha256(folder / CORPUS_MANIFEST)
            if digest is None:  # write_corpus records what it wrote; never expected
                raise ProvebenchError("the corpus generator wrote no manifest", path=folder)
            manifests[seed] = digest
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    records = sorted((out / JOBS_DIR).glob(f"*/*/*/{JOB_ENVELOPE}"))
    expected = len(agents) * len(seeds) * trials
    _refuse_other_summary(out, agents, expected, trusted)
    if len(records) != expected:
        raise ProvebenchError(
            f"{len(records)} job record(s), not the {expected} the request makes",
            path=out / JOBS_DIR,
        )
    for agent, seed, trial in _planned_jobs(agents, seeds, trials):
        key = f"{slug(agent)}/seed-{seed:06d}/trial-{trial:03d}"
        envelope = out / JOBS_DIR / key / JOB_ENVELOPE
        if not envelope.is_file():
            raise ProvebenchError(f"no record of the job {key}", path=envelope)
        facts = read_verified(envelope, trusted, predicate_type=JOB_PREDICATE).predicate
        identity = facts.get("identity")
        identity = identity if isinstance(identity, dict) else {}
        # A record signed for another job of this matrix (another agent's, seed's or trial's
        # folder copied in place of this one, pilot red team 30, A6) is not this job's record.
        if (
            facts.get("key") != key
            or facts.get("agent") != agent
            or facts.get("matrix") != request.get("nonce")
            or identity.get("seed") != seed
            or identity.get("candidate") != candidates.get(agent)
        ):
            raise ProvebenchError(
                f"the record in {key} is not the record of that job "
                f"(agent {agent}, seed {seed}, trial {trial})",
                path=envelope,
                field="key",
            )
        if identity.get(CORPUS_IDENTITY) != manifests[seed]:
            raise ProvebenchError(
                "the job ran on a corpus that is not the committed one of its seed",
                path=envelope,
                field=f"identity.{CORPUS_IDENTITY}",
            )
    return len(records)


__all__ = ["verify_matrix"]
