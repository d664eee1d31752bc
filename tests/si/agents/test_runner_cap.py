"""The run loop's hard tool-call cap and its handling of agents that fail."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest
from pydantic import JsonValue

from provebench._errors import ProvebenchError
from provebench._jsonfile import read_json_file
from provebench.si import Scenario, evaluate
from provebench.si.agents import (
    Answer,
    BudgetExhauster,
    CallTool,
    CorrectDiagnoser,
    Task,
    run_agent,
    write_run,
)
from provebench.si.sim import Session
from provebench.si.sim._recording import UNRECORDABLE_ARGUMENTS as UNRECORDABLE


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
    # the diagnoser's walk: list the pods, read the failing one and its events, read the key
    outcome = run_agent(Session.start(scenario), CorrectDiagnoser(), max_tool_calls=4)
    assert outcome.ending == "answered" and len(outcome.evidence.actions) == 4
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


def _deep(levels: int) -> JsonValue:
    value: JsonValue = "x"
    for _ in range(levels):
        value = [value]
    return value


UNRECORDABLE_ARGUMENTS: list[JsonValue] = [
    float("nan"),
    float("inf"),
    10**5000,  # too long to print as JSON
    "default\ud800",  # a lone surrogate is not text
    {"k\ud800": 1},
    _deep(300),  # deeper than the evidence reader accepts
]


class UnrecordableCaller:
    """Calls a tool with each argument no JSON file can hold, then answers from the errors."""

    name: ClassVar[str] = "unrecordable"
    version: ClassVar[str] = "0"

    def run(self, task: Task, call: CallTool) -> Answer:
        errors = [
            call("orchestration_list", {"kind": "pod", "namespace": value}).error_code
            for value in UNRECORDABLE_ARGUMENTS
        ]
        return Answer(final_answer=" ".join(str(code) for code in errors))


def test_arguments_no_json_can_hold_are_refused_per_call_and_the_run_is_written(
    scenario: Scenario, scenario_file: Path, tmp_path: Path
) -> None:
    outcome = run_agent(Session.start(scenario), UnrecordableCaller())
    assert outcome.ending == "answered"
    assert outcome.evidence.final_answer == " ".join(["invalid_arguments"] * 6)
    for action in outcome.evidence.actions:
        assert set(action.arguments) == {UNRECORDABLE} and action.error_code == "invalid_arguments"
        assert action.error is not None and "JSON" in action.error
    write_run(tmp_path / "out", scenario, scenario_file, outcome.evidence)
    written = read_json_file(tmp_path / "out" / "evidence.json")  # and read back as evidence
    assert len(written["actions"]) == len(UNRECORDABLE_ARGUMENTS)


class SurrogateAnswer:
    name: ClassVar[str] = "surrogate"
    version: ClassVar[str] = "0"
    field: ClassVar[str] = "final_answer"

    def run(self, task: Task, call: CallTool) -> Answer:
        call("orchestration_list", {"kind": "pod"})
        text = "SMTP_PORT is missing \ud800"
        if self.field == "final_answer":
            return Answer(final_answer=text)
        return Answer(final_answer="SMTP_PORT is missing", reasoning_trace=text)


class SurrogateTrace(SurrogateAnswer):
    field: ClassVar[str] = "reasoning_trace"


@pytest.mark.parametrize("agent", [SurrogateAnswer(), SurrogateTrace()], ids=["answer", "trace"])
def test_an_answer_that_cannot_be_recorded_is_the_agents_error(
    scenario: Scenario, scenario_file: Path, tmp_path: Path, agent: SurrogateAnswer
) -> None:
    outcome = run_agent(Session.start(scenario), agent)
    assert outcome.ending == "agent_error" and agent.field in outcome.detail
    assert "surrogate" in outcome.detail
    assert outcome.evidence.final_answer == "" and outcome.evidence.reasoning_trace == ""
    assert len(outcome.evidence.actions) == 1
    verdict = write_run(tmp_path / "out", scenario, scenario_file, outcome.evidence)
    assert (verdict.matched_row.id, verdict.score) == (1, 0.0)


class Exiting:
    """Calls sys.exit(0) (SystemExit) mid-run: its failure, not the end of provebench."""

    name: ClassVar[str] = "exiting"
    version: ClassVar[str] = "0"
    raised: ClassVar[BaseException] = SystemExit(0)

    def run(self, task: Task, call: CallTool) -> Answer:
        call("orchestration_list", {"kind": "pod"})
        raise self.raised


class BareBaseException(Exiting):
    raised: ClassVar[BaseException] = BaseException("odd")


class Interrupted(Exiting):
    raised: ClassVar[BaseException] = KeyboardInterrupt()


@pytest.mark.parametrize(
    ("agent", "detail"),
    [(Exiting(), "SystemExit: 0"), (BareBaseException(), "BaseException: odd")],
)
def test_an_agent_that_raises_system_exit_is_recorded_as_agent_error(
    scenario: Scenario, agent: Exiting, detail: str
) -> None:
    outcome = run_agent(Session.start(scenario), agent)
    assert (outcome.ending, outcome.detail) == ("agent_error", detail)
    assert outcome.evidence.final_answer == "" and len(outcome.evidence.actions) == 1


def test_ctrl_c_during_the_agents_run_stops_the_run_with_its_evidence(scenario: Scenario) -> None:
    outcome = run_agent(Session.start(scenario), Interrupted())
    assert (outcome.ending, outcome.detail) == ("interrupted", "stopped by SIGINT")
    assert outcome.signum == 2  # the command exits 130 once the run is written
    assert outcome.evidence.final_answer == ""
    assert outcome.evidence.metadata.run_ending == "interrupted"
