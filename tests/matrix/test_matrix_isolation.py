"""A sealed candidate in a matrix cannot reach the other jobs: not another agent's register for
the same corpus, not any seed's answer key — even with the matrix folder inside the folder its
own code lies in, which the sandbox shows it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.pilot_lab import run_cli

pytestmark = pytest.mark.slow


def test_a_candidate_cannot_copy_the_other_jobs_of_its_matrix(tmp_path: Path) -> None:
    code = tmp_path / "project"
    code.mkdir()
    shutil.copyfile(Path(__file__).parent / "importers" / "copies_other_jobs.py",
                    code / "copies_other_jobs.py")  # fmt: skip
    out = code / "matrix"  # inside the candidate's own, shown, code folder
    done = run_cli(
        "pilot", "matrix", "--agents", f"reference,{code / 'copies_other_jobs.py'}:CopiesOtherJobs",
        "--seeds", "1", "--profile", "public", "--cycles", "4", "--file-events", "30",
        "--admissible-files", "12", "--workers", "1", "--quiet", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    reference, thief = summary["agents"]
    assert reference["successes"] == 1  # its register was there to be copied
    assert thief["successes"] == 0 and thief["harness_faults"] == 0
    notes = "".join(p.read_text(encoding="utf-8")
                    for p in out.glob("jobs/copies*/*/*/run/ledger.jsonl"))  # fmt: skip
    assert "nothing of the other jobs is reachable" in notes
    assert "copied" not in notes
