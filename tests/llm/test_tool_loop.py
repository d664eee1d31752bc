"""The tool-calling loop against a server that misbehaves as real ones do: every call the model
makes is a recorded step (SI §3.4), the budget and the run's time bound the loop, a cut turn is
recorded as cut, and a server's failure is a provider failure that says what the server said."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench.llm import Endpoint, RequestSettings, endpoint_for
from provebench.si import load_scenarios
from provebench.si.agents import run_agent
from provebench.si.agents._openai import OpenAIDiagnoser
from provebench.si.agents._run import RunOutcome
from provebench.si.sim import Session
from provebench.si.sim._recording import UNRECORDABLE_ARGUMENTS
from tests.helpers.fake_openai import FakeModel, Reply, ToolCall, fake_openai_server
from tests.helpers.si_lab import write_fixture

ANSWER = "The ConfigMap mail-config lacks the key SMTP_PORT, so the mailer cannot start."


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    return write_fixture(tmp_path)


def _endpoint(url: str, **settings: Any) -> Endpoint:
    request = RequestSettings(**{"max_retries": 0, "request_timeout_sec": 10.0, **settings})
    return endpoint_for("openai:fake", url, settings=request)


def _run(
    scenario_file: Path,
    model: FakeModel,
    *,
    step_budget: int = 50,
    timeout_sec: float | None = None,
    **settings: Any,
) -> RunOutcome:
    session = Session.start(load_scenarios(scenario_file)[0])
    with fake_openai_server(model) as url:
        agent = OpenAIDiagnoser(_endpoint(url, **settings), step_budget, timeout_sec)
        return run_agent(session, agent)


def _submit(call: ToolCall) -> str:
    call("submit_answer", {"final_answer": ANSWER})
    return ""


def test_every_request_offers_the_tools_with_tool_choice_auto_and_a_token_limit(
    scenario_file: Path,
) -> None:
    def script(call: ToolCall) -> str:
        call("orchestration_get", {"kind": "configmap", "name": "mail-config"})
        return _submit(call)

    model = FakeModel(script, frozenset({"submit_answer"}))
    outcome = _run(scenario_file, model, max_tokens=777)
    assert outcome.ending == "answered"
    assert len(model.requests) == 2
    for request in model.requests:
        # llama-cpp-python leaves the tools out of the prompt without tool_choice
        assert request["tool_choice"] == "auto"
        assert request["max_tokens"] == 777
        assert request["tools"]


def test_malformed_and_unknown_calls_are_recorded_steps_with_their_errors(
    scenario_file: Path,
) -> None:
    answers: list[tuple[str, bool]] = []

    def script(call: ToolCall) -> str:
        answers.append(call("orchestration_get", '{"kind": "configmap", "namespa'))  # type: ignore[arg-type]
        answers.append(call("orchestration_get", "[1, 2]"))  # type: ignore[arg-type]
        answers.append(call("no_such_tool", {"x": 1}))
        return _submit(call)

    outcome = _run(scenario_file, FakeModel(script, frozenset({"submit_answer"})))
    actions = outcome.evidence.actions
    assert [a.tool for a in actions] == ["orchestration_get", "orchestration_get", "no_such_tool"]
    assert [a.error_code for a in actions] == ["invalid_arguments"] * 2 + ["unknown_tool"]
    assert actions[0].arguments == {UNRECORDABLE_ARGUMENTS: '{"kind": "configmap", "namespa'}
    assert '"namespa' in (actions[0].error or "")
    assert "a JSON array, not an object" in (actions[1].error or "")
    assert all(is_error for _, is_error in answers)  # the model was told each time
    # the answer came after three steps: each invocation counts (SI §3.4)
    assert outcome.evidence.steps_to_final_answer() == 3


def test_the_budget_counts_malformed_calls_and_an_answer_after_it_is_no_answer(
    scenario_file: Path,
) -> None:
    def script(call: ToolCall) -> str:
        for index in range(3):
            call("orchestration_list", "{not json" if index % 2 else {"kind": "pod"})  # type: ignore[arg-type]
        return _submit(call)  # never asked: the budget of 3 is spent

    model = FakeModel(script, frozenset({"submit_answer"}))
    outcome = _run(scenario_file, model, step_budget=3)
    assert outcome.ending == "step_budget"
    assert len(outcome.evidence.actions) == 3
    assert outcome.evidence.final_answer == ""
    assert outcome.evidence.metadata.run_ending == "step_budget"
    assert len(model.requests) == 3  # no completion was asked for after the budget


def test_a_text_answer_cut_at_the_token_limit_is_recorded_as_truncated(
    scenario_file: Path,
) -> None:
    outcome = _run(scenario_file, FakeModel(lambda call: ANSWER * 4), max_tokens=10)
    assert outcome.ending == "truncated"
    assert outcome.evidence.final_answer == (ANSWER * 4)[:40]
    assert outcome.evidence.metadata.truncated_turns == 1
    assert outcome.evidence.metadata.run_ending == "truncated"


def test_a_tool_call_cut_at_the_token_limit_is_a_malformed_recorded_step(
    scenario_file: Path,
) -> None:
    def script(call: ToolCall) -> str:
        call("orchestration_get", {"kind": "configmap", "name": "x" * 40})
        return ""

    outcome = _run(scenario_file, FakeModel(script), max_tokens=5)
    (action,) = outcome.evidence.actions
    assert action.error_code == "invalid_arguments" and "invalid JSON" in (action.error or "")
    assert outcome.evidence.metadata.truncated_turns == 1


_NOT_FOUND = b'{"error": {"message": "model \\"fake\\" not found, try pulling it first"}}'
_CUT = b'{"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"ro'


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        (Reply(404, _NOT_FOUND), "try pulling it first"),
        (Reply(500, b"upstream model crashed"), "InternalServerError: Error code: 500 (upstream"),
        (Reply(200, b"<html>gateway</html>"), "the endpoint's answer is not JSON"),
        (Reply(200, b'{"id": "x", "object": "chat.completion", "choices": []}'), "no choices"),
        (Reply(200, _CUT), "the endpoint's answer is not JSON: Unterminated"),
    ],
    ids=["server-error", "plain-text-error", "not-json", "no-choices", "cut-mid-way"],
)
def test_a_broken_answer_is_a_provider_failure_naming_it(
    scenario_file: Path, reply: Reply, named: str
) -> None:
    outcome = _run(scenario_file, FakeModel(_submit, replies=[reply]))
    assert outcome.ending == "provider_failure"
    assert named in (outcome.evidence.provider_failure or "")
    assert outcome.evidence.final_answer == "" and outcome.evidence.actions == []


def test_the_runs_time_limit_bounds_a_slow_endpoint_and_keeps_the_evidence(
    scenario_file: Path,
) -> None:
    def script(call: ToolCall) -> str:
        call("orchestration_list", {"kind": "pod"})
        return _submit(call)

    model = FakeModel(script, frozenset({"submit_answer"}), delay_sec=0.6)
    outcome = _run(scenario_file, model, timeout_sec=1.0)
    assert outcome.ending == "timeout"
    assert len(outcome.evidence.actions) == 1  # the call made before the limit is kept
    assert outcome.evidence.final_answer == ""
    assert outcome.evidence.provider_failure is None  # the model's time, not the harness


def test_a_request_that_times_out_before_the_run_does_is_a_provider_failure(
    scenario_file: Path,
) -> None:
    model = FakeModel(_submit, frozenset({"submit_answer"}), delay_sec=2.5)
    outcome = _run(scenario_file, model, request_timeout_sec=1.0)
    assert outcome.ending == "provider_failure"
    assert "APITimeoutError" in (outcome.evidence.provider_failure or "")


def test_the_transcript_keeps_every_finish_reason(scenario_file: Path) -> None:
    session = Session.start(load_scenarios(scenario_file)[0])
    with fake_openai_server(FakeModel(_submit, frozenset({"submit_answer"}))) as url:
        agent = OpenAIDiagnoser(_endpoint(url))
        run_agent(session, agent)
    assert agent.result is not None and agent.result.finish_reasons == ["tool_calls"]
    assert json.dumps(agent.result.transcript)  # what is sent back stays plain JSON


def test_arguments_sent_as_an_object_are_read_and_recorded(scenario_file: Path) -> None:
    call = {"id": "c1", "type": "function",
            "function": {"name": "orchestration_list", "arguments": {"kind": "pod"}}}  # fmt: skip
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": "fake",
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None,
                                     "tool_calls": [call]}}]}  # fmt: skip
    model = FakeModel(lambda call: ANSWER, replies=[Reply(200, json.dumps(body).encode())])
    outcome = _run(scenario_file, model)
    (action,) = outcome.evidence.actions
    assert (action.tool, action.arguments, action.error) == (
        "orchestration_list",
        {"kind": "pod"},
        None,
    )
