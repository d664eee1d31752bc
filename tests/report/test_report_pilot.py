"""The report of real pilot 03 verdicts shows what each verdict says, and all of it."""

from __future__ import annotations

import tempfile
from pathlib import Path

from provebench._canonical import sha256_file
from provebench.report import MAX_LIST_ITEMS, render_report, write_report
from tests.helpers.report_html import load_json, parse_report


def _text_of(verdict_path: Path) -> tuple[dict, str]:
    # The verdicts are shared by the test run's workers (tests/report/conftest.py): the report
    # is written to a folder of its own, never beside them.
    with tempfile.TemporaryDirectory() as folder:
        out = write_report(verdict_path, Path(folder) / "out.html")
        _, text = parse_report(out.read_text(encoding="utf-8"))
    return load_json(verdict_path), text


def test_reference_run_is_a_laboratory_pass_with_external_checks_pending(pilot_verdicts):
    verdict, text = _text_of(pilot_verdicts["reference"])
    assert verdict["laboratory_pass"] is True and verdict["pilot_pass"] is None
    assert "laboratory pass" in text
    assert "null — external checks pending" in text
    assert "Critical violations (0)" in text


def test_a_verdict_stopped_at_its_inputs_is_reported_not_refused(pilot_verdicts):
    # docs/report.md: a configuration error is a report too, whose banner says so; the sections
    # the evaluation never reached say "not computed" instead of showing empty tables.
    verdict, text = _text_of(pilot_verdicts["incomplete_run"])
    assert verdict["status"] == "configuration_error"
    assert verdict["metrics"] is None and verdict["escrow"] is None
    assert verdict["result_evidence"] is None
    headline, _, rest = text.partition("Configuration errors")
    assert "configuration error" in headline and "laboratory pass" not in headline
    assert "incomplete_run" in rest
    # Metrics, shortfalls and escrow not computed; the input hashes not recorded.
    assert rest.count("not computed: the evaluation stopped at its inputs") == 3
    assert "not recorded: the evaluation stopped at its inputs" in rest


def test_every_overall_metric_shows_numerator_and_denominator(pilot_verdicts):
    verdict = load_json(pilot_verdicts["noop"])
    html = render_report(verdict)
    for name, metric in verdict["metrics"]["overall"].items():
        row = (
            f'<tr><th>{name}</th><td><span class="num">{metric["numerator"]}</span></td>'
            f'<td><span class="num">{metric["denominator"]}</span></td>'
        )
        assert row in html, name
    for cycle in verdict["metrics"]["per_cycle"]:
        completeness = cycle["metrics"]["completeness"]
        assert f"{completeness['numerator']}/{completeness['denominator']} = " in html


def test_failing_run_shows_fail_lost_file_ids_and_caps_long_lists(pilot_verdicts):
    verdict, text = _text_of(pilot_verdicts["noop"])
    assert verdict["laboratory_pass"] is False
    assert "fail" in text.split("Configuration errors")[0]
    lost = verdict["metrics"]["shortfalls"]["lost"]
    assert lost, "the noop importer must lose every admissible file"
    for file_id in lost[:MAX_LIST_ITEMS]:
        assert file_id in text
    files = verdict["reconciliation"]["files"]
    assert len(files) > MAX_LIST_ITEMS
    hidden = files[-1]["file_id"]
    assert hidden not in [f["file_id"] for f in files[:MAX_LIST_ITEMS]]
    assert f"and {len(files) - MAX_LIST_ITEMS} more; the full list is in the JSON." in text


def test_critical_violations_show_the_log_entries_that_prove_them(pilot_verdicts):
    verdict, text = _text_of(pilot_verdicts["deletes_an_error"])
    violations = verdict["critical_violations"]
    assert violations
    assert f"Critical violations ({len(violations)})" in text
    for violation in violations:
        assert violation["message"] in text
        for entry in violation["evidence"]:
            assert entry["hash"] in text


def test_wrong_fields_show_the_field_diff(pilot_verdicts):
    verdict, text = _text_of(pilot_verdicts["uses_creation_time"])
    wrong = verdict["metrics"]["shortfalls"]["wrong_fields"]
    assert wrong
    for item in wrong[:MAX_LIST_ITEMS]:
        for field in item["fields"]:
            assert field["expected"] in text and field["found"] in text


def test_versions_input_hashes_escrow_and_verdict_sha256(pilot_verdicts):
    path = pilot_verdicts["reference"]
    verdict, text = _text_of(path)
    assert sha256_file(path) in text
    for name, digest in verdict["result_evidence"]["inputs_sha256"].items():
        assert f"{name}{digest}" in text
    for version in verdict["result_evidence"]["rule_versions"].values():
        assert version in text
    assert verdict["escrow"]["reason"] in text
    for tranche in verdict["escrow"]["tranches"]:
        assert tranche["reason"] in text


def test_fields_not_rendered_specially_are_still_shown(pilot_verdicts):
    verdict = load_json(pilot_verdicts["reference"])
    verdict["unheard_of_field"] = {"nested": ["kept-value-1"]}
    verdict["metrics"]["extra_metric_note"] = "kept-value-2"
    verdict["result_evidence"]["extra_version"] = "kept-value-3"
    _, text = parse_report(render_report(verdict))
    for needle in ("unheard_of_field", "kept-value-1", "kept-value-2", "kept-value-3"):
        assert needle in text
