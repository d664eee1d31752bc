"""Red team round 12, A7 (docs/attestation.md, "A resumed run is read, not credited"): a run
folder holding any trace of an earlier attempt of this run is a resume, whether or not its log
holds entries. A sealed control stopped inside cycle 1 — before its first commit, so its log is
empty — ran cycle 1 again when the same command was run again, yet was signed `resumed: false`,
credited and revealed."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.pilot import run_lab
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate, sealed_code
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.record._seal import REVEAL_ENVELOPE_FILE, REVEAL_FILE
from tests.helpers.pilot_lab import make_corpus, run_cli

# Seconds (laboratory runs in subprocesses, a control corpus): in `make test`.
pytestmark = pytest.mark.slow


def _resumed(run: Path) -> object:
    return json.loads((run / "run.json").read_text(encoding="utf-8"))["non_scoring"]["resumed"]


def test_a_run_killed_inside_cycle_1_is_signed_resumed(tmp_path: Path) -> None:
    """The round's own kill (`call:5@1`): the attempt dies inside cycle 1, its log empty."""
    corpus = make_corpus(tmp_path, profile="public", seed=3)
    out = tmp_path / "run"
    args = ["pilot", "run", "--corpus", str(corpus), "--agent", "reference", "--out", str(out)]
    killed = run_cli(*args, env={"PROVEBENCH_PILOT_CRASH_AT": "call:5@1"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    again = run_cli(*args)
    assert again.returncode == 0, again.stderr
    assert _resumed(out) is True


def test_a_control_stopped_in_cycle_1_is_not_revealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from provebench.pilot.lab import _runner

    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    control = tmp_path / "control"
    generate_control(seal, control, trusted)
    from_seal = sealed_code(seal, trusted)
    original = _runner.run_cycle

    def stopped_in_cycle_1(**arguments: object) -> object:
        if arguments["cycle"] == 1:
            raise KeyboardInterrupt  # before the first commit: the folder is kept, to resume
        return original(**arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(_runner, "run_cycle", stopped_in_cycle_1)
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_lab(control, "reference", run, sealed=from_seal)
    monkeypatch.setattr(_runner, "run_cycle", original)
    run_lab(control, "reference", run, sealed=from_seal)
    assert _resumed(run) is True
    verdict = evaluate_run(run, control, fresh_control=seal)
    write_verdict(verdict, run / "verdict.json")
    assert verdict.laboratory_pass is not True
    refused = run_cli("pilot", "reveal", str(seal), "--verdict", str(run / "verdict.json"))
    assert refused.returncode == 2
    [line] = refused.stderr.splitlines()
    assert "run again, uninterrupted, from its seal" in line and "non_scoring.resumed" in line
    assert not (seal / REVEAL_FILE).exists() and not (seal / REVEAL_ENVELOPE_FILE).exists()
