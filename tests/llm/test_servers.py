"""The servers of docs/llm-agents.md's table, each as a fake that behaves as that server does
(from its documentation and source): the loop gets tool calls from every one, and a model name
a server does not serve is a provider failure carrying the server's own message."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.llm import RequestSettings, endpoint_for
from provebench.si import load_scenarios
from provebench.si.agents import run_agent
from provebench.si.agents._openai import OpenAIDiagnoser
from provebench.si.agents._run import RunOutcome
from provebench.si.sim import Session
from tests.helpers.fake_openai import Dialect, FakeModel, ToolCall, fake_openai_server
from tests.helpers.si_lab import write_fixture

ANSWER = "The ConfigMap mail-config lacks the key SMTP_PORT, so the mailer cannot start."

# name -> (the server, the model name it expects)
SERVERS: dict[str, tuple[Dialect, str]] = {
    # OpenAI: serves the models it names; errors are {"error": {"message", "type", ...}}.
    "openai": (Dialect("openai", frozenset({"gpt-4o-mini"})), "gpt-4o-mini"),
    # vLLM: serves `--served-model-name` (else the model path); needs
    # `--enable-auto-tool-choice --tool-call-parser …` for tool_choice "auto"; errors are
    # {"object": "error", "message", ...} at the top level.
    "vllm": (
        Dialect("vllm", frozenset({"Qwen/Qwen2.5-7B-Instruct"}), error_shape="vllm"),
        "Qwen/Qwen2.5-7B-Instruct",
    ),
    # Ollama: serves the models pulled by name (`llama3.1`); its OpenAI layer does not list
    # tool_choice among the fields it reads; older versions gave finish_reason "stop" with a
    # tool call.
    "ollama": (
        Dialect("ollama", frozenset({"llama3.1"}), tool_call_finish="stop", error_shape="ollama"),
        "llama3.1",
    ),
    # llama.cpp's llama-server (with --jinja): one model, whatever name the request gives.
    "llama.cpp": (Dialect("llama.cpp", None, error_shape="llama.cpp"), "anything"),
    # llama-cpp-python (--chat_format chatml-function-calling): one model under any name
    # (an unknown alias falls back to the default); a missing tool_choice is read as "none",
    # and the tools never reach the prompt.
    "llama-cpp-python": (Dialect("llama-cpp-python", None, needs_tool_choice=True), "local"),
    # LM Studio: serves the loaded model's identifier; OpenAI-shaped errors.
    "lm-studio": (Dialect("lm-studio", frozenset({"qwen2.5-7b-instruct"})), "qwen2.5-7b-instruct"),
}


def _investigate_and_submit(call: ToolCall) -> str:
    call("orchestration_get", {"kind": "configmap", "name": "mail-config"})
    call("submit_answer", {"final_answer": ANSWER})
    return ""


def _run(tmp_path: Path, dialect: Dialect, model_name: str) -> tuple[RunOutcome, FakeModel]:
    scenario_file = write_fixture(tmp_path)
    session = Session.start(load_scenarios(scenario_file)[0])
    model = FakeModel(_investigate_and_submit, frozenset({"submit_answer"}), dialect=dialect)
    with fake_openai_server(model) as url:
        settings = RequestSettings(max_retries=0)
        endpoint = endpoint_for(f"openai:{model_name}", url, settings=settings)
        return run_agent(session, OpenAIDiagnoser(endpoint)), model


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_the_loop_gets_tool_calls_from_every_server(tmp_path: Path, server: str) -> None:
    dialect, model_name = SERVERS[server]
    outcome, model = _run(tmp_path, dialect, model_name)
    assert outcome.ending == "answered", outcome.detail
    assert [a.tool for a in outcome.evidence.actions] == ["orchestration_get"]
    assert outcome.evidence.final_answer == ANSWER
    assert all(r["tool_choice"] == "auto" for r in model.requests)


@pytest.mark.parametrize("server", sorted(s for s in SERVERS if SERVERS[s][0].models))
def test_a_model_the_server_does_not_serve_is_a_provider_failure_in_its_words(
    tmp_path: Path, server: str
) -> None:
    dialect, _ = SERVERS[server]
    outcome, _ = _run(tmp_path, dialect, "no-such-model")
    assert outcome.ending == "provider_failure"
    assert "The model `no-such-model` does not exist." in (outcome.evidence.provider_failure or "")
    assert outcome.evidence.actions == []


def test_without_tool_choice_llama_cpp_python_never_offers_the_tools() -> None:
    """The fake is faithful: the request the loop no longer sends gets no tool call."""
    dialect, _ = SERVERS["llama-cpp-python"]
    model = FakeModel(_investigate_and_submit, dialect=dialect)
    status, body = model.complete({"model": "local", "messages": [], "tools": [{}]})
    assert status == 200 and isinstance(body, dict)
    assert "tool_calls" not in body["choices"][0]["message"]
