"""Red team round 9, A5 (docs/attestation.md, "A resumed run is read, not credited"): a resumed
run earns neither the laboratory gate's pass nor escrow — the anchors cannot tell a crash from a
folder cut back to an earlier commit, so whoever can stop a run could re-draw a nondeterministic
candidate's cycles one by one. Its scorer's verdict is still computed and shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.pilot.evaluate import evaluate_run
from provebench.pilot.lab import _runner
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _stopped_then_resumed(
    corpus: Path, out: Path, monkeypatch: pytest.MonkeyPatch, at_cycle: int
) -> Path:
    original = _runner.run_cycle

    def stopped(**arguments: object) -> object:
        if arguments["cycle"] == at_cycle:
            raise KeyboardInterrupt  # stopped after a commit: the folder is kept, to resume
        return original(**arguments)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(_runner, "run_cycle", stopped)
        with pytest.raises(KeyboardInterrupt):
            run_agent(corpus, "reference", out)
    return run_agent(corpus, "reference", out)


def test_a_resumed_run_is_scored_but_earns_no_gate_pass_and_no_escrow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = make_small_corpus(tmp_path, seed=1)
    whole = evaluate_run(run_agent(corpus, "reference", tmp_path / "whole"), corpus)
    assert whole.laboratory_pass is True and whole.escrow is not None
    assert whole.escrow.released_total > 0
    resumed = evaluate_run(_stopped_then_resumed(corpus, tmp_path / "resumed", monkeypatch, 3),
                           corpus)  # fmt: skip
    assert resumed.non_scoring["resumed"] is True
    # The scorer reads the same register: its verdict is computed and shown.
    assert resumed.scorer_pass is True and resumed.metrics == whole.metrics
    assert resumed.laboratory_pass is False and resumed.pilot_pass is not True
    [loss] = [s for s in resumed.stopping_conditions if s.name == "loss_of_attempts"]
    assert loss.status == "triggered"
    assert "the run was resumed" in loss.reason and "run it again, uninterrupted" in loss.reason
    assert resumed.escrow is not None and resumed.escrow.released_total == 0.0
    assert "the run was resumed" in resumed.escrow.reason
