"""A real model on a real server (`make test-llm`): Gemma 3 270M behind llama-cpp-python on
loopback, through `--agent openai:…` in `si run` and a short `pilot run`. The verdicts are
whatever the model earned; what is checked is that they are honest for what it did — every
tool call it made is in the evidence, the run ended for a named reason, the options reached
the server — and what the server sent is recorded as the replay fixtures of
tests/llm/fixtures when `PROVEBENCH_LLM_RECORD` is set.

Skipped unless `PROVEBENCH_LLM_PYTHON` names the Python with the server installed."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench.cli import app
from provebench.llm import ToolSpec
from provebench.si import load_scenarios
from provebench.si.agents._openai import DEFAULT_STEP_BUDGET
from provebench.si.sim import Session
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus
from tests.helpers.real_llm_server import (
    MODEL_NAME,
    PYTHON_ENV,
    Recording,
    llama_cpp_server,
    recording_proxy,
)
from tests.helpers.si_lab import write_fixture
from tests.llm.replay import (
    FIXTURES,
    PILOT_CYCLES,
    PILOT_OPTIONS,
    SI_OPTIONS,
    by_conversation,
    check_probe,
    expected_calls,
    probe_requests,
    summary,
    transcript_notes,
)

pytestmark = [
    pytest.mark.real_model,
    pytest.mark.skipif(not os.environ.get(PYTHON_ENV), reason="needs make test-llm"),
    pytest.mark.timeout(1800),
]
RECORD = bool(os.environ.get("PROVEBENCH_LLM_RECORD"))


def _save(name: str, recording: Recording, **facts: Any) -> None:
    if RECORD:
        FIXTURES.mkdir(exist_ok=True)
        fixture = recording.fixture(name, **facts)
        for exchange in fixture["exchanges"]:
            exchange["request"] = summary(exchange["request"])
        text = json.dumps(fixture, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        (FIXTURES / f"{name}.json").write_text(text, encoding="utf-8")


def _si_run(scenario_file: Path, url: str, out: Path) -> Any:
    return CliRunner().invoke(
        app,
        ["si", "run", str(scenario_file), "--agent", f"openai:{MODEL_NAME}", "--base-url", url,
         "--out", str(out), *SI_OPTIONS],
    )  # fmt: skip


def test_si_run_with_a_real_model_records_every_call_it_made(tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)
    out = tmp_path / "si"
    with (
        llama_cpp_server(tmp_path / "server.log") as upstream,
        recording_proxy(upstream) as (url, recording),
    ):
        result = _si_run(scenario_file, url, out)
    assert result.exit_code in (0, 3), result.output
    evidence = json.loads((out / "evidence.json").read_text(encoding="utf-8"))
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    requests = [e["request"] for e in recording.exchanges]
    assert requests and all(r["tool_choice"] == "auto" for r in requests)
    assert all(r["max_tokens"] == int(SI_OPTIONS[SI_OPTIONS.index("--max-tokens") + 1])
               for r in requests)  # fmt: skip
    # every tool invocation the model made is an action, malformed or not (SI §3.4)
    calls = [name for name, _ in expected_calls(recording.exchanges, "submit_answer")]
    made = [a["tool"] for a in evidence["actions"]]
    assert made == calls[: len(made)] and len(made) == min(len(calls), DEFAULT_STEP_BUDGET)
    ending = verdict["non_scoring"]["run_ending"]
    assert ending in ("answered", "no_answer", "step_budget", "truncated", "timeout",
                      "provider_failure")  # fmt: skip
    assert (result.exit_code == 3) == (ending == "provider_failure")
    assert evidence["metadata"]["model"] == MODEL_NAME
    if ending != "answered":
        assert ending in result.output and "answered" not in result.output
    _save("si-run", recording, command="si run", ending=ending,
          actions=[[a["tool"], a.get("error_code")] for a in evidence["actions"]],
          final_answer=evidence["final_answer"])  # fmt: skip


def test_a_context_the_server_cannot_hold_is_a_provider_failure_in_its_words(
    tmp_path: Path,
) -> None:
    scenario_file = write_fixture(tmp_path)
    out = tmp_path / "si"
    with (
        llama_cpp_server(tmp_path / "server.log", context_tokens=512) as upstream,
        recording_proxy(upstream) as (url, recording),
    ):
        result = _si_run(scenario_file, url, out)
    assert result.exit_code == 3, result.output
    assert result.output.split(": ", 1)[1].startswith("PROVIDER_FAILURE")
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    server_said = json.loads(recording.exchanges[-1]["body"])
    assert recording.exchanges[-1]["status"] >= 400
    message = server_said["error"]["message"] if "error" in server_said else str(server_said)
    assert message[:60] in verdict["provider_failure"]
    _save("si-run-context-overflow", recording, command="si run", ending="provider_failure",
          actions=[], final_answer="", context_tokens=512)  # fmt: skip


def test_a_short_pilot_run_with_a_real_model_is_complete_and_evaluated(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=3, cycles=PILOT_CYCLES)
    run = tmp_path / "run"
    with (
        llama_cpp_server(tmp_path / "server.log") as upstream,
        recording_proxy(upstream) as (url, recording),
    ):
        result = CliRunner().invoke(
            app,
            ["pilot", "run", "--corpus", str(corpus), "--agent", f"openai:{MODEL_NAME}",
             "--base-url", url, "--out", str(run), "--quiet", *PILOT_OPTIONS],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    verdict = evaluate(run, corpus)  # whatever the model earned, the run folder is complete
    assert verdict is not None
    notes = transcript_notes(run)
    conversations = by_conversation(recording.exchanges)
    assert len(notes) == len(conversations) == PILOT_CYCLES
    for note, exchanges in zip(notes, conversations, strict=True):
        # every turn the server sent is in the cycle's transcript, with its finish_reason
        assert note["turns_omitted"] == 0
        sent = [json.loads(e["body"])["choices"][0] for e in exchanges if e["status"] == 200]
        assert [t.get("tool_calls", []) for t in note["turns"]] == [
            c["message"].get("tool_calls") or [] for c in sent
        ]
        assert note["finish_reasons"] == [c["finish_reason"] for c in sent]
    _save("pilot-run", recording, command="pilot run",
          cycles=[[n["ending"], n["steps"]] for n in notes])  # fmt: skip


def test_the_real_servers_tool_calls_whole_or_cut_are_recorded_steps(tmp_path: Path) -> None:
    """Gemma 3 270M chooses no tool by itself; forced to one, the server writes a real call —
    and, cut at three tokens, a real call with cut-off arguments."""
    scenario_file = write_fixture(tmp_path)
    session = Session.start(load_scenarios(scenario_file)[0])
    tools = [ToolSpec(t.name, t.description, dict(t.input_schema)).as_openai()
             for t in session.tools]  # fmt: skip
    with (
        llama_cpp_server(tmp_path / "server.log") as upstream,
        recording_proxy(upstream) as (url, recording),
    ):
        for request in probe_requests(tools, MODEL_NAME):
            posted = urllib.request.Request(
                f"{url}/chat/completions",
                data=json.dumps(request).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(posted, timeout=600) as response:
                assert response.status == 200
    fixture = recording.fixture("probe-forced-tool-call", command="probe")
    assert all(json.loads(e["body"])["choices"][0]["message"].get("tool_calls")
               for e in fixture["exchanges"])  # fmt: skip
    check_probe(fixture, scenario_file)
    _save("probe-forced-tool-call", recording, command="probe")
