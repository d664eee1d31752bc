"""`provebench demo` runs the main job end to end and refuses to replace foreign folders."""

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from provebench import _demo as demo_module
from tests.helpers.earlier_demo import LEFTOVER, STALE_VERDICT
from tests.helpers.shared_run import Completed

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow


def _demo(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provebench", "demo", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_demo_scores_examples_and_separates_reference_from_noop(demo_run: Completed) -> None:
    out, stdout = demo_run.out, demo_run.stdout  # this test run's one demo (tests/conftest.py)
    reference = json.loads((out / "run-reference" / "verdict.json").read_text())
    noop = json.loads((out / "run-noop" / "verdict.json").read_text())
    assert reference["scorer_pass"] is True
    assert reference["critical_violation_count"] == 0
    assert noop["scorer_pass"] is False
    # The demo's candidate knows where the answer key lies; sealed, it could not read it.
    candidate = json.loads((out / "run-answer-key-reader" / "verdict.json").read_text())
    assert candidate["result_evidence"]["isolation"]["mode"] == "sandbox"
    assert candidate["laboratory_pass"] is False
    assert candidate["metrics"]["overall"]["completeness"]["value"] == 0.0
    notes = (out / "run-answer-key-reader" / "diagnostics.jsonl").read_text()
    assert "answer key not readable: FileNotFoundError" in notes
    assert "correct_root_cause" in stdout
    for agent in ("reference", "noop"):  # each pilot verdict has its HTML report beside it
        page = (out / f"run-{agent}" / "report.html").read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "scorer_pass" in page
    # Every report is written and its path printed (an SI verdict's shows the marked answer).
    reports = sorted(out.glob("*/report.html"))
    assert len(reports) >= 3 + 5
    assert "HTML reports" in stdout
    for report in reports:
        assert f"{report.parent.name}/report.html" in stdout
    assert '<mark class="identifier">' in (out / "si-run-diagnoser" / "report.html").read_text()
    laboratory = {
        agent: json.loads((out / f"si-run-{agent}" / "verdict.json").read_text())["score"]
        for agent in ("diagnoser", "locus-only", "quotation-gamer", "noop")
    }
    assert laboratory == {"diagnoser": 1.0, "locus-only": 0.5, "quotation-gamer": 0.0, "noop": 0.0}


def test_a_second_demo_replaces_its_own_folder(demo_run: Completed) -> None:
    # This test run's one demo ran over an earlier demo's folder (tests/conftest.py): a second
    # demo of the same outputs would repeat the same half minute of work.
    out = demo_run.out
    assert demo_run.exit_code == 0, demo_run.stderr
    assert {LEFTOVER, STALE_VERDICT} <= set(demo_run.out_before)  # there before it ran
    assert not (out / LEFTOVER).exists()
    assert json.loads((out / STALE_VERDICT).read_text())["scorer_pass"] is True
    assert (out / demo_module._MARKER).is_file()


def test_a_first_demo_makes_its_folder_and_its_parents(tmp_path: Path) -> None:
    # The step a first demo takes where the shared one replaces a folder: after it, either
    # demo's folder holds the marker alone, and the same steps follow.
    out = tmp_path / "not-yet" / "demo"
    demo_module._prepare(out)
    assert [path.name for path in out.iterdir()] == [demo_module._MARKER]


def test_demo_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "precious.txt").write_text("keep me")
    completed = _demo(foreign)
    assert completed.returncode == 2
    assert "refusing to replace" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert (foreign / "precious.txt").read_text() == "keep me"


def test_an_out_that_is_a_link_to_an_earlier_demo_is_refused(tmp_path: Path) -> None:
    earlier = tmp_path / "demo"
    earlier.mkdir()
    (earlier / demo_module._MARKER).write_text("made by `provebench demo`\n")
    (earlier / "kept.txt").write_text("keep me")
    link = tmp_path / "link"
    link.symlink_to(earlier, target_is_directory=True)
    completed = _demo(link)
    assert completed.returncode == 2, completed.stderr
    [line] = completed.stderr.strip().splitlines()
    assert "symbolic link" in line and "--out" in line
    assert link.is_symlink() and (earlier / "kept.txt").read_text() == "keep me"


def test_an_out_that_is_a_file_is_refused_before_any_work(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("keep me")
    completed = _demo(a_file / "demo")
    assert completed.returncode == 2
    assert len(completed.stderr.strip().splitlines()) == 1
    assert "not a folder" in completed.stderr
    assert completed.stdout == ""  # no step ran
    assert a_file.read_text() == "keep me"


def test_every_score_command_is_printed_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # README: every step is a real command, printed before it runs; the series of `si score`
    # runs once printed only its heading.
    console = Console(file=io.StringIO(), record=True, width=80)
    printed_before: list[bool] = []
    real_run = subprocess.run

    def spying_run(command: list[str], **options: Any) -> Any:
        shown = " ".join(["provebench", *command[3:]])  # after `python -m provebench`
        printed_before.append(f"$ {shown}\n" in console.export_text(clear=False))
        return real_run(command, **options)

    monkeypatch.setattr(demo_module.subprocess, "run", spying_run)
    results = demo_module._si_part(console)
    examples = sorted((Path(demo_module.__file__).parent / "si" / "examples").glob("*.json"))
    assert [name for name, _, _ in results] == [example.stem for example in examples]
    assert len(examples) > 1
    assert printed_before == [True, True]  # si validate, then si score of the examples' folder
    text = console.export_text()
    assert f" {examples[0].parent}\n" in text
