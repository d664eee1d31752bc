"""The evidence commands through the real `provebench` entry point (exit codes, stderr)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json
from provebench.evidence import import_oasis, import_openai

from .conftest import FIXTURES, RunCli

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

OPENAI = FIXTURES / "openai_smtp_diagnosis.json"
OASIS = FIXTURES / "oasis_smtp_diagnosis.json"
SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "evidence.schema.json"


def _assert_one_line_error(result: Any, *fragments: str) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""  # no score, no partial output for bad input
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return str(lines[0])


def _oasis_document(**changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(OASIS.read_text(encoding="utf-8"))
    document.update(changes)
    return document


def _write(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _bad_inputs(tmp_path: Path) -> list[tuple[Path, tuple[str, ...]]]:
    actions = _oasis_document()["actions"]
    del actions[3]["result"]
    provebench = json.loads(canonical_json(import_oasis(OASIS)))
    malformed = tmp_path / "malformed.json"
    malformed.write_text('{\n  "final_answer": "x",\n  "actions": [,]\n}\n', encoding="utf-8")
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes(b'{"final_answer": "d\xe9j\xe0 vu", "actions": []}')
    return [
        (malformed, (f"{malformed}:3:", "malformed JSON at line 3 column 15")),
        (latin1, (f"{latin1}:1:", "not UTF-8: byte 0xe9")),
        (tmp_path / "missing.json", ("missing.json", "file not found")),
        (
            _write(tmp_path / "no_result.json", _oasis_document(actions=actions)),
            ("no_result.json", "actions[3].result", "required field is missing"),
        ),
        (
            _write(tmp_path / "ill_typed.json", _oasis_document(final_answer=["x"])),
            ("ill_typed.json", "final_answer", "got array"),
        ),
        (
            _write(tmp_path / "version.json", {**provebench, "schema_version": "9"}),
            ("version.json", "schema_version", '"9"'),
        ),
        (
            _write(tmp_path / "neither.json", {"verdict": {"safety": "PASS"}}),
            ("neither.json", "neither provebench evidence"),
        ),
    ]


def test_show_reports_every_bad_input_in_one_line(tmp_path: Path, run_cli: RunCli) -> None:
    for path, fragments in _bad_inputs(tmp_path):
        _assert_one_line_error(run_cli("evidence", "show", path), str(path), *fragments)


def test_import_reports_bad_input_and_writes_nothing(tmp_path: Path, run_cli: RunCli) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    output = out_dir / "evidence.json"
    for path, fragments in _bad_inputs(tmp_path):
        if path.name == "version.json":
            continue  # provebench evidence is not an OASIS artifact; covered below
        if path.name == "neither.json":
            fragments = (str(path), "final_answer", "required field is missing")
        result = run_cli("evidence", "import", "--format", "oasis", path, "-o", output)
        _assert_one_line_error(result, *fragments)
        assert list(out_dir.iterdir()) == []


def test_import_openai_reports_the_arguments_field(tmp_path: Path, run_cli: RunCli) -> None:
    document = json.loads(OPENAI.read_text(encoding="utf-8"))
    document["messages"][4]["tool_calls"][1]["function"]["arguments"] = '{"kind": "configmap",'
    source = _write(tmp_path / "chat.json", document)
    output = tmp_path / "evidence.json"
    result = run_cli("evidence", "import", "--format", "openai", source, "-o", output)
    _assert_one_line_error(
        result, str(source), "messages[4].tool_calls[1].function.arguments", "not valid JSON"
    )
    assert not output.exists()


def test_import_oasis_refuses_provebench_evidence(tmp_path: Path, run_cli: RunCli) -> None:
    source = tmp_path / "already.json"
    source.write_text(canonical_json(import_oasis(OASIS)), encoding="utf-8")
    result = run_cli("evidence", "import", "--format", "oasis", source, "-o", tmp_path / "o.json")
    _assert_one_line_error(result, str(source), "format")


@pytest.mark.parametrize(("source_format", "source"), [("openai", OPENAI), ("oasis", OASIS)])
def test_import_writes_canonical_evidence(
    tmp_path: Path, run_cli: RunCli, source_format: str, source: Path
) -> None:
    output = tmp_path / "evidence.json"
    result = run_cli("evidence", "import", "--format", source_format, source, "-o", output)
    assert result.returncode == 0, result.stderr
    expected = import_openai(source) if source_format == "openai" else import_oasis(source)
    assert output.read_text(encoding="utf-8") == canonical_json(expected)
    assert [p.name for p in tmp_path.iterdir()] == ["evidence.json"]  # no temporary left behind
    # The written file is read back as it was written, and shown.
    shown = run_cli("evidence", "show", output)
    assert shown.returncode == 0, shown.stderr
    for channel in ("agent_response", "reasoning_trace", "tool_call_parameters"):
        assert channel in shown.stdout
    assert "Non-scoring metadata" in shown.stdout


def test_import_is_byte_identical_across_runs(tmp_path: Path, run_cli: RunCli) -> None:
    outputs = [tmp_path / "a.json", tmp_path / "b.json"]
    for output in outputs:
        result = run_cli("evidence", "import", "--format", "openai", OPENAI, "-o", output)
        assert result.returncode == 0, result.stderr
    assert outputs[0].read_bytes() == outputs[1].read_bytes()


def test_import_refuses_to_overwrite_without_force(tmp_path: Path, run_cli: RunCli) -> None:
    output = tmp_path / "evidence.json"
    output.write_text("keep me", encoding="utf-8")
    result = run_cli("evidence", "import", "--format", "oasis", OASIS, "-o", output)
    _assert_one_line_error(result, str(output), "--force")
    assert output.read_text(encoding="utf-8") == "keep me"
    forced = run_cli("evidence", "import", "--format", "oasis", OASIS, "-o", output, "--force")
    assert forced.returncode == 0, forced.stderr
    assert output.read_text(encoding="utf-8") == canonical_json(import_oasis(OASIS))


def test_import_into_a_missing_directory_fails_cleanly(tmp_path: Path, run_cli: RunCli) -> None:
    output = tmp_path / "nowhere" / "evidence.json"
    result = run_cli("evidence", "import", "--format", "oasis", OASIS, "-o", output)
    _assert_one_line_error(result, "output directory does not exist")


def test_import_fills_in_and_guards_run_facts(tmp_path: Path, run_cli: RunCli) -> None:
    output = tmp_path / "evidence.json"
    result = run_cli(
        "evidence", "import", "--format", "openai", OPENAI, "-o", output,
        "--scenario-id", "infra.capability.da.single-signal-diagnosis-001",
        "--agent-name", "example", "--agent-version", "0.1.0",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    written = json.loads(output.read_text(encoding="utf-8"))
    assert written["scenario_id"] == "infra.capability.da.single-signal-diagnosis-001"
    assert written["metadata"]["agent_name"] == "example"
    assert written["metadata"]["agent_version"] == "0.1.0"
    conflict = run_cli(
        "evidence", "import", "--format", "oasis", OASIS, "-o", tmp_path / "x.json",
        "--scenario-id", "infra.capability.da.other-002",
    )  # fmt: skip
    _assert_one_line_error(conflict, str(OASIS), "scenario_id", "other-002")
    assert not (tmp_path / "x.json").exists()


def test_show_prints_evidence_text_as_text(tmp_path: Path, run_cli: RunCli) -> None:
    source = _write(
        tmp_path / "markup.json",
        {"final_answer": "[bold red]SMTP_PORT[/bold red] \x1b[31m", "actions": []},
    )
    result = run_cli("evidence", "show", source)
    assert result.returncode == 0, result.stderr
    assert "[bold red]SMTP_PORT[/bold red]" in result.stdout
    assert "\x1b[31m" not in result.stdout and "\\x1b[31m" in result.stdout


def test_schema_command_is_byte_identical_and_matches_the_committed_file(
    run_cli: RunCli,
) -> None:
    first = run_cli("schema", "evidence")
    second = run_cli("schema", "evidence")
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == second.stdout
    assert first.stdout == SCHEMA.read_text(encoding="utf-8")


def test_a_failed_write_is_an_input_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from typer.testing import CliRunner

    import provebench._canonical
    from provebench._errors import ProvebenchError
    from provebench.cli import app

    def disk_full(path: Path, data: str | bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(provebench._canonical, "write_atomic", disk_full)
    output = tmp_path / "evidence.json"
    result = CliRunner().invoke(
        app, ["evidence", "import", "--format", "oasis", str(OASIS), "-o", str(output)]
    )
    assert isinstance(result.exception, ProvebenchError)
    assert "cannot write: No space left on device" in str(result.exception)
    assert not output.exists()


def test_show_prints_the_scenario_id_escaped_like_every_other_field(
    tmp_path: Path, run_cli: RunCli
) -> None:
    source = _write(tmp_path / "odd-id.json", _oasis_document(scenario_id="x\x1b[2JY\u202eZ"))
    result = run_cli("evidence", "show", source)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "x\\x1b[2JY\\u202eZ" in result.stdout
