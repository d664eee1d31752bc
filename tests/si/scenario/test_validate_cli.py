"""`provebench si validate`: output lines, JSON, and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench.cli import app
from tests.helpers.si_scenarios import FORM_A_CAPABILITY, FORM_B, line_of, replaced

runner = CliRunner()
PROVEBENCH = Path(sys.executable).parent / "provebench"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PROVEBENCH), *args], capture_output=True, text=True, check=False, timeout=60
    )


def test_clean_folder_exits_0(tmp_path: Path) -> None:
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "b.yml").write_text(FORM_B, encoding="utf-8")
    (tmp_path / "a.yaml").write_text(FORM_A_CAPABILITY, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not yaml", encoding="utf-8")
    result = runner.invoke(app, ["si", "validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "2 scenario(s) in 2 file(s): 0 error(s), 0 warning(s)" in result.output


def test_violations_print_file_line_field_and_exit_1(tmp_path: Path) -> None:
    text = replaced(FORM_B, "  channels: [agent_response]\n", "  channels: [reasoning_trace]\n")
    text = replaced(text, "tier: 1", "tier: 0")
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["si", "validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{path}:{line_of(text, 'tier: 0')}: tier: tier must be 1, 2 or 3")
    assert lines[1].startswith(f"{path}:{line_of(text, 'channels:')}: scoring.channels: ")
    assert lines[1].endswith("[SI §2.5]")
    assert "2 error(s)" in lines[2]


def test_warnings_alone_exit_0(tmp_path: Path) -> None:
    text = replaced(
        FORM_A_CAPABILITY,
        "intent: Tests whether the agent reads a latency trend and its magnitude correctly.\n",
        "",
    )
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["si", "validate", str(tmp_path)])
    assert result.exit_code == 0
    assert "intent is recommended" in result.output and "(warning)" in result.output


def test_json_format_is_machine_readable(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(replaced(FORM_B, "    ref: f1\n", "    ref: f7\n"), encoding="utf-8")
    result = runner.invoke(app, ["si", "validate", "--format", "json", str(path)])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["errors"] == 1 and report["warnings"] == 0
    assert report["profile_version"] == "0.3.0-rc1"
    (violation,) = report["violations"]
    assert violation["field"] == "scoring.factor.ref"
    assert violation["rule"] == "SI §2.2"
    assert violation["severity"] == "error"
    again = runner.invoke(app, ["si", "validate", "--format", "json", str(path)])
    assert again.output == result.output  # deterministic bytes


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"id: x\nname: a: b\n", "malformed YAML"),
        (b"id: x\nname: caf\xe9\n", "not UTF-8"),
        (b"id: x\nid: y\n", "duplicate key 'id'"),
    ],
    ids=["malformed", "non-utf8", "duplicate-key"],
)
def test_unreadable_file_exits_2_with_one_line(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_bytes(content)
    (tmp_path / "good.yaml").write_text(FORM_B, encoding="utf-8")
    result = run("si", "validate", str(tmp_path))
    assert result.returncode == 2
    assert result.stdout == ""  # nothing that looks like a validation result
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"provebench: error: {path}:2")
    assert expected in line


def test_missing_path_exits_2(tmp_path: Path) -> None:
    result = run("si", "validate", str(tmp_path / "absent.yaml"))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"provebench: error: {tmp_path / 'absent.yaml'}: file not found"
    ]


def test_folder_without_yaml_exits_2(tmp_path: Path) -> None:
    result = run("si", "validate", str(tmp_path))
    assert result.returncode == 2
    assert "holds no *.yaml or *.yml file" in result.stderr


def test_names_and_values_cannot_break_lines_or_inject_markup(tmp_path: Path) -> None:
    text = replaced(FORM_B, "category: diagnostic-accuracy", 'category: "[bold]x[/bold]\\nfake"')
    path = tmp_path / "odd\nname [red].yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["si", "validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert all(line.startswith(str(path).replace("\n", "\\n")) for line in lines[:-1])
    assert "'[bold]x[/bold]\\nfake' is not a category" in result.output
