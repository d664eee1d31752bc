"""`provebench log verify|export|show` through the real entry point (exit codes and stderr)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from provebench.cli import app
from provebench.ledger import Ledger

PROVEBENCH = Path(sys.executable).parent / "provebench"
runner = CliRunner()


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PROVEBENCH), "log", *args], capture_output=True, text=True, check=False, timeout=60
    )


def _ledger(path: Path, count: int = 4) -> str:
    with Ledger.open(path) as ledger:
        entries = ledger.append_many([("event", {"i": i}) for i in range(count)])
    return entries[-1].hash


def test_verify_intact_prints_length_and_head(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    head = _ledger(path)
    result = runner.invoke(app, ["log", "verify", str(path)])
    assert result.exit_code == 0, result.output
    assert f"intact: 4 entries, head seq 3, head hash {head}" in result.output
    assert "only detectable against a recorded head" in result.output
    arguments = ["log", "verify", str(path), "--expect-head", head, "--expect-length", "4"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0
    assert "only detectable" not in result.output


def test_verify_tampered_exits_1_with_one_line_per_problem(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    _ledger(path)
    out = tmp_path / "log.jsonl"
    assert runner.invoke(app, ["log", "export", str(path), "-o", str(out)]).exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join([lines[0], lines[2], lines[3]]) + "\n", encoding="utf-8")
    done = _run("verify", str(out))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0].startswith("TAMPERED: 1 problem")
    assert done.stdout.splitlines()[1].startswith("seq 1 (line 2): deleted: seq 1 missing")


def test_verify_unreadable_input_exits_2_with_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n", encoding="utf-8")
    for target in (junk, tmp_path / "absent.sqlite", tmp_path):
        done = _run("verify", str(target))
        assert done.returncode == 2
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1
        assert done.stderr.startswith("provebench: error: ")


def test_verify_refuses_an_empty_file_or_an_empty_ledger(tmp_path: Path) -> None:
    """An empty log is evidence of nothing: never "intact: 0 entries" (exit 2, one line)."""
    empty_ledger = tmp_path / "ledger.sqlite"
    Ledger.open(empty_ledger).close()
    for name in ("empty.sqlite", "empty.jsonl"):
        (tmp_path / name).write_bytes(b"")
    for target, reason in (
        (tmp_path / "empty.sqlite", "empty file: not a provebench ledger"),
        (tmp_path / "empty.jsonl", "empty file: not a provebench ledger"),
        (empty_ledger, "the ledger holds no entries"),
    ):
        done = _run("verify", str(target))
        assert done.returncode == 2, done.stdout
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and reason in done.stderr
        assert str(target) in done.stderr
    # A length recorded elsewhere makes it a checked claim, not a vacuous one.
    done = _run("verify", str(empty_ledger), "--expect-length", "0")
    assert done.returncode == 0 and done.stdout.startswith("intact: 0 entries")


def test_verify_json_report(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    head = _ledger(path)
    result = runner.invoke(app, ["log", "verify", str(path), "--json", "--expect-length", "5"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["ok"] is False and report["head_hash"] == head
    assert [p["kind"] for p in report["problems"]] == ["truncated"]


def test_show_filters_and_does_not_interpret_markup(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Ledger.open(path) as ledger:
        ledger.append("drive.list", {"name": "[bold red]accept everything[/]"})
        ledger.append("sheets.append", {"row": 1})
        ledger.append("sheets.append", {"row": 2})
    result = runner.invoke(
        app, ["log", "show", str(path), "--kind", "drive.list"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "[bold red]accept everything[/]" in result.output
    assert "sheets.append" not in result.output
    result = runner.invoke(app, ["log", "show", str(path), "--tail", "1"], env={"COLUMNS": "200"})
    assert '{"row":2}' in result.output and '{"row":1}' not in result.output


def test_export_writes_the_same_bytes_as_the_api(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    _ledger(path)
    with Ledger.open_readonly(path) as ledger:
        ledger.export_jsonl(tmp_path / "api.jsonl")
    result = runner.invoke(app, ["log", "export", str(path), "-o", str(tmp_path / "cli.jsonl")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cli.jsonl").read_bytes() == (tmp_path / "api.jsonl").read_bytes()
