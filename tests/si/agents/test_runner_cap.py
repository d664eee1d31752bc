"""The run loop's hard tool-call cap and its handling of agents that fail."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from provebench._errors import ProvebenchError
from provebench.si import Scenario, evaluate, load_scenarios
from provebench.si._run import run_agent
from provebench.si.agents import Answer, BudgetExhauster, CallTool, CorrectDiagnoser, Task
from provebench.si.sim import Session
from tests.helpers.si_lab import write_fixture


@pytest.fixture
def scenario(tmp_path: Path) -> Scenario:
    return load_scenarios(write_fixture(tmp_path))[0]


class Runaway:
    """Never stops calling tools, and swallows every ordinary exception it meets."""

    name: ClassVar[str] = "runaway"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        while True:
            try:
                call("orchestration_list", {"kind": "pod"})
            except Exception:  # ordinary handlers must not be able to stop the stop
                continue


class StubbornAnswerer:
    """Catches the stop itself and answers anyway: the answer must not count."""

    name: ClassVar[str] = "stubborn"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        try:
            while True:
                call("orchestration_list", {"kind": "pod"})
        except BaseException:
            pass
        return Answer(final_answer="Root cause: the key SMTP_PORT is missing from mail-config.")


class Crashing:
    name: ClassVar[str] = "crashing"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        call("orchestration_list", {"kind": "pod"})
        raise RuntimeError("boom")


class WrongReturn:
    name: ClassVar[str] = "wrong-return"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        return "SMTP_PORT is missing"  # type: ignore[return-value]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("cap", [1, 7, 50])
def test_a_runaway_agent_ends_at_the_cap_with_no_final_answer(scenario: Scenario, cap: int) -> None:
    outcome = run_agent(Session.start(scenario), Runaway(), max_tool_calls=cap)
    assert outcome.ending == "tool_call_cap"
    assert len(outcome.evidence.actions) == cap
    assert outcome.evidence.final_answer == ""
    verdict = evaluate(scenario, outcome.evidence)
    assert (verdict.matched_row.id, verdict.score) == (1, 0.0)


def test_an_answer_given_after_the_stop_is_discarded(scenario: Scenario) -> None:
    outcome = run_agent(Session.start(scenario), StubbornAnswerer(), max_tool_calls=5)
    assert outcome.ending == "tool_call_cap"
    assert outcome.evidence.final_answer == "" and len(outcome.evidence.actions) == 5


def test_the_cap_turns_a_late_right_answer_into_none(scenario: Scenario) -> None:
    uncapped = run_agent(Session.start(scenario), BudgetExhauster())
    assert uncapped.ending == "answered" and "SMTP_PORT" in uncapped.evidence.final_answer
    capped = run_agent(Session.start(scenario), BudgetExhauster(), max_tool_calls=10)
    assert capped.ending == "tool_call_cap" and capped.evidence.final_answer == ""
    assert capped.evidence.actions == uncapped.evidence.actions[:10]


def test_an_agent_within_the_cap_is_untouched(scenario: Scenario) -> None:
    outcome = run_agent(Session.start(scenario), CorrectDiagnoser(), max_tool_calls=3)
    assert outcome.ending == "answered" and len(outcome.evidence.actions) == 3
    assert evaluate(scenario, outcome.evidence).score == 1.0


@pytest.mark.parametrize(
    ("agent", "detail"),
    [(Crashing(), "RuntimeError: boom"), (WrongReturn(), "run() returned str, not Answer")],
)
def test_a_failing_agent_is_recorded_with_no_final_answer(
    scenario: Scenario, agent: object, detail: str
) -> None:
    outcome = run_agent(Session.start(scenario), agent)  # type: ignore[arg-type]
    assert (outcome.ending, outcome.detail) == ("agent_error", detail)
    assert outcome.evidence.final_answer == ""
    assert outcome.evidence.metadata.agent_name == agent.name  # type: ignore[attr-defined]


def test_a_cap_below_one_is_refused(scenario: Scenario) -> None:
    with pytest.raises(ProvebenchError, match="at least 1"):
        run_agent(Session.start(scenario), CorrectDiagnoser(), max_tool_calls=0)
