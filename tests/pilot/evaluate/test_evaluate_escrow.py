"""Escrow (pilot §8, §13) and external evidence / pilot_pass (pilot §7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.pilot.evaluate import evaluate_run
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("escrow"), seed=1)


def test_a_late_duplicate_regrades_the_cycles_that_looked_clean(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=1, cycles=6)
    run = run_agent(corpus, "DuplicatesLate", tmp_path / "late")
    verdict = evaluate_run(run, corpus)
    assert verdict.escrow is not None
    by_cycle = {c.cycle: c for c in verdict.escrow.cycles}
    # Cycles 1 and 2 were clean when confirmed; cycle 5 duplicated one of their rows.
    assert by_cycle[1].clean_when_confirmed and by_cycle[2].clean_when_confirmed
    regraded = [c.cycle for c in verdict.escrow.cycles if c.regraded]
    assert regraded and min(regraded) <= 2
    assert any("duplicated later" in reason for reason in by_cycle[min(regraded)].reasons)
    first = verdict.escrow.tranches[0]
    assert first.released_when_confirmed and not first.released and first.regraded
    assert first.amount == 0.0 and verdict.escrow.released_total == 0.0


def test_the_reference_releases_only_the_first_tranche_without_a_control_sequence(
    corpus: Path,
) -> None:
    run = run_agent(corpus, "reference", corpus.parent / "ref")
    escrow = evaluate_run(run, corpus).escrow
    assert escrow is not None and escrow.preliminary_signal_credited
    first, control = escrow.tranches
    assert first.released and first.amount == pytest.approx(0.4)
    assert not control.released and "needs 20" in control.reason
    assert escrow.released_total == pytest.approx(0.4)


def filled_checks(corpus: Path, passed: bool = True, *, leave_out: str = "") -> dict:
    document = json.loads((corpus / "external_checks_template.json").read_text())
    for check in document["external_checks"]:
        if check["check"] == leave_out:
            continue
        check["passed"] = passed
        check["evidence"] = [
            {
                "description": f"report for {check['check']}",
                "uri": "file:///r.pdf",
                "sha256": "a" * 64,
            }
        ]
    return document


def write(tmp_path: Path, document: dict) -> Path:
    path = tmp_path / "checks.json"
    path.write_text(canonical_json(document))
    return path


def test_a_self_filled_external_checks_file_leaves_pilot_pass_null(
    corpus: Path, tmp_path: Path
) -> None:
    """pilot_pass comes only from evidence provebench verified (docs/attestation.md): every check
    claimed passed, with an arbitrary URI and sha256, sets nothing."""
    run = run_agent(corpus, "reference", corpus.parent / "ref-ext")
    verdict = evaluate_run(run, corpus, external_checks=write(tmp_path, filled_checks(corpus)))
    assert verdict.laboratory_pass is True
    assert verdict.pilot_pass is None
    assert "external_checks" in verdict.result_evidence.inputs_sha256  # type: ignore[union-attr]
    outcomes = {c.check: c for c in verdict.external_checks}
    assert all(check.attached_passed is True for check in outcomes.values())
    for name in ("red_team", "fresh_hidden_control", "evaluator_injection_isolation"):
        assert outcomes[name].outcome is None and outcomes[name].evidence_attached is False
    # What the run's own evidence establishes is filled in whatever the file says.
    failed = write(tmp_path, filled_checks(corpus, passed=False))
    by_hand = {
        c.check: c for c in evaluate_run(run, corpus, external_checks=failed).external_checks
    }
    assert by_hand["recovery"].attached_passed is False and by_hand["recovery"].outcome is True


def test_attached_evidence_cannot_rescue_a_failed_laboratory_finding(
    corpus: Path, tmp_path: Path
) -> None:
    run = run_agent(corpus, "ConcealsFailedAppends", corpus.parent / "conceal-ext")
    verdict = evaluate_run(run, corpus, external_checks=write(tmp_path, filled_checks(corpus)))
    outcomes = {c.check: c for c in verdict.external_checks}
    assert outcomes["event_log_completeness"].attached_passed is True
    assert outcomes["event_log_completeness"].laboratory_finding is False
    assert outcomes["event_log_completeness"].outcome is False
    assert verdict.pilot_pass is None  # and never true: the red team and control are missing


@pytest.mark.parametrize(
    "breakage",
    ["pilot_pass_by_hand", "missing_check", "passed_without_evidence", "bad_sha256"],
)
def test_malformed_external_evidence_is_refused(
    corpus: Path, tmp_path: Path, breakage: str
) -> None:
    document = filled_checks(corpus)
    if breakage == "pilot_pass_by_hand":
        document["pilot_pass"] = True
    elif breakage == "missing_check":
        document["external_checks"].pop()
    elif breakage == "passed_without_evidence":
        document["external_checks"][0]["evidence"] = []
    else:
        document["external_checks"][0]["evidence"][0]["sha256"] = "xyz"
    run = run_agent(corpus, "reference", corpus.parent / "ref-bad")
    with pytest.raises(ProvebenchError):
        evaluate_run(run, corpus, external_checks=write(tmp_path, document))
