"""`provebench pilot evaluate RUNDIR --corpus DIR [--explain]` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.pilot_evaluation import make_small_corpus, run_agent
from tests.helpers.pilot_lab import run_cli


def test_evaluate_writes_the_same_verdict_bytes_twice(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "reference", tmp_path / "run")
    first = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert first.returncode == 0, first.stderr
    assert "laboratory_pass=true" in first.stdout and "pilot_pass=null" in first.stdout
    written = (run / "verdict.json").read_bytes()
    again = run_cli(
        "pilot", "evaluate", str(run), "--corpus", str(corpus), "--out", str(tmp_path / "v.json")
    )
    assert again.returncode == 0
    assert (tmp_path / "v.json").read_bytes() == written
    verdict = json.loads(written)
    assert verdict["format"] == "provebench.pilot.verdict/2"
    assert list(verdict)[:5] == [
        "format",
        "evaluator_version",
        "status",
        "scorer_pass",
        "laboratory_pass",
    ]
    assert "wall_time_sec" in verdict["non_scoring"]


def test_explain_names_the_violations_and_exit_1(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "AssignsFinalStatus", tmp_path / "run")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--explain")
    assert result.returncode == 1, result.stderr
    assert "CRITICAL direct_final_status_assignment" in result.stdout
    assert "Pilot §7 metrics" in result.stdout
    assert (run / "verdict.json").is_file()
    # Each external check with what its outcome rests on, and why pilot_pass stays null.
    assert "external recovery: true (the recovery metric of this run's log)" in result.stdout
    assert "pilot_pass stays null: no verified evidence for" in result.stdout


def test_explain_names_the_self_checks_an_importer_did_not_perform(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "noop", tmp_path / "run")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus), "--explain")
    assert result.returncode == 1, result.stderr
    assert (
        "self-checks not performed in 4 cycle(s) (1–4); cycle 1: "
        "repeated_run_without_new_files (not reported)" in result.stdout
    )
    assert "faults: 0 of 6 scheduled exercised, 0 on an append" in result.stdout


def test_a_folder_that_is_not_a_run_gets_one_line_and_no_verdict(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    stranger = tmp_path / "not-a-run"
    stranger.mkdir()
    result = run_cli("pilot", "evaluate", str(stranger), "--corpus", str(corpus))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "not a pilot run directory" in result.stderr
    assert not (stranger / "verdict.json").exists()


def test_configuration_errors_are_named_on_stderr(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "reference", tmp_path / "run")
    (run / "run.json").unlink()  # an unfinished run
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2
    assert "[incomplete_run]" in result.stderr
    verdict = json.loads((run / "verdict.json").read_text())
    assert verdict["scorer_pass"] is False and verdict["status"] == "configuration_error"


def test_many_configuration_errors_are_one_stderr_line(tmp_path: Path) -> None:
    """The first error, named from the run folder, and how many more the verdict lists."""
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "reference", tmp_path / "run")
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    record["files_sha256"] = dict.fromkeys(record["files_sha256"], "0" * 64)
    (run / "run.json").write_text(json.dumps(record), encoding="utf-8")
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    verdict = json.loads((run / "verdict.json").read_text())
    errors = verdict["configuration_errors"]
    assert len(errors) > 2
    first = errors[0]
    assert line.startswith(f"provebench: configuration error: {run}/{first['path']}: ")
    assert line.endswith(f"[{first['code']}] (and {len(errors) - 1} more; see {run}/verdict.json)")


def test_a_failed_evaluation_leaves_no_earlier_verdict_behind(tmp_path: Path) -> None:
    """A verdict describes the run as it was when evaluated: once the run no longer reads, an
    earlier passing verdict must not stay beside it as if it were the answer."""
    corpus = make_small_corpus(tmp_path)
    run = run_agent(corpus, "reference", tmp_path / "run")
    assert run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus)).returncode == 0
    assert (run / "verdict.json").is_file()
    (run / "run.json").write_text("{", encoding="utf-8")  # no longer JSON
    result = run_cli("pilot", "evaluate", str(run), "--corpus", str(corpus))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    verdict = run / "verdict.json"
    assert not verdict.exists() or json.loads(verdict.read_text())["laboratory_pass"] is False
