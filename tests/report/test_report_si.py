"""The report of real SI verdicts: scenario, each predicate's outcome and evidence, the score."""

from __future__ import annotations

from provebench._canonical import sha256_file
from provebench.report import render_report, write_report
from tests.helpers.report_html import load_json, parse_report


def test_diagnoser_verdict_shows_band_score_predicates_and_match_locations(si_verdicts):
    path = si_verdicts["diagnoser"]
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
