"""The matrix summary's report: the reasons per agent, the pass^k curve, harness faults, and the
usual guarantees (same bytes, escaped names, a wrong shape refused in one line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.matrix import JobResult, JobSpec
from provebench.matrix._summary import summarize
from provebench.report import write_report


def matrix_summary(agent_name: str = "reference") -> dict[str, Any]:
    specs = [JobSpec(key=f"{a}/{c}/{t}", agent=a, case=c, trial=t, function="m:f")
             for a in (agent_name, "noop") for c in ("s1", "s2") for t in (1, 2, 3)]  # fmt: skip
    results = {
        s.key: JobResult(s.key, "harness_fault", reason="worker lost")
        if (s.agent, s.case, s.trial) == ("noop", "s2", 3)
        else JobResult(
            s.key,
            "done",
            {"success": s.agent != "noop" and s.trial != 2, "metrics": {"score": 1.0}},
        )
        for s in specs
    }
    return summarize("si", {"trials": 3}, specs, results, lambda s: s.case, lambda done: {})


def _write(tmp_path: Path, summary: dict[str, Any]) -> Path:
    folder = tmp_path / "matrix"
    folder.mkdir(parents=True)
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return folder


def test_the_report_says_how_reliably_each_agent_passed(tmp_path: Path) -> None:
    report = write_report(_write(tmp_path, matrix_summary()), tmp_path / "r.html")
    html = report.read_text(encoding="utf-8")
    assert "reference: 4 of 6 completed job(s) passed; pass^1 0.6667, pass^3 0.0." in html
    assert "1 harness fault(s)" in html and "worker lost" in html
    assert html.count("<polyline") == 2  # one curve per agent (noop flat at 0)
    assert write_report(_write(tmp_path / "b", matrix_summary()), tmp_path / "s.html")
    assert (tmp_path / "s.html").read_bytes() == report.read_bytes()


def test_agent_names_are_escaped(tmp_path: Path) -> None:
    html = write_report(_write(tmp_path, matrix_summary("<script>x</script>")),
                        tmp_path / "r.html").read_text(encoding="utf-8")  # fmt: skip
    assert "<script>x" not in html and "&lt;script&gt;x" in html


def test_a_summary_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    summary = matrix_summary()
    summary["agents"][0]["pass_hat_k"] = "everything"
    with pytest.raises(ProvebenchError) as caught:
        write_report(_write(tmp_path, summary), tmp_path / "r.html")
    assert caught.value.field == "agents[0].pass_hat_k"


def test_a_resumed_matrix_leads_its_reasons_with_resumed() -> None:
    """Red team round 13, H3: a resumed matrix is said first, with how many jobs ran again."""
    from provebench.report._matrix_view import matrix_reasons
    from provebench.report._suite_view import suite_reasons

    resumed = {**matrix_summary(), "resumed": True, "rerun": ["noop/s2/3"]}
    first = matrix_reasons(resumed)[0]["text"]
    assert first.startswith("RESUMED:") and "1 ran again" in first
    assert not matrix_reasons({**matrix_summary(), "resumed": False})[0]["text"].startswith(
        "RESUMED"
    )
    suite = {
        "safety_gate": "PASS",
        "sealed": False,
        "resumed": True,
        "rerun": ["a", "b"],
        "safety": {"counts": {"passed": 2, "applicable": 2}, "failures": [],
                   "provider_failures": []},
        "capability": None,
    }  # fmt: skip
    assert suite_reasons(suite)[0]["text"].startswith("RESUMED:")
    assert "UNSEALED" not in " ".join(r["text"] for r in suite_reasons(suite))


def test_an_agent_with_a_harness_fault_is_shown_incomplete_its_passes_of_every_job() -> None:
    """Red team round 14, H4: a fault is no pass; the agent's line says INCOMPLETE, counts its
    passes out of every job, and its pass^k counts the fault as a failure."""
    from provebench.report._matrix_view import matrix_reasons

    texts = [r["text"] for r in matrix_reasons(matrix_summary())]
    assert "reference: 4 of 6 completed job(s) passed; pass^1 0.6667, pass^3 0.0." in texts
    (noop,) = [t for t in texts if t.startswith("noop:")]
    assert noop.startswith("noop: INCOMPLETE (1 harness fault(s), each counted a failure")
    assert noop.endswith(": 0 of 6 job(s) passed; pass^1 0.0, pass^3 0.0.")
    assert any("each counts as its agent's failure" in t for t in texts)


def test_an_earlier_summary_with_a_fault_and_no_complete_is_still_incomplete() -> None:
    from provebench.report._matrix_view import matrix_reasons

    earlier = matrix_summary()
    for agent in earlier["agents"]:
        del agent["complete"]
    (noop,) = [r["text"] for r in matrix_reasons(earlier) if r["text"].startswith("noop:")]
    assert noop.startswith("noop: INCOMPLETE (1 harness fault(s)")
    assert "(pass^k of the completed jobs only: an earlier summary format)" in noop
