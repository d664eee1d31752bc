"""A seal never names code the candidate does not control (docs/attestation.md, "What a seal can
hold"), and a run from a seal runs the sealed code or nothing.

Before, `pilot seal --agent openai:MODEL` read the spec as `module:Class` and sealed the
installed OpenAI SDK's package as the candidate's code; `pilot run --from-seal` with that seal
(or with any seal and `--agent openai:MODEL`) ran provebench's loop on the endpoint as if
unsealed, while naming the seal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot._seal import (
    SealedCandidate,
    candidate_identity,
    generate_control,
    seal_candidate,
    sealed_code,
)
from tests.helpers.pilot_lab import make_corpus, run_cli

# CLI runs in subprocesses: in `make test`, not `make check`.
pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

MODEL = "openai:gpt-4o"
DEAD_ENDPOINT = "http://127.0.0.1:9/v1"


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def test_pilot_seal_refuses_a_model_endpoint_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "seal"
    done = run_cli("pilot", "seal", "--agent", MODEL, "--out", str(out))
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert "--agent" in line and "no seal holds" in line
    assert not out.exists()  # nothing written, no seed drawn


def test_the_model_spec_is_not_read_as_the_sdks_module() -> None:
    with pytest.raises(ProvebenchError) as refused:
        candidate_identity(MODEL, None)
    assert refused.value.field == "--agent"


@pytest.fixture
def model_seal(tmp_path: Path) -> Path:
    """A signed seal naming a model, as a build before this refusal wrote it."""
    seal = tmp_path / "model-seal"
    seal_candidate(seal, SealedCandidate({"spec": MODEL, "code_sha256": "0" * 64}, ()), "control")
    return seal


def test_a_seal_naming_a_model_is_refused_before_anything_runs(
    model_seal: Path, tmp_path: Path
) -> None:
    with pytest.raises(ProvebenchError) as refused:
        sealed_code(model_seal, load_trusted_key(None))
    assert refused.value.field == "candidate.spec"
    with pytest.raises(ProvebenchError) as refused:
        generate_control(model_seal, tmp_path / "control", load_trusted_key(None))
    assert refused.value.field == "candidate.spec"
    assert not (tmp_path / "control").exists()
    corpus = make_corpus(tmp_path)
    run = tmp_path / "run"
    done = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--from-seal", str(model_seal),
        "--out", str(run), "--base-url", DEAD_ENDPOINT, "--quiet",
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    line = one_line(done.stderr)
    assert "seal.json" in line and "candidate.spec" in line
    assert not run.exists()


def test_a_model_agent_given_with_a_seal_of_code_is_refused(tmp_path: Path) -> None:
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    corpus = make_corpus(tmp_path)
    run = tmp_path / "run"
    done = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--from-seal", str(seal), "--agent", MODEL,
        "--out", str(run), "--base-url", DEAD_ENDPOINT, "--quiet",
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    line = one_line(done.stderr)
    assert "'reference'" in line and "candidate.spec" in line and "seal.json" in line
    assert not run.exists()


@pytest.mark.parametrize("other", [("--agent", "noop"), ("--agent-cmd", "python3 -c pass")])
def test_another_candidate_given_with_a_seal_is_refused_naming_the_seal(
    tmp_path: Path, other: tuple[str, str]
) -> None:
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    run = tmp_path / "run"
    done = run_cli(
        "pilot", "run", "--corpus", str(make_corpus(tmp_path)), "--from-seal", str(seal),
        *other, "--out", str(run), "--quiet",
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    line = one_line(done.stderr)
    assert "'reference'" in line and "candidate.spec" in line and str(seal / "seal.json") in line
    assert not run.exists()
