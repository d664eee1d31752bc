"""Verdict text that never misleads: a configuration error prints only the error; `--explain`
fits 80 columns; the escrow names every cycle that held a tranche and the defect behind it; a
credited signal of 0 is not "released"; a refusal gap names its cause and its log entry."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from provebench.pilot.evaluate._escrow import cycle_ranges, held_by
from provebench.pilot.evaluate._explain import explain
from provebench.pilot.evaluate._verdict import EscrowCycle
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent
from tests.helpers.pilot_lab import run_cli


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("text")
    corpus = make_small_corpus(root, seed=5)
    return run_agent(corpus, "reference", root / "run"), corpus


def _explained(verdict: object, width: int = 80) -> str:
    out = io.StringIO()
    explain(verdict, Console(file=out, width=width, highlight=False, markup=False))  # type: ignore[arg-type]
    return out.getvalue()


def test_every_cycle_is_listed_folded_never_cut() -> None:
    assert cycle_ranges([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 16, 17, 18, 19, 20]) == (
        "2–11, 13, 15–20"
    )
    assert cycle_ranges([]) == "none"


def test_the_escrow_names_the_defect_that_held_each_cycle() -> None:
    held = [
        EscrowCycle(cycle=c, clean_when_confirmed=False, clean_final=False, regraded=False,
                    reasons=[f"{c} critical violation(s) (dated by then or undated)"])
        for c in range(2, 21)
    ]  # fmt: skip
    clean = EscrowCycle(cycle=1, clean_when_confirmed=True, clean_final=True, regraded=False,
                        reasons=[])  # fmt: skip
    text = held_by([clean, *held])
    assert text == "cycles not clean: 2–20 (critical violations: 2–20)"
    assert "omission" not in text and "duplicate" not in text


def test_a_configuration_error_prints_only_the_error(
    reference_run: tuple[Path, Path], tmp_path: Path
) -> None:
    run_dir, _corpus = reference_run
    other = make_small_corpus(tmp_path, seed=6)
    for extra in ([], ["--explain"]):
        out = tmp_path / f"verdict{len(extra)}.json"
        result = run_cli("pilot", "evaluate", str(run_dir), "--corpus", str(other),
                         "--out", str(out), *extra)  # fmt: skip
        assert result.returncode == 2
        assert "corpus_mismatch" in result.stderr
        assert "critical_violations" not in result.stdout
        assert "Perf_shadow" not in result.stdout and "compl." not in result.stdout


def test_explain_fits_80_columns_and_keeps_every_ratio(reference_run: tuple[Path, Path]) -> None:
    run_dir, corpus = reference_run
    verdict = evaluate(run_dir, corpus)
    text = _explained(verdict)
    assert all(len(line) <= 80 for line in text.splitlines())
    completeness = verdict.metrics.overall.completeness  # type: ignore[union-attr]
    assert f"compl. {completeness.numerator}/{completeness.denominator}" in text
    assert "…" not in text.split("escrow:")[0]


def test_a_credited_signal_of_zero_is_not_said_to_be_released(
    reference_run: tuple[Path, Path],
) -> None:
    run_dir, corpus = reference_run
    verdict = evaluate(run_dir, corpus)
    assert verdict.escrow is not None
    zero = verdict.model_copy(
        update={"escrow": verdict.escrow.model_copy(update={"preliminary_signal": 0.0})}
    )
    line = next(line for line in _explained(zero, 200).splitlines() if line.startswith("escrow:"))
    assert "credited" in line and "released 0" not in line
    assert "the credited signal is 0" in line


def test_large_ratios_wrap_instead_of_being_cut(reference_run: tuple[Path, Path]) -> None:
    run_dir, corpus = reference_run
    verdict = evaluate(run_dir, corpus)
    assert verdict.metrics is not None
    big = verdict.metrics.overall.completeness.model_copy(
        update={"numerator": 299999, "denominator": 299999}
    )
    overall = verdict.metrics.overall.model_copy(
        update=dict.fromkeys(type(verdict.metrics.overall).model_fields, big)
    )
    wide = verdict.model_copy(
        update={"metrics": verdict.metrics.model_copy(update={"overall": overall})}
    )
    text = _explained(wide)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert " ".join(text.split()).count("299999/299999") == 8


def test_a_violations_evidence_says_how_much_more_there_is(
    reference_run: tuple[Path, Path],
) -> None:
    from provebench.pilot.evaluate._verdict import LogRef, Violation

    run_dir, corpus = reference_run
    verdict = evaluate(run_dir, corpus)
    many = [LogRef(seq=seq, hash="0" * 64, kind="sheets.append") for seq in range(10, 19)]
    violation = Violation(kind="duplicate_in_final_state", cycle=2, file_id="f-1",
                          message="3 confirmed rows for one file_id", evidence=many)  # fmt: skip
    text = _explained(verdict.model_copy(update={"critical_violations": [violation]}), 300)
    line = next(line for line in text.splitlines() if line.startswith("CRITICAL"))
    assert "[log seq 10, 11, 12, 13, 14, 15 and 3 more in verdict.json]" in line
