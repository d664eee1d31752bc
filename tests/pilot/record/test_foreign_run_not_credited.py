"""Red team round 13, H5 (docs/pilot-redteam.md): `pilot evaluate --trust-key OTHER` judged the
red-team report and the seal against the run's trusted key, so another laboratory's key sealed,
ran, and signed a red-team report that never ran (A02b), and this laboratory signed
`pilot_pass: true` with a fresh-control credit. The red team and the fresh control are judged
only against the laboratory's own key and only for its own runs: another key's run gets neither,
`pilot_pass` is null (not assessed), and the verdict's own bytes name the run's signer
(`result_evidence.run_signer`), which `provebench report` shows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provebench._canonical import canonical_json
from provebench.attest import KEY_DIR_ENV, load_trusted_key
from provebench.attest._envelope import write_and_sign
from provebench.attest._keys import PUBLIC_KEY_FILE, laboratory_signer
from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.pilot.evaluate import evaluate_run, write_verdict
from provebench.pilot.evaluate._rules import EVALUATOR_VERSION
from provebench.pilot.record._signing import REDTEAM_ENVELOPE_FILE, REDTEAM_PREDICATE
from provebench.report._render import write_report
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent

# What a report of the full budget, every attack caught, states (A02b: nothing ran).
_CLAIMED = {
    "evaluator_version": EVALUATOR_VERSION,
    "budget_level": "full",
    "budget_met": True,
    "passed": True,
    "injection_attacks": {"total": 1, "exercised_and_caught": 1},
}
_CREDITED_BY_KEY = ("red_team", "evaluator_injection_isolation", "fresh_hidden_control")


def _fabricated_red_team(folder: Path) -> Path:
    folder.mkdir()
    write_and_sign(
        folder / "redteam.json", canonical_json([]), folder / REDTEAM_ENVELOPE_FILE,
        REDTEAM_PREDICATE, _CLAIMED,
    )  # fmt: skip
    return folder


def _other_laboratory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, ...]:
    """Another key seals a candidate, runs it, and signs a red-team report that never ran."""
    corpus = make_small_corpus(tmp_path)
    own, other = Path(os.environ[KEY_DIR_ENV]), tmp_path / "other-keys"
    laboratory_signer(other)
    monkeypatch.setenv(KEY_DIR_ENV, str(other))
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("noop", None), "control")
    run = run_agent(corpus, "noop", tmp_path / "run")
    red_team = _fabricated_red_team(tmp_path / "redteam")
    monkeypatch.setenv(KEY_DIR_ENV, str(own))
    return corpus, run, seal, red_team, other / PUBLIC_KEY_FILE


def test_another_keys_red_team_and_seal_are_not_credited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus, run, seal, red_team, other = _other_laboratory(tmp_path, monkeypatch)
    foreign = load_trusted_key(other)
    verdict = evaluate_run(run, corpus, trusted_key=foreign, red_team=red_team, fresh_control=seal)
    assert verdict.status == "evaluated"  # the other key vouched for the run
    outcomes = {check.check: check for check in verdict.external_checks}
    for name in _CREDITED_BY_KEY:
        assert outcomes[name].outcome is None, (name, outcomes[name].basis)
        assert "another laboratory's" in outcomes[name].basis
    assert verdict.pilot_pass is None
    assert verdict.result_evidence is not None
    assert verdict.result_evidence.run_signer == foreign.keyid != load_trusted_key().keyid
    # The report names it: another laboratory's run, first.
    write_verdict(verdict, run / "verdict.json")
    page = write_report(run / "verdict.json").read_text(encoding="utf-8")
    assert "ANOTHER LABORATORY&#39;S RUN" in page or "ANOTHER LABORATORY'S RUN" in page
    assert foreign.keyid in page


def test_the_laboratorys_own_red_team_is_still_judged_for_its_own_run(tmp_path: Path) -> None:
    """The honest control: this laboratory's own run and red-team report are judged as
    before (the report is read and its claims decide), and the verdict names its own key."""
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "noop", tmp_path / "run")
    red_team = _fabricated_red_team(tmp_path / "redteam")
    verdict = evaluate_run(run, corpus, red_team=red_team)
    assert verdict.result_evidence is not None
    assert verdict.result_evidence.run_signer == load_trusted_key().keyid
    outcomes = {check.check: check for check in verdict.external_checks}
    assert outcomes["red_team"].outcome is True  # signed by this laboratory: its word is taken
    assert outcomes["evaluator_injection_isolation"].outcome is True
    write_verdict(verdict, run / "verdict.json")
    page = write_report(run / "verdict.json").read_text(encoding="utf-8")
    assert "ANOTHER LABORATORY" not in page


def test_a_red_team_signed_by_another_key_is_refused_for_the_laboratorys_own_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The laboratory's own run with another key's red-team report: judged against the
    laboratory's key, the report does not verify (one line, no verdict)."""
    from provebench._errors import ProvebenchError

    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "noop", tmp_path / "run")
    own, other = Path(os.environ[KEY_DIR_ENV]), tmp_path / "other-keys"
    laboratory_signer(other)
    monkeypatch.setenv(KEY_DIR_ENV, str(other))
    red_team = _fabricated_red_team(tmp_path / "redteam")
    monkeypatch.setenv(KEY_DIR_ENV, str(own))
    with pytest.raises(ProvebenchError) as refused:
        evaluate_run(run, corpus, red_team=red_team)
    assert "\n" not in str(refused.value)
