"""A control matrix's corpora come from a secret drawn per matrix, committed (signed) before any
job runs and revealed once every job ended (docs/matrix.md, "Hidden control sets").

Pilot red team 28, H4: each job's corpus was `pilot generate --seed SEED --profile control` with
the public `--seeds` integer, and the generator is deterministic; `regen.py`, sealed, ran
provebench's generator in its sandbox for seeds 1–12, matched its first listing, and held its
job's answer key and fault schedule (laboratory_pass, escrow 1.0). The public seed now names the
job, not the corpus. The honest controls: a public profile's corpora stay the public seed's, a
rerun of the same matrix makes the same corpora, and a revealed matrix verifies."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.matrix import JobResult, JobSpec
from provebench.matrix._jobs import execute_job
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.matrix._plan import plan_pilot_matrix
from provebench.pilot.matrix._secret import (
    COMMITMENT_ENVELOPE,
    COMMITMENT_PREDICATE,
    opening_path,
)

# The control profile's own sizes are its minimum (pilot §11): no smaller control corpus.
SMALL: dict[str, int] = {}
PUBLIC_SMALL = {"cycles": 4, "file_events": 30, "admissible_files": 12}


def _manifest(folder: Path) -> str:
    return hashlib.sha256((folder / "manifest.json").read_bytes()).hexdigest()


def _prepared(out: Path, seeds: list[int], overrides: dict[str, int], nonce: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    request = plan_pilot_matrix(out, ["noop"], seeds, "control", 1, overrides, None)
    assert request.prepare is not None
    request.prepare(nonce)


def test_a_control_jobs_corpus_is_none_a_candidate_regenerates_from_the_public_seeds(
    tmp_path: Path,
) -> None:
    """The attack as played: the job of `--seeds 7` (the control profile's own sizes) against
    `pilot generate --seed N --profile control` for N = 1…12 — none is its corpus, nor holds
    its first cycle's files."""
    nonce = secrets.token_hex(32)
    _prepared(tmp_path / "m", [7], {}, nonce)
    corpus = tmp_path / "m" / "corpora" / "control-7"
    first_cycle = _cycle_one_files(corpus)
    for seed in range(1, 13):
        regenerated = tmp_path / f"g{seed}"
        write_corpus(corpus_config(seed=seed, profile="control"), regenerated)
        assert _manifest(regenerated) != _manifest(corpus), seed
        assert not first_cycle <= _cycle_one_files(regenerated), seed
    stated = json.loads((corpus / "corpus.json").read_text(encoding="utf-8"))
    assert stated["config"]["seed"] != 7


def _cycle_one_files(corpus: Path) -> set[str]:
    found: set[str] = set()
    for line in (corpus / "drive_events.jsonl").read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        file_id = (event.get("file") or {}).get("file_id") or event.get("file_id")
        if event.get("cycle") == 1 and file_id:
            found.add(file_id)
    assert found
    return found


def test_the_commitment_is_signed_before_any_job_and_the_opening_is_kept_outside(
    tmp_path: Path,
) -> None:
    nonce = secrets.token_hex(32)
    out = tmp_path / "m"
    _prepared(out, [1], SMALL, nonce)
    facts = read_verified(
        out / COMMITMENT_ENVELOPE, load_trusted_key(), predicate_type=COMMITMENT_PREDICATE
    ).predicate
    assert facts["matrix"] == nonce
    opening = json.loads(opening_path(nonce).read_text(encoding="ascii"))
    # Nowhere in the matrix folder (which an operator may leave anywhere): only its commitment.
    for path in out.rglob("*"):
        if path.is_file():
            assert opening["nonce"].encode() not in path.read_bytes(), path


def test_a_rerun_makes_the_same_corpora_and_a_new_matrix_other_ones(tmp_path: Path) -> None:
    nonce = secrets.token_hex(32)
    _prepared(tmp_path / "m", [1, 2], SMALL, nonce)
    first = [_manifest(tmp_path / "m" / "corpora" / f"control-{s}") for s in (1, 2)]
    _prepared(tmp_path / "m", [1, 2], SMALL, nonce)  # the resume of the same matrix
    assert [_manifest(tmp_path / "m" / "corpora" / f"control-{s}") for s in (1, 2)] == first
    _prepared(tmp_path / "n", [1, 2], SMALL, secrets.token_hex(32))  # a new matrix
    other = [_manifest(tmp_path / "n" / "corpora" / f"control-{s}") for s in (1, 2)]
    assert set(other).isdisjoint(first)


def test_a_public_profiles_corpus_is_still_the_public_seeds(tmp_path: Path) -> None:
    """The honest control: public corpora are the public seed's (pilot §11 development sets)."""
    out = tmp_path / "m"
    out.mkdir()
    request = plan_pilot_matrix(out, ["noop"], [1], "public", 1, PUBLIC_SMALL, None)
    assert request.prepare is not None
    request.prepare(secrets.token_hex(32))
    write_corpus(corpus_config(seed=1, profile="public", overrides=PUBLIC_SMALL), tmp_path / "g")
    assert _manifest(out / "corpora" / "public-1") == _manifest(tmp_path / "g")
    assert not (out / COMMITMENT_ENVELOPE).exists()


def test_a_matrix_whose_secret_is_lost_is_not_run_again(tmp_path: Path) -> None:
    nonce = secrets.token_hex(32)
    _prepared(tmp_path / "m", [1], SMALL, nonce)
    opening_path(nonce).unlink()
    with pytest.raises(ProvebenchError, match="not in the private root"):
        _prepared(tmp_path / "m", [1], SMALL, nonce)


class _InProcess:
    name = "stand-in"

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        for spec in specs:
            yield execute_job(spec)

    def close(self) -> None:
        pass


@pytest.mark.slow
def test_a_finished_matrix_is_revealed_verified_and_never_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import provebench.matrix
    from provebench.cli import app

    monkeypatch.setattr(provebench.matrix, "executor_for", lambda *_: _InProcess())
    out = tmp_path / "m"
    arguments = ["pilot", "matrix", "--agents", "noop", "--seeds", "1-2", "--profile", "control",
                 "--quiet", "--out", str(out)]  # fmt: skip
    done = CliRunner().invoke(app, arguments)
    assert done.exit_code == 0, done.output
    revealed = json.loads((out / "reveal.json").read_text(encoding="utf-8"))
    assert set(revealed["generator_seeds"]) == {"1", "2"}
    nonce = json.loads((out / "matrix.json").read_text(encoding="utf-8"))["nonce"]
    assert not opening_path(nonce).exists()  # published: no longer kept as a secret
    checked = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
    assert checked.exit_code == 0, checked.output
    assert "2 job(s), each on the committed corpus" in checked.output
    # A rerun would run a job on a corpus now public: refused, nothing run.
    again = CliRunner().invoke(app, arguments)
    assert isinstance(again.exception, ProvebenchError), again.output
    assert "secret is revealed" in str(again.exception)
    # A reveal that is not the signed one does not verify.
    (out / "reveal.json").write_text(
        json.dumps({**revealed, "seed": revealed["seed"] ^ 1}), encoding="utf-8"
    )
    forged = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
    assert isinstance(forged.exception, ProvebenchError), forged.output


@pytest.mark.slow
def test_a_job_folder_holding_another_jobs_record_does_not_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pilot red team 30, A6: the failing noop job's folder replaced by the reference job's
    (each record signed, each on the committed corpus) verified. Each record must be the one
    of the job its folder holds: agent, seed and trial."""
    import shutil

    import provebench.matrix
    from provebench.cli import app

    monkeypatch.setattr(provebench.matrix, "executor_for", lambda *_: _InProcess())
    out = tmp_path / "m"
    arguments = ["pilot", "matrix", "--agents", "reference,noop", "--seeds", "1", "--trials",
                 "2", "--profile", "control", "--quiet", "--out", str(out)]  # fmt: skip
    done = CliRunner().invoke(app, arguments)
    assert done.exit_code == 0, done.output
    checked = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
    assert checked.exit_code == 0, checked.output  # the honest control
    jobs = out / "jobs"
    (noop,) = jobs.glob("noop-*")
    (reference,) = jobs.glob("reference-*")
    kept = tmp_path / "kept"
    shutil.copytree(noop, kept)

    def refused(why: str) -> None:
        result = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
        assert isinstance(result.exception, ProvebenchError), (why, result.output)
        assert "is not the record of that job" in str(result.exception), why

    shutil.rmtree(noop)
    shutil.copytree(reference, noop)  # the attack as played: another agent's jobs
    refused("agent")
    shutil.rmtree(noop)
    shutil.copytree(kept, noop)
    first, second = noop / "seed-000001" / "trial-001", noop / "seed-000001" / "trial-002"
    first.rename(tmp_path / "first")
    second.rename(first)
    (tmp_path / "first").rename(second)  # the same agent's two trials swapped
    refused("trial")


@pytest.mark.slow
def test_matrix_json_is_held_to_the_request_signed_before_any_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pilot red team 31, A3: `matrix.json` is unsigned; the failing agent dropped from it (its
    `candidates` entry and job folders deleted), or `trials` lowered, verified. The commitment
    signs the request before any job, and the signed summary counts the jobs."""
    import shutil

    import provebench.matrix
    from provebench.cli import app

    monkeypatch.setattr(provebench.matrix, "executor_for", lambda *_: _InProcess())
    out = tmp_path / "m"
    arguments = ["pilot", "matrix", "--agents", "reference,noop", "--seeds", "1", "--trials",
                 "2", "--profile", "control", "--quiet", "--out", str(out)]  # fmt: skip
    done = CliRunner().invoke(app, arguments)
    assert done.exit_code == 0, done.output
    committed = read_verified(
        out / COMMITMENT_ENVELOPE, load_trusted_key(), predicate_type=COMMITMENT_PREDICATE
    ).predicate["request"]
    assert (committed["agents"], committed["trials"]) == (["reference", "noop"], 2)
    checked = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
    assert checked.exit_code == 0, checked.output  # the honest control
    original = (out / "matrix.json").read_bytes()

    def refused(edit: dict[str, object], field: str) -> None:
        edited = {**json.loads(original), **edit}
        (out / "matrix.json").write_text(json.dumps(edited), encoding="utf-8")
        result = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
        assert isinstance(result.exception, ProvebenchError), (field, result.output)
        said = str(result.exception)
        assert f"matrix.json's {field} is not the one signed" in said and "\n" not in said
        assert result.exception.field == field

    (noop,) = (out / "jobs").glob("noop-*")
    kept = tmp_path / "kept"
    shutil.copytree(noop, kept)
    shutil.rmtree(noop)  # the attack as played: the failing agent and its jobs gone
    request = json.loads(original)
    refused(
        {"agents": ["reference"], "candidates": {"reference": request["candidates"]["reference"]}},
        "agents",
    )
    shutil.copytree(kept, noop)
    for late in (out / "jobs").glob("*/seed-000001/trial-002"):
        shutil.rmtree(late)  # the later trials dropped
    refused({"trials": 1}, "trials")
    (out / "matrix.json").write_bytes(original)
    (out / "summary.dsse.json").unlink()  # no signed summary: nothing counts the jobs
    result = CliRunner().invoke(app, ["pilot", "matrix-verify", str(out)])
    assert isinstance(result.exception, ProvebenchError), result.output
