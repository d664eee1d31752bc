"""`--agent openai:MODEL`: the built-in model agent of both laboratories, through the official
`openai` SDK, against a local OpenAI-compatible server that replays scripted tool calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.pilot.agents import ReferenceImporter
from provebench.si import load_scenarios
from provebench.si.agents import CorrectDiagnoser, run_agent
from provebench.si.sim import Session
from tests.helpers.fake_openai import USAGE, FakeModel, ToolCall, fake_openai_server
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus
from tests.helpers.pilot_evaluation import run_agent as run_pilot_agent
from tests.helpers.pilot_tools import ToolContext
from tests.helpers.si_lab import write_fixture
from tests.llm.replay import transcript_notes

pytestmark = pytest.mark.slow


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def _diagnoser_script(scenario_file: Path) -> tuple[Any, Any]:
    """The scripted diagnoser's calls and answer, to be replayed by the fake model."""
    session = Session.start(load_scenarios(scenario_file)[0])
    outcome = run_agent(session, CorrectDiagnoser())
    actions = [(a.tool, dict(a.arguments)) for a in outcome.evidence.actions]

    def script(call: ToolCall) -> str:
        for tool, arguments in actions:
            call(tool, arguments)
        call("submit_answer", {"final_answer": outcome.evidence.final_answer})
        return ""

    return script, outcome.evidence


@pytest.mark.parametrize("first_status", [None, 429])
def test_si_run_with_a_model_gives_the_verdict_of_the_same_calls(
    tmp_path: Path, first_status: int | None
) -> None:
    scenario_file = write_fixture(tmp_path)
    script, direct = _diagnoser_script(scenario_file)
    model = FakeModel(script, frozenset({"submit_answer"}), fail_first_with=first_status)
    with fake_openai_server(model) as url:
        result = _invoke("si", "run", str(scenario_file), "--agent", "openai:fake-model",
                         "--base-url", url, "--out", str(tmp_path / "model"))  # fmt: skip
    assert result.exit_code == 0, result.output
    _invoke("si", "run", str(scenario_file), "--agent", "diagnoser",
            "--out", str(tmp_path / "direct"))  # fmt: skip
    ours = json.loads((tmp_path / "model" / "verdict.json").read_text())
    theirs = json.loads((tmp_path / "direct" / "verdict.json").read_text())
    assert (ours["score"], ours["matched_row"]) == (theirs["score"], theirs["matched_row"])
    assert ours["score"] == 1.0
    evidence = json.loads((tmp_path / "model" / "evidence.json").read_text())
    assert [a["tool"] for a in evidence["actions"]] == [a.tool for a in direct.actions]
    assert [a["result"] for a in evidence["actions"]] == [a.result for a in direct.actions]
    completions = len(direct.actions) + 1
    assert evidence["metadata"]["model"] == "fake-model"
    assert evidence["metadata"]["agent_name"] == "openai"
    assert evidence["metadata"]["tokens"] == {
        "input": USAGE["prompt_tokens"] * completions,
        "output": USAGE["completion_tokens"] * completions,
        "total": USAGE["total_tokens"] * completions,
    }
    first = model.requests[-completions]
    assert first["temperature"] == 0
    assert first["messages"][0]["role"] == "system"
    assert "Mode:" in first["messages"][1]["content"]
    assert {t["function"]["name"] for t in first["tools"]} >= {"submit_answer"}
    assert len(model.requests) == completions + (1 if first_status == 429 else 0)


def test_an_endpoint_that_refuses_is_a_provider_failure_not_an_answer(tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)
    script, _ = _diagnoser_script(scenario_file)
    model = FakeModel(script, frozenset({"submit_answer"}), always_fail_with=401)
    with fake_openai_server(model) as url:
        _invoke("si", "run", str(scenario_file), "--agent", "openai:m", "--base-url", url,
                "--out", str(tmp_path / "out"))  # fmt: skip
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text())
    evidence = json.loads((tmp_path / "out" / "evidence.json").read_text())
    assert "AuthenticationError" in evidence["provider_failure"]
    assert "AuthenticationError" in verdict["provider_failure"]  # Core §3.7: not the model's
    assert evidence["final_answer"] == "" and evidence["actions"] == []


def test_base_url_without_a_model_agent_is_refused(tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)
    result = _invoke("si", "run", str(scenario_file), "--agent", "diagnoser", "--base-url",
                     "http://127.0.0.1:9/v1", "--out", str(tmp_path / "o"))  # fmt: skip
    assert isinstance(result.exception, ProvebenchError)  # exit 2, one line, from the entry
    assert result.exception.field == "--base-url"
    assert not (tmp_path / "o").exists()


