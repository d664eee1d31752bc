"""Kind detection, and bad input: one ProvebenchError naming the file and the field, no report."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.report import detect_kind, write_report
from provebench.report._cli import report
from tests.helpers.report_html import load_json


def _write(tmp_path: Path, document: object, name: str = "verdict.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_kind_comes_from_the_documents_own_fields(pilot_verdicts, si_verdicts):
    for path in pilot_verdicts.values():
        assert detect_kind(load_json(path)) == "pilot"
    for path in si_verdicts.values():
        assert detect_kind(load_json(path)) == "si"


def _pilot(pilot_verdicts) -> dict:
    return load_json(pilot_verdicts["reference"])


def _si(si_verdicts) -> dict:
    return load_json(si_verdicts["diagnoser"])


def _break_numerator(verdict: dict) -> None:
    verdict["metrics"]["overall"]["completeness"]["numerator"] = "50"


def _break_evidence(verdict: dict) -> None:
    verdict["critical_violations"] = [
        {"kind": "k", "cycle": 1, "file_id": None, "message": "m", "evidence": [{"seq": 1}]}
    ]


def _drop_pass(verdict: dict) -> None:
    del verdict["laboratory_pass"]


def _si_outcome_text(verdict: dict) -> None:
    verdict["evaluations"][0]["result"]["value"] = "true"


def _si_with_format(verdict: dict) -> None:
    verdict["format"] = "provebench.si.verdict/9"


def _si_without_evaluations(verdict: dict) -> None:
    del verdict["evaluations"]


def _pilot_unknown_version(verdict: dict) -> None:
    verdict["format"] = "provebench.pilot.verdict/9"  # a format this version does not know


def _no_marker(verdict: dict) -> None:
    del verdict["format"]


@pytest.mark.parametrize(
    ("source", "mutate", "field"),
    [
        ("pilot", _break_numerator, "metrics.overall.completeness.numerator"),
        ("pilot", _break_evidence, "critical_violations[0].evidence[0].hash"),
        ("pilot", _drop_pass, "laboratory_pass"),
        ("pilot", _pilot_unknown_version, "format"),
        ("pilot", _no_marker, "format"),
        ("si", _si_outcome_text, "evaluations[0].result.value"),
        ("si", _si_with_format, "format"),
        ("si", _si_without_evaluations, "evaluations"),
    ],
)
def test_malformed_verdict_names_file_and_field(
    pilot_verdicts, si_verdicts, tmp_path, source, mutate, field
):
    verdict = _pilot(pilot_verdicts) if source == "pilot" else _si(si_verdicts)
    mutate(verdict)
    path = _write(tmp_path, verdict)
    with pytest.raises(ProvebenchError) as caught:
        write_report(path)
    assert caught.value.path == str(path)
    assert caught.value.field == field
    assert caught.value.one_line().startswith(f"{path}: {field}: ")
    assert not (tmp_path / "report.html").exists()


def test_unreadable_documents(tmp_path):
    not_json = tmp_path / "broken.json"
    not_json.write_text('{\n  "format": \n', encoding="utf-8")
    with pytest.raises(ProvebenchError) as caught:
        write_report(not_json)
    assert (caught.value.path, caught.value.line) == (str(not_json), 3)
    with pytest.raises(ProvebenchError) as caught:
        write_report(_write(tmp_path, ["a", "list"], "list.json"))
    assert caught.value.field == "$"
    with pytest.raises(ProvebenchError, match="not a provebench verdict") as caught:
        write_report(_write(tmp_path, {"hello": "world"}, "other.json"))
    assert caught.value.field == "format"
    with pytest.raises(ProvebenchError, match="cannot read"):
        write_report(tmp_path / "missing.json")
    assert list(tmp_path.glob("*.html")) == []


def test_a_failed_report_leaves_an_existing_report_untouched(pilot_verdicts, tmp_path):
    verdict = _pilot(pilot_verdicts)
    target = tmp_path / "report.html"
    write_report(_write(tmp_path, verdict), target)
    before = target.read_bytes()
    _drop_pass(verdict)
    with pytest.raises(ProvebenchError):
        write_report(_write(tmp_path, verdict), target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html", "verdict.json"]


def _cli_app() -> typer.Typer:
    app = typer.Typer()
    app.command()(report)
    return app


def test_cli_writes_next_to_the_verdict_or_to_out(si_verdicts, tmp_path):
    # A copy of the shared run folder (tests/report/conftest.py), which is read only.
    source = si_verdicts["noop"]
    path = shutil.copytree(source.parent, tmp_path / "run") / source.name
    result = CliRunner().invoke(_cli_app(), [str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(path.with_name("report.html"))
    out = tmp_path / "custom.html"
    result = CliRunner().invoke(_cli_app(), [str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == path.with_name("report.html").read_bytes()


def test_cli_bad_input_is_a_provebench_error(tmp_path):
    path = _write(tmp_path, {"format": "something/1"})
    result = CliRunner().invoke(_cli_app(), [str(path)])
    assert isinstance(result.exception, ProvebenchError)
    assert result.exception.one_line() == (f"{path}: format: unknown verdict format 'something/1'")
    assert not (tmp_path / "report.html").exists()


_MOUNTED_MAIN = (
    "import sys; from provebench.cli import app; from provebench.report._cli import report; "
    "app.command('report')(report); from provebench._entry import main; "
    "sys.argv = ['provebench', *sys.argv[1:]]; main()"
)


def test_mounted_command_prints_one_line_and_exits_2(tmp_path):
    """Through the console script's error handling, as `provebench report` runs once mounted."""
    path = _write(tmp_path, {"format": "provebench.pilot.verdict/2", "status": "evaluated"})
    result = subprocess.run(
        [sys.executable, "-c", _MOUNTED_MAIN, "report", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"provebench: error: {path}: ")
    assert not (tmp_path / "report.html").exists()
