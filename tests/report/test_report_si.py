"""The report of real SI verdicts: scenario, each predicate's outcome and evidence, the score."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from provebench._canonical import sha256_file
from provebench.report import render_report, write_report
from tests.helpers.report_html import load_json, parse_report


def _copy_of(verdict: Path, tmp_path: Path) -> Path:
    """The verdict's run folder copied: the shared one (tests/report/conftest.py) is read only,
    and `write_report` with no `out` writes beside the verdict."""
    return shutil.copytree(verdict.parent, tmp_path / verdict.parent.name) / verdict.name


def test_diagnoser_verdict_shows_band_score_predicates_and_match_locations(si_verdicts, tmp_path):
    path = _copy_of(si_verdicts["diagnoser"], tmp_path)
    verdict = load_json(path)
    out = write_report(path)
    assert out == path.with_name("report.html")
    _, text = parse_report(out.read_text(encoding="utf-8"))
    assert verdict["band"] == "correct_root_cause"
    assert "correct_root_cause" in text and "1.0" in text
    assert verdict["scenario"]["id"] in text
    assert verdict["matched_row"]["predicate"] in text
    for evaluation in verdict["evaluations"]:
        assert evaluation["call"] in text
        outcome = "true" if evaluation["result"]["value"] else "false"
        assert f"row {evaluation['row']}: {evaluation['result']['primitive']} → {outcome}" in text
    factor = verdict["evaluations"][1]["result"]
    synonym = factor["cooccurrence"]["synonym_match"]
    assert "evidence references (3)" in text  # one identifier match + identifier and synonym
    cells = "".join(text.split())
    location = f"{synonym['channel']}{synonym['line']}{synonym['column']}"
    assert (
        f"result.cooccurrence.synonym_match{synonym['needle']}{synonym['text']}{location}" in cells
    )
    assert sha256_file(path) in text
    for digest in verdict["inputs"].values():
        assert digest in text


def test_noop_verdict_shows_incorrect_and_no_evidence(si_verdicts):
    verdict = load_json(si_verdicts["noop"])
    _, text = parse_report(render_report(verdict))
    assert verdict["band"] == "incorrect" and verdict["score"] == 0.0
    assert "SI verdict" in text and "incorrect" in text
    assert "none: this result cites no text location" in text
    assert "otherwise" in text


def test_the_answer_is_shown_with_the_verdicts_own_matches_marked(si_verdicts, tmp_path):
    path = _copy_of(si_verdicts["diagnoser"], tmp_path)
    verdict = load_json(path)
    html = write_report(path).read_text(encoding="utf-8")
    cooccurrence = verdict["evaluations"][1]["result"]["cooccurrence"]
    identifier, synonym = cooccurrence["identifier_match"], cooccurrence["synonym_match"]
    assert f'<mark class="identifier">{identifier["text"]}</mark>' in html
    assert f'<mark class="synonym">{synonym["text"]}</mark>' in html
    # The line whose sentence held both, and so decided factor_identified, is underlined.
    assert html.count('<span class="decides" title="the sentence that decided') == 1
    answer = load_json(path.with_name("evidence.json"))["final_answer"]
    _, text = parse_report(html)
    assert answer in text


def test_an_evidence_file_that_is_not_the_scored_one_is_not_shown(si_verdicts, tmp_path):
    source = si_verdicts["diagnoser"]
    (tmp_path / "verdict.json").write_bytes(source.read_bytes())
    evidence = load_json(source.with_name("evidence.json"))
    evidence["final_answer"] = "an answer the verdict never scored"
    (tmp_path / "evidence.json").write_text(json.dumps(evidence), encoding="utf-8")
    _, text = parse_report(write_report(tmp_path / "verdict.json").read_text(encoding="utf-8"))
    assert "an answer the verdict never scored" not in text
    assert "not shown: no evidence.json beside the verdict with the sha256" in text


def test_the_why_says_in_one_sentence_per_higher_row_why_it_failed(si_verdicts, tmp_path):
    from provebench.report._reasons import si_reasons
    from tests.helpers.pilot_lab import REPO_ROOT, run_cli

    scenario = REPO_ROOT / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"
    evidence = REPO_ROOT / "src/provebench/si/examples/named-without-characterisation.json"
    scored = run_cli("si", "score", str(scenario), str(evidence))
    assert scored.returncode == 0, scored.stderr
    # Re-scored evidence is unsealed: that reason comes first; the rows' reasons follow.
    reasons = [r["text"] for r in si_reasons(json.loads(scored.stdout))]
    assert reasons[0].startswith("UNSEALED")
    reasons = reasons[1:]
    assert reasons[0].startswith("Row 3 of the decision table matched first")
    assert reasons[1].startswith("Row 1 did not hold: within_step_budget")
    assert "and the row requires it false" in reasons[1]
    assert reasons[2].startswith("Row 2 did not hold: factor_identified")
    assert "SMTP_PORT named, but no deviation word" in reasons[2]
    assert "same-sentence window" in reasons[2]
    noop = [r["text"] for r in si_reasons(load_json(si_verdicts["noop"]))]
    assert len(noop) == 4 and "SMTP_PORT not named" in noop[2]


def test_an_unsealed_verdict_says_so_first_and_a_sealed_one_does_not(si_verdicts):
    sealed = load_json(si_verdicts["diagnoser"])
    assert sealed["sealed"] is True
    _, text = parse_report(render_report(sealed))
    assert "UNSEALED" not in text
    # The same verdict, as si serve's MCP client (or a local model endpoint) would get it.
    _, text = parse_report(render_report({**sealed, "sealed": False}))
    assert "UNSEALED: the agent ran outside provebench's seal" in text
    assert text.index("UNSEALED") < text.index(sealed["matched_row"]["predicate"])