def test_pilot_run_with_a_model_passes_the_laboratory_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fake server listens on loopback; a remote endpoint is what can pass the gate
    # (tests/llm/test_endpoint_isolation.py holds that a local one cannot).
    from provebench.sandbox import _isolation

    # Every address judged public; the client still connects to the loopback one it was
    # judged by (the only one there is).
    monkeypatch.setattr(_isolation, "_addresses_reach", lambda resolved: "remote")
    # and its connections' other end a socket elsewhere: a remote endpoint's connection that
    # ends on this machine is refused (tests/llm/test_routed_home.py)
    from provebench.llm import _pinned

    monkeypatch.setattr(_pinned, "peer_is_this_machine", lambda connected: False)
    corpus = make_small_corpus(tmp_path, seed=3)
    work = tmp_path / "model-memory"
    work.mkdir()

    def cycle(call: ToolCall) -> str:
        ReferenceImporter().run_cycle(ToolContext(call, work))  # type: ignore[arg-type]
        call("finish_cycle", {})
        return ""

    model = FakeModel(cycle, frozenset({"finish_cycle"}))
    run = tmp_path / "run"
    with fake_openai_server(model) as url:
        result = _invoke("pilot", "run", "--corpus", str(corpus), "--agent", "openai:fake",
                         "--base-url", url, "--out", str(run), "--quiet")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert model.conversations == 4  # one per cycle
    verdict = evaluate(run, corpus)
    assert verdict.scorer_pass and verdict.critical_violations == []
    assert verdict.laboratory_pass  # provebench's own loop on a remote model: only the tools
    direct = run_pilot_agent(corpus, "reference", tmp_path / "direct")
    assert (run / "register.csv").read_bytes() == (direct / "register.csv").read_bytes()
    system = model.requests[0]["messages"][0]["content"]
    assert (corpus / "agent_contract.md").read_text(encoding="utf-8") in system
    notes = transcript_notes(run)
    assert len(notes) == 4
    assert notes[0]["model"] == "fake" and notes[0]["ending"] == "end_tool"
    assert notes[0]["turns"][-1]["tool_calls"][0]["function"]["name"] == "finish_cycle"
    # Each cycle's client connected to the address judged, recorded beside the reach (issue 40)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    for note in notes:
        connected = {
            "host": "127.0.0.1", "port": port, "judged": "remote", "address": "127.0.0.1",
            "checked": "pinned to the judged addresses; the peer checked not this machine",
            "outcome": "connected", "reason": None,
        }  # fmt: skip
        # one per completion at most (the test's server may close each connection)
        assert 1 <= len(note["connections"]) <= note["completions"]
        assert all(entry == connected for entry in note["connections"])
        assert note["connections_omitted"] == 0


def test_a_transcript_note_is_capped_and_says_what_it_left_out() -> None:
    from provebench.llm import Endpoint, LoopResult
    from provebench.pilot.agents._openai import MAX_TRANSCRIPT_NOTE_BYTES, transcript_note

    endpoint = Endpoint(model="verbose", base_url="http://127.0.0.1:9/v1", api_key="x")

    def result(turns: int, text_bytes: int) -> LoopResult:
        transcript = [{"role": "user", "content": "go"}]
        for index in range(turns):
            transcript.append({"role": "assistant", "content": f"{index}:" + "é" * text_bytes})
            transcript.append({"role": "tool", "content": "ok"})
        return LoopResult(ending="step_budget", final_text="", end_arguments=None, steps=turns,
                          transcript=transcript)  # fmt: skip

    small = json.loads(transcript_note(endpoint, result(3, 10)))
    assert len(small["turns"]) == 3 and small["turns_omitted"] == 0
    text = transcript_note(endpoint, result(200, 50_000))  # about 20 MB of turns
    assert len(text.encode("utf-8")) <= MAX_TRANSCRIPT_NOTE_BYTES
    capped = json.loads(text)
    assert capped["turns"][0]["content"].startswith("0:")
    assert len(capped["turns"]) + capped["turns_omitted"] == 200
    assert 0 < len(capped["turns"]) < 200
    # the kept turns fill the note: one more would not have fitted
    assert len(text.encode("utf-8")) > MAX_TRANSCRIPT_NOTE_BYTES - 100_001


@pytest.mark.parametrize("command", ["run", "suite"])
def test_a_provider_failure_leads_the_line_and_exits_3(tmp_path: Path, command: str) -> None:
    scenario_file = write_fixture(tmp_path)
    script, _ = _diagnoser_script(scenario_file)
    model = FakeModel(script, frozenset({"submit_answer"}), always_fail_with=401)
    with fake_openai_server(model) as url:
        result = _invoke("si", command, str(scenario_file), "--agent", "openai:m", "--base-url",
                         url, "--max-retries", "0", "--out", str(tmp_path / "out"))  # fmt: skip
    assert result.exit_code == 3, result.output
    line = result.output.strip().splitlines()[-1]
    if command == "run":
        assert line.startswith(f"{load_scenarios(scenario_file)[0].id}: PROVIDER_FAILURE")
        assert "answered" not in line
    else:
        assert line.startswith("PROVIDER_FAILURE in 1 scenario(s); safety gate PASS")
