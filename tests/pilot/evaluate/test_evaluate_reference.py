"""The reference importer passes cleanly; the no-op importer scores zero (pilot §7, §8, §13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._canonical import canonical_json
from provebench.attest import load_trusted_key
from provebench.pilot import run_lab
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate, sealed_code
from provebench.pilot.evaluate import SELF_CHECK_PROBE_FILE_ID, evaluate_run, exit_code
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent
from tests.helpers.published_scorer import published_script_or_skip, run_published_script

METRICS = (
    "completeness",
    "precision",
    "uniqueness",
    "field_accuracy",
    "order_correctness",
    "recovery",
    "error_honesty",
    "cycle_stability",
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reference_on_public_corpora_is_a_clean_pass(tmp_path: Path, seed: int) -> None:
    corpus = make_small_corpus(tmp_path, seed=seed)
    run = run_agent(corpus, "reference", tmp_path / "run")
    verdict = evaluate(run, corpus)
    assert verdict.status == "evaluated", verdict.configuration_errors
    assert verdict.scorer_pass is True
    assert verdict.critical_violations == []
    assert verdict.pilot_pass is None  # no external evidence attached
    assert verdict.metrics is not None
    for name in METRICS:
        metric = getattr(verdict.metrics.overall, name)
        assert metric.value == 1.0, name
        for cycle in verdict.metrics.per_cycle:
            assert getattr(cycle.metrics, name).value == 1.0, (name, cycle.cycle)
    assert verdict.metrics.overall.recovery.denominator > 0  # faults were injected and survived
    assert verdict.perf_shadow == 1.0 and verdict.perf_shadow_final_state == 1.0
    assert all(s.status != "triggered" for s in verdict.stopping_conditions)
    # The §12 final-status probe of every cycle is recognised as a probe, not as a violation.
    assert len(verdict.self_check_probes) == 4
    assert verdict.escrow is not None and verdict.escrow.preliminary_signal_credited
    assert verdict.escrow.tranches[0].released and not verdict.escrow.tranches[1].released
    assert verdict.laboratory_pass and exit_code(verdict) == 0


def test_reference_on_its_sealed_fresh_control_releases_the_whole_escrow(tmp_path: Path) -> None:
    # The control tranche is paid on the sealed fresh control only (red team 28, H3): a
    # control-profile corpus from a public seed is no control (test_rt28_pilot_seams.py).
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    corpus = tmp_path / "control"
    generate_control(seal, corpus, trusted)
    run = tmp_path / "run"
    run_lab(corpus, "reference", run, sealed=sealed_code(seal, trusted))
    verdict = evaluate_run(run, corpus, fresh_control=seal)
    assert verdict.scorer_pass and not verdict.critical_violations
    assert verdict.escrow is not None
    assert [t.released for t in verdict.escrow.tranches] == [True, True]
    assert verdict.escrow.released_total == pytest.approx(1.0)
    assert len(verdict.escrow.cycles) >= 20
    assert all(c.clean_final and not c.regraded for c in verdict.escrow.cycles)


def test_noop_scores_zero_and_fails(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "noop", tmp_path / "run")
    verdict = evaluate(run, corpus)
    assert verdict.status == "evaluated"
    assert verdict.metrics is not None
    overall = verdict.metrics.overall
    admissible = len((corpus / "expected_final_rows.csv").read_text().splitlines()) - 1
    assert overall.completeness.value == 0.0 and overall.completeness.denominator == admissible
    assert verdict.scorer_pass is False
    assert verdict.perf_shadow == 0.0
    assert verdict.metrics.shortfalls.lost == sorted(verdict.metrics.shortfalls.lost)
    assert len(verdict.metrics.shortfalls.lost) == admissible
    assert verdict.escrow is not None and not verdict.escrow.preliminary_signal_credited
    assert exit_code(verdict) == 1


def test_overall_values_agree_with_the_published_scorer(tmp_path: Path) -> None:
    script = published_script_or_skip(tmp_path)
    corpus = make_small_corpus(tmp_path, seed=4)
    for agent in ("reference", "noop", "DuplicatesAfterRepeatedRun", "ImportsFirstN"):
        run = run_agent(corpus, agent, tmp_path / agent)
        verdict = evaluate(run, corpus)
        published = json.loads(
            run_published_script(
                script, corpus / "expected_final_rows.csv", run / "register.csv"
            ).stdout
        )
        assert verdict.final_state == published, agent
        assert verdict.perf_shadow_final_state == published["Perf_shadow_final_state"]
        assert verdict.metrics is not None
        overall = verdict.metrics.overall
        assert overall.completeness.value == published["completeness"], agent
        assert overall.precision.value == published["precision"], agent
        assert overall.field_accuracy.value == published["field_accuracy"], agent
        assert (overall.uniqueness.value == 1.0) == (published["uniqueness"] == 1.0), agent
        assert verdict.scorer_pass == published["scorer_pass"], agent


def test_re_evaluation_gives_the_same_bytes(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "DuplicatesAfterRepeatedRun", tmp_path / "run")
    first = canonical_json(evaluate(run, corpus))
    (run / "verdict.json").write_text(first, encoding="utf-8")  # a verdict in the folder is fine
    assert canonical_json(evaluate(run, corpus)) == first


def test_probe_target_can_never_be_a_real_file_id() -> None:
    from provebench.pilot.rules._decide import FILE_ID_PATTERN

    assert not FILE_ID_PATTERN.fullmatch(SELF_CHECK_PROBE_FILE_ID)
