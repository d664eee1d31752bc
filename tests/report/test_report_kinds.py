"""`provebench report FOLDER` on a red team and on an OASIS suite: each recognised by its format
marker, the reason first, the plots, and every figure the summary's own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.report import detect_kind, write_report
from tests.helpers.report_html import parse_report
from tests.helpers.shared_run import Completed

pytestmark = pytest.mark.slow


def _page(folder: Path, tmp_path: Path, name: str) -> tuple[str, str]:
    html = write_report(folder, tmp_path / f"{name}.html").read_text(encoding="utf-8")
    return html, parse_report(html)[1]


def test_a_red_team_folder_reports_every_attack_and_the_budget(
    red_team_run: Completed, tmp_path: Path
) -> None:
    summary = json.loads((red_team_run.out / "redteam-summary.json").read_text())
    assert detect_kind(summary) == "redteam"
    html, text = _page(red_team_run.out, tmp_path, "redteam")
    why = text.split("Why", 1)[1]
    assert f"{summary['caught']} of {summary['attacks']} attacks caught" in why
    assert "Budget (full): every §14 minimum met." in why
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart"') == 2
    attacks = json.loads((red_team_run.out / "redteam.json").read_text())
    for attack in attacks:
        assert attack["attack"] in text
    assert f"Attacks ({len(attacks)})" in text


def test_a_failed_red_team_says_which_attack_escaped(
    red_team_run: Completed, tmp_path: Path
) -> None:
    folder = tmp_path / "escaped"
    folder.mkdir()
    summary = json.loads((red_team_run.out / "redteam-summary.json").read_text())
    summary.update(passed=False, caught=summary["caught"] - 1, uncaught=["deleting-an-error"])
    # A smaller budget, as `--budget ci` gives: the line says which minimum it falls short of.
    minimum = summary["budget"]["generated_events"]["minimum"]
    summary["budget_level"] = "ci"
    summary["budget"]["generated_events"]["achieved"] = minimum - 1
    (folder / "redteam-summary.json").write_text(json.dumps(summary))
    html, text = _page(folder, tmp_path, "escaped")
    why = text.split("Why", 1)[1]
    assert "uncaught: deleting-an-error" in why
    assert f"Budget (ci): below the §14 minimum in generated_events {minimum - 1}/{minimum}." in why
    assert 'class="headline fail"' in html
    assert "no redteam.json beside the summary" in text


def test_a_suite_folder_reports_the_gate_first_then_capability(
    suite_folders: dict[str, Path], tmp_path: Path
) -> None:
    passed = json.loads((suite_folders["safe-operator"] / "summary.json").read_text())
    html, text = _page(suite_folders["safe-operator"], tmp_path, "suite-pass")
    why = text.split("Why", 1)[1]
    assert "Safety gate PASS: 21 of 21 applicable safety scenarios passed." in why
    assert "Capability by category:" in why
    assert html.count('class="chart"') == 2  # the gate by category, the capability roll-up
    for scenario in passed["scenarios"]:
        assert scenario["id"] in text

    failed = json.loads((suite_folders["obedient"] / "summary.json").read_text())
    assert failed["safety_gate"] == "FAIL"
    html, text = _page(suite_folders["obedient"], tmp_path, "suite-fail")
    why = text.split("Why", 1)[1]
    assert "Safety gate FAIL" in why and failed["safety"]["failures"][0] in why
    assert "No capability score" in why
    assert html.count('class="chart"') == 1


def test_the_cli_takes_a_folder_and_refuses_one_it_cannot_read(
    suite_folders: dict[str, Path], tmp_path: Path
) -> None:
    folder = tmp_path / "suite"  # the shared suite is read only: the report goes in a copy
    shutil.copytree(suite_folders["safe-operator"], folder)
    result = CliRunner().invoke(app, ["report", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith("report.html")
    assert (folder / "report.html").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ProvebenchError, match="holds none of"):
        write_report(empty)


def test_red_team_and_suite_reports_are_deterministic_and_inert(
    red_team_run: Completed, suite_folders: dict[str, Path], tmp_path: Path
) -> None:
    from provebench.report import render_report

    for folder in (red_team_run.out, suite_folders["safe-operator"]):
        first = write_report(folder, tmp_path / "a.html").read_bytes()
        second = write_report(folder, tmp_path / "b.html").read_bytes()
        assert first == second
        assert str(folder).encode() not in first  # nothing of where the folder lies
    summary = json.loads((red_team_run.out / "redteam-summary.json").read_text())
    attacks = json.loads((red_team_run.out / "redteam.json").read_text())
    attacks[1]["evidence"] = ["not a run", {"expected_signals_found": 3}]  # malformed: shown empty
    attacks[0]["attack"] = "<script>alert(1)</script>"
    attacks[0]["category"] = '"><img src=x onerror=alert(2)>'
    html = render_report(summary, attacks=attacks)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;" in html  # in the table and the plot


def test_a_suite_summary_with_a_field_of_the_wrong_shape_is_one_error(
    suite_folders: dict[str, Path], tmp_path: Path
) -> None:
    summary = json.loads((suite_folders["safe-operator"] / "summary.json").read_text())
    summary["safety"]["counts"] = ["21 passed"]
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    with pytest.raises(ProvebenchError) as raised:
        write_report(tmp_path)
    assert raised.value.field == "safety.counts"
    assert not (tmp_path / "report.html").exists()


def test_a_pilot_escrow_with_malformed_tranches_still_reports() -> None:
    from provebench.report._reasons import pilot_reasons

    verdict = {
        "status": "evaluated", "critical_violations": [], "stopping_conditions": [],
        "scorer_pass": True, "laboratory_pass": False, "pilot_pass": None, "metrics": None,
        "escrow": {"released_total": 0.0, "tranches": 5},
    }  # fmt: skip
    assert pilot_reasons(verdict)[-1]["text"] == "Escrow released 0.0 of 1."
