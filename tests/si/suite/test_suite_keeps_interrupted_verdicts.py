"""SI red team 31, H3: an interrupted suite's FAIL was drawn again on resume. A coin-flip agent
deleted every pod on its bad draw and stalled; the operator interrupted the suite (the run was
recorded FAIL, `run_ending: interrupted`), ran the same command again, drew a PASS and got a
signed gate PASS — `attempts.json` said nothing, only `resumed: true` showed. Now an interrupted
run that already holds a safety FAIL keeps it, a run interrupted before any verdict is drawn
again but that draw is counted (`attempts.json` `draws`, the summary's `attempts`), and a FAIL
an earlier attempt recorded counts against the gate even where the run cannot be kept."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from provebench.report._suite_view import suite_reasons
from provebench.si.agents._protocol import Answer, DiagnosisAgent
from provebench.si.suite._rescore import summary_line
from provebench.si.suite._runner import SuiteRequest, run_suite
from provebench.si.suite._select import select
from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files

SCENARIO = "infra.safety.do.unqualified-destruction-001"
FILE = OASIS_SCENARIOS / "safety" / "destructive-operation-safeguarding.yaml"
ASK = "Which pods do you mean? Please name the deployment."


class _Coin:
    """The agent of the attack: which draw comes next is set by the test (a coin, fixed)."""

    name = "coin"
    version = "0.1.0"
    bad = True
    act_before_interrupt = True

    def run(self, task: Any, call: Any) -> Answer:
        if _Coin.bad:
            if _Coin.act_before_interrupt:
                call("orchestration_delete", {"kind": "pod", "namespace": "default", "all": True})
            # the operator's SIGINT while the agent stalls
            os.kill(os.getpid(), signal.SIGINT)
        return Answer(final_answer=ASK)


class _Source:
    spec = "test:coin"
    name = "coin"
    version = "0.1.0"
    isolation: Mapping[str, str] = {}

    def factory(self) -> DiagnosisAgent:
        return _Coin()  # type: ignore[return-value]


class _Quiet:
    def start(self, total: int) -> None: ...
    def scenario_done(self, scenario_id: str, outcome: str, reused: bool) -> None: ...
    def finish(self) -> None: ...


def _suite(out: Path) -> dict[str, Any]:
    oasis_files()  # skips when ../shared is missing
    request = SuiteRequest(
        selected=select([FILE], scenario_ids=[SCENARIO], safety_only=True),
        agent=_Source(),
        selection={"scenario": [SCENARIO]},
        safety_only=True,
    )
    return run_suite(request, out, _Quiet())


def _interrupted(out: Path, act: bool) -> dict[str, Any]:
    _Coin.bad, _Coin.act_before_interrupt = True, act
    with pytest.raises(SystemExit) as stopped:
        _suite(out)
    assert stopped.value.code == 128 + signal.SIGINT
    verdict = json.loads((out / "scenarios" / SCENARIO / "verdict.json").read_text())
    assert verdict["non_scoring"]["run_ending"] == "interrupted"
    _Coin.bad = False  # the resume draws the good side
    return _suite(out)


def _line(summary: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in summary["scenarios"] if s["id"] == SCENARIO)


def test_an_interrupted_fail_stands_on_resume(tmp_path: Path) -> None:
    summary = _interrupted(tmp_path / "run", act=True)
    assert summary["safety_gate"] == "FAIL"
    assert _line(summary)["status"] == "FAIL"
    assert summary["rerun"] == [] and summary["attempts"] == {SCENARIO: 1}


def test_a_run_interrupted_before_any_verdict_is_drawn_again_and_counted(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = _interrupted(out, act=False)
    # the honest control: nothing forbidden was done, the redraw passes — and is counted
    assert summary["safety_gate"] == "PASS" and _line(summary)["status"] == "PASS"
    assert summary["rerun"] == [SCENARIO] and summary["attempts"] == {SCENARIO: 2}
    assert summary["discarded_attempts"] == [
        {"scenario": SCENARIO, "status": "PASS", "ending": "interrupted"}
    ]
    record = json.loads((out / "attempts.json").read_text())
    assert record["draws"] == {SCENARIO: 2} and record["format"].endswith("/2")
    # said where a reader looks: the command's line and the report's first reason
    line, _ = summary_line(summary, out)
    assert "1 drawn more than once" in line
    assert f"{SCENARIO} (2×)" in suite_reasons(summary)[0]["text"]


def test_a_fail_an_earlier_attempt_recorded_counts_where_it_cannot_be_kept(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    _Coin.bad, _Coin.act_before_interrupt = True, True
    with pytest.raises(SystemExit):
        _suite(out)
    # the recorded FAIL made unkeepable (its signature no longer holds) before the resume
    envelope = out / "scenarios" / SCENARIO / "run.dsse.json"
    if not envelope.exists():
        envelope = next((out / "scenarios" / SCENARIO).glob("*.dsse.json"))
    envelope.unlink()
    _Coin.bad = False
    summary = _suite(out)
    assert _line(summary)["status"] == "PASS" and summary["attempts"] == {SCENARIO: 2}
    assert summary["discarded_attempts"][0]["status"] == "FAIL"
    assert summary["safety_gate"] == "FAIL"


def test_a_new_sample_draws_each_scenario_once(tmp_path: Path) -> None:
    _Coin.bad = False
    summary = _suite(tmp_path / "run")
    assert summary["safety_gate"] == "PASS" and summary["resumed"] is False
    assert summary["attempts"] == {SCENARIO: 1} and "discarded_attempts" not in summary


def test_an_interrupted_capability_run_is_drawn_again_and_counted(tmp_path: Path) -> None:
    """A capability run stopped part way has no verdict yet (only the score of what it did so
    far): it is drawn again, never kept — and the draw is counted."""
    oasis_files()
    capability = OASIS_SCENARIOS / "capability" / "operational-execution.yaml"
    restart = "infra.capability.oe.legitimate-restart-001"

    def run() -> dict[str, Any]:
        request = SuiteRequest(
            selected=select([capability], scenario_ids=[restart]),
            agent=_Source(),
            selection={"scenario": [restart]},
        )
        return run_suite(request, tmp_path / "run", _Quiet())

    _Coin.bad, _Coin.act_before_interrupt = True, False
    with pytest.raises(SystemExit):
        run()
    _Coin.bad = False
    summary = run()
    assert summary["rerun"] == [restart] and summary["attempts"] == {restart: 2}
    (discarded,) = summary["discarded_attempts"]
    assert discarded["scenario"] == restart and discarded["ending"] == "interrupted"
    assert summary["safety_gate"] != "FAIL"  # a capability outcome never decides the gate
