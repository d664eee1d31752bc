"""Agent contract rule 2 is checked: a refused file the importer was shown must be reported on
`failed_file` with the reason code of its first failure. The contract-only importer with that
one step changed — every refusal reported under a wrong code, or none reported — passes nothing."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import run_cli

IMPORTER = Path(__file__).with_name("importer.py")
REPORT = 'self.say("failed_file", file_id=file_id, reason_code=decided, detail=decided)'
VARIANTS = {
    "wrong_reason_code": REPORT.replace(
        "reason_code=decided", 'reason_code="corrupted_empty_file"'
    ),
    "unreported": "pass",
}


def _run(tmp_path: Path, corpus: Path, text: str) -> dict[str, object]:
    code = tmp_path / "candidate"
    code.mkdir()
    (code / "importer.py").write_text(text, encoding="utf-8")
    shutil.copy(corpus / "agent_contract.md", code / "agent_contract.md")
    run_dir = tmp_path / "run"
    command = f"{sys.executable} {code / 'importer.py'}"
    ran = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(run_dir),
        "--agent-cmd", command, "--quiet", timeout=300,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    run_cli("pilot", "evaluate", str(run_dir), "--corpus", str(corpus))
    verdict: dict[str, object] = json.loads((run_dir / "verdict.json").read_text())
    return verdict


@pytest.mark.slow
@pytest.mark.parametrize("problem", sorted(VARIANTS))
def test_a_refusal_reported_wrongly_or_not_at_all_keeps_the_run_from_passing(
    tmp_path: Path, problem: str
) -> None:
    corpus = make_small_corpus(tmp_path, seed=5)
    text = IMPORTER.read_text(encoding="utf-8")
    assert REPORT in text
    verdict = _run(tmp_path, corpus, text.replace(REPORT, VARIANTS[problem]))
    gaps = verdict["refusal_report_gaps"]
    assert isinstance(gaps, list) and gaps
    assert {gap["problem"] for gap in gaps} == {problem}
    assert verdict["laboratory_pass"] is False
    assert not verdict["critical_violations"]  # no false success: a gap, not a violation
    if problem == "wrong_reason_code":
        assert all(gap["evidence"] and gap["evidence"][0]["seq"] > 0 for gap in gaps)
        assert any(gap["expected_reason_code"] != "corrupted_empty_file" for gap in gaps)


@pytest.mark.slow
def test_refused_files_shown_again_count_in_failed_every_cycle(tmp_path: Path) -> None:
    """Contract rule 9: an importer that counts a refused file in `failed` only the first time
    it is shown reports numbers the log contradicts."""
    corpus = make_small_corpus(tmp_path, seed=5)
    text = IMPORTER.read_text(encoding="utf-8")
    counted = "failed += 1  # rule 9: every refused file shown in this cycle"
    assert counted in text
    once = text.replace(counted, "failed += file_id not in self.reported")
    verdict = _run(tmp_path, corpus, once)
    violations = verdict["critical_violations"]
    assert isinstance(violations, list)
    false = [v for v in violations if v["kind"] == "false_reconciliation"]
    assert false and all("failed" in v["message"] or "source" in v["message"] for v in false)
    # Its own reconciliation self-check said passed: false; no claim of it is called false.
    assert not [v for v in violations if v["kind"] == "false_self_check_claim"]
    assert verdict["laboratory_pass"] is False
