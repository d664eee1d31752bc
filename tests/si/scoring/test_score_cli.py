"""`provebench si score`: canonical JSON on stdout, --explain, scenario choice, bad input."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import provebench.si
from provebench._canonical import sha256_file
from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.si import load_scenarios, select_scenario
from tests.helpers.oasis import oasis_scenarios
from tests.helpers.si_scenarios import FORM_A_CAPABILITY, FORM_B

PACKAGE = Path(provebench.si.__file__).parent
SCENARIO = PACKAGE / "scenarios" / "diagnostic-accuracy.yaml"
CORRECT = PACKAGE / "examples" / "correct-diagnosis.json"
PROVEBENCH = Path(sys.executable).parent / "provebench"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PROVEBENCH), *map(str, args)], capture_output=True, text=True, check=False
    )


def test_prints_the_verdict_as_canonical_json_with_band_and_score_first() -> None:
    result = CliRunner().invoke(app, ["si", "score", str(SCENARIO), str(CORRECT)])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert list(verdict)[:2] == ["band", "score"]
    assert list(verdict) == [
        "band",
        "score",
        "sealed",
        "scenario",
        "matched_row",
        "evaluations",
        "non_scoring",
        "versions",
        "inputs",
        "reference_runner",
        "strict",
    ]
    assert verdict["reference_runner"]["window"] == "adjacent-sentence"
    assert verdict["reference_runner"]["same_as_provebench"] is True
    assert verdict["inputs"] == {
        "scenario_file_sha256": sha256_file(SCENARIO),
        "evidence_file_sha256": sha256_file(CORRECT),
    }
    assert verdict["versions"]["cooccurrence_window"] == "same-sentence"
    assert verdict["non_scoring"]["tokens"]["total"] == 5380


def test_output_bytes_are_identical_across_processes() -> None:
    first, second = run("si", "score", SCENARIO, CORRECT), run("si", "score", SCENARIO, CORRECT)
    assert first.returncode == 0 and first.stdout == second.stdout and first.stdout


def test_explain_prints_tables_not_json() -> None:
    result = CliRunner().invoke(app, ["si", "score", str(SCENARIO), str(CORRECT), "--explain"])
    assert result.exit_code == 0, result.output
    assert "correct_root_cause" in result.output and "row 2" in result.output
    assert not result.output.lstrip().startswith("{")


def test_window_option_reaches_the_verdict() -> None:
    boundary = PACKAGE / "examples" / "sentence-boundary.json"
    result = run("si", "score", SCENARIO, boundary, "--window", "adjacent-sentence")
    assert json.loads(result.stdout)["band"] == "correct_root_cause"


def test_several_form_b_scenarios_need_scenario_id(tmp_path: Path) -> None:
    second = FORM_B.replace("diagnosis-900", "diagnosis-901").replace(
        "Tests whether the agent names", "Tests again whether the agent names"
    )
    path = tmp_path / "two.yaml"
    path.write_text(f"---\n{FORM_B}---\n{second}", encoding="utf-8")
    result = run("si", "score", path, CORRECT)
    assert result.returncode == 2 and result.stdout == ""
    message = result.stderr.strip()
    assert "\n" not in message and "--scenario-id" in message
    assert "diagnosis-900" in message and "diagnosis-901" in message
    chosen = run(
        "si",
        "score",
        path,
        CORRECT,
        "--scenario-id",
        "infra.capability.da.single-signal-diagnosis-901",
    )
    # The evidence names the shipped scenario: scoring it against another one is refused.
    assert chosen.returncode == 2 and "recorded for scenario" in chosen.stderr


def test_the_only_form_b_scenario_is_chosen_without_scenario_id(tmp_path: Path) -> None:
    path = tmp_path / "mixed.yaml"
    path.write_text(f"---\n{FORM_A_CAPABILITY}---\n{FORM_B}", encoding="utf-8")
    evidence = tmp_path / "evidence.json"
    document = json.loads(CORRECT.read_text(encoding="utf-8"))
    del document["scenario_id"]
    evidence.write_text(json.dumps(document), encoding="utf-8")
    result = run("si", "score", path, evidence)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["scenario"]["id"].endswith("diagnosis-900")


def test_bad_input_is_one_line_and_exit_two(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"final_answer": ', encoding="utf-8")
    for args in [
        (SCENARIO, tmp_path / "missing.json"),
        (SCENARIO, broken),
        (tmp_path / "missing.yaml", CORRECT),
        (SCENARIO, CORRECT, "--scenario-id", "no.such.id"),
    ]:
        result = run("si", "score", *args)
        assert result.returncode == 2, (args, result.stderr)
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("provebench: error:")


def test_explain_shows_agent_and_tool_text_literally(tmp_path: Path) -> None:
    document = json.loads(CORRECT.read_text(encoding="utf-8"))
    quoted = "[bold]SMTP_PORT[/bold] [/oops]"
    document["actions"][0]["result"] += quoted + "\n"
    document["final_answer"] = f"Found:\n{quoted}"
    evidence = tmp_path / "markup.json"
    evidence.write_text(json.dumps(document), encoding="utf-8")
    result = subprocess.run(
        [str(PROVEBENCH), "si", "score", str(SCENARIO), str(evidence), "--explain"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "400"},
    )
    assert result.returncode == 0, result.stderr
    assert f"echoes action #0 (kubectl, id call-1): {quoted!r}" in result.stdout


def test_scenario_choice_errors_name_the_problem(tmp_path: Path) -> None:
    form_a = tmp_path / "form-a.yaml"
    form_a.write_text(FORM_A_CAPABILITY, encoding="utf-8")
    (scenario,) = load_scenarios(form_a)
    # every form is scored now; `si check` alone needs a Form B answer key
    assert select_scenario([scenario], None, path=str(form_a)) is scenario
    assert select_scenario([scenario], scenario.id, path=str(form_a)) is scenario
    with pytest.raises(ProvebenchError, match="none uses Form B"):
        select_scenario([scenario], None, path=str(form_a), form_b_only=True)
    with pytest.raises(ProvebenchError, match="Form A"):
        select_scenario([scenario], scenario.id, path=str(form_a), form_b_only=True)
    with pytest.raises(ProvebenchError, match="no scenario with id 'x'"):
        select_scenario([scenario], "x", path=str(form_a))


def test_a_file_of_several_scenarios_is_scored_for_the_one_the_evidence_names() -> None:
    scenarios = oasis_scenarios("safety")[:3]
    chosen = select_scenario(scenarios, None, path="f", recorded_for=scenarios[1].id)
    assert chosen is scenarios[1]
    with pytest.raises(ProvebenchError, match="choose one with --scenario-id"):
        select_scenario(scenarios, None, path="f")


def test_the_evidence_hash_is_of_the_bytes_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One read: the file is hashed from the bytes that were parsed, so a file that changes
    # while it is scored can never give a verdict whose hash names other evidence.
    from provebench import _jsonfile

    evidence = tmp_path / "evidence.json"
    evidence.write_bytes(CORRECT.read_bytes())
    reads: list[Path] = []

    def open_then_replace(path: str | Path, *args: Any, **kwargs: Any) -> Any:
        file = open(path, *args, **kwargs)  # noqa: PTH123, SIM115 (the reader's own call)
        if Path(path) == evidence:
            reads.append(Path(path))
            data = file.read()
            file.close()
            evidence.write_bytes(b"{}")  # what a second read would now see
            return io.BytesIO(data)
        return file

    # The reader's `open` (a module global shadows the builtin for that module only).
    monkeypatch.setattr(_jsonfile, "open", open_then_replace, raising=False)
    verdict = provebench.si.score_files(SCENARIO, evidence)
    assert reads == [evidence]
    assert verdict.inputs.evidence_file_sha256 == sha256_file(CORRECT)


def test_the_plain_road_prints_what_the_command_line_prints() -> None:
    # `si score SCENARIO EVIDENCE` runs without the command line (provebench._entry); any option
    # takes the full one. Both must print the same bytes.
    plain = run("si", "score", SCENARIO, CORRECT)
    full = run("si", "score", SCENARIO, CORRECT, "--window", "same-sentence")
    assert plain.returncode == full.returncode == 0
    assert plain.stdout == full.stdout
    broken = run("si", "score", SCENARIO, SCENARIO)  # a YAML file given as evidence
    assert broken.returncode == 2 and broken.stderr.startswith("provebench: error: ")
    assert len(broken.stderr.strip().splitlines()) == 1
