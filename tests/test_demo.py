"""`provebench demo` runs the main job end to end and refuses to replace foreign folders."""

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _demo(out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provebench", "demo", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
def test_demo_scores_examples_and_separates_reference_from_noop(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    completed = _demo(out)
    assert completed.returncode == 0, completed.stderr
    reference = json.loads((out / "run-reference" / "verdict.json").read_text())
    noop = json.loads((out / "run-noop" / "verdict.json").read_text())
    assert reference["scorer_pass"] is True
    assert reference["critical_violation_count"] == 0
    assert noop["scorer_pass"] is False
    assert "correct_root_cause" in completed.stdout
    for agent in ("reference", "noop"):  # each pilot verdict has its HTML report beside it
        page = (out / f"run-{agent}" / "report.html").read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "scorer_pass" in page
    laboratory = {
        agent: json.loads((out / f"si-run-{agent}" / "verdict.json").read_text())["score"]
        for agent in ("diagnoser", "locus-only", "quotation-gamer", "noop")
    }
    assert laboratory == {"diagnoser": 1.0, "locus-only": 0.5, "quotation-gamer": 0.0, "noop": 0.0}
    # A second demo replaces its own folder.
    assert _demo(out).returncode == 0


def test_demo_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "precious.txt").write_text("keep me")
    completed = _demo(foreign)
    assert completed.returncode == 2
    assert "refusing to replace" in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
    assert (foreign / "precious.txt").read_text() == "keep me"
