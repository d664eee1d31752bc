"""What a real server sent (Gemma 3 270M on llama-cpp-python, recorded by `make test-llm` in
tests/llm/fixtures), replayed answer for answer by the test server: the same run over the same
answers records every call the model made and ends for the same reason, on every `make test`,
without building the server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench.cli import app
from tests.helpers.fake_openai import Dialect, FakeModel, Reply, ToolCall, fake_openai_server
from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.real_llm_server import recording_proxy
from tests.helpers.si_lab import write_fixture
from tests.llm.replay import (
    PILOT_CYCLES,
    PILOT_OPTIONS,
    SI_OPTIONS,
    check_probe,
    expected_calls,
    fixtures,
    summary,
    transcript_notes,
)


def _replaying(fixture: dict[str, Any]) -> FakeModel:
    def beyond_the_recording(call: ToolCall) -> str:
        raise AssertionError("the run asked for more completions than were recorded")

    replies = [Reply(e["status"], e["body"].encode("utf-8")) for e in fixture["exchanges"]]
    return FakeModel(beyond_the_recording, replies=replies)


def _load(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _check_si_replay(fixture: dict[str, Any], tmp_path: Path) -> None:
    scenario_file = write_fixture(tmp_path)
    model = _replaying(fixture)
    with fake_openai_server(model) as url:
        result = CliRunner().invoke(
            app,
            ["si", "run", str(scenario_file), "--agent", f"openai:{fixture['model']}",
             "--base-url", url, "--out", str(tmp_path / "replayed"), *SI_OPTIONS],
        )  # fmt: skip
    assert result.exit_code == (3 if fixture["ending"] == "provider_failure" else 0), result.output
    evidence = json.loads((tmp_path / "replayed" / "evidence.json").read_text(encoding="utf-8"))
    assert evidence["metadata"]["run_ending"] == fixture["ending"]
    assert [[a["tool"], a.get("error_code")] for a in evidence["actions"]] == fixture["actions"]
    assert evidence["final_answer"] == fixture["final_answer"]
    calls = expected_calls(fixture["exchanges"], "submit_answer")
    assert len(evidence["actions"]) == len(calls)  # every call the model made is a step
    # the same requests, as the real server received them
    assert [summary(r) for r in model.requests] == [e["request"] for e in fixture["exchanges"]]


@pytest.mark.parametrize("path", fixtures("si run"), ids=lambda p: p.stem)
def test_si_run_over_a_recorded_real_server_makes_the_recorded_run(
    tmp_path: Path, path: Path
) -> None:
    _check_si_replay(_load(path), tmp_path)


def test_a_recording_through_the_proxy_replays_to_the_same_run(tmp_path: Path) -> None:
    """The recording machinery of `make test-llm`, in front of the test server made to behave
    as llama-cpp-python does: a run recorded through the proxy replays to the same run."""

    def script(call: ToolCall) -> str:
        call("orchestration_list", {"kind": "pod"})
        call("orchestration_get", '{"kind": "configmap", "na')  # type: ignore[arg-type]
        call("no_such_tool", {})
        call("submit_answer", {"final_answer": "SMTP_PORT is missing from mail-config."})
        return ""

    dialect = Dialect("llama-cpp-python", None, needs_tool_choice=True)
    scenario_file = write_fixture(tmp_path)
    live = FakeModel(script, frozenset({"submit_answer"}), dialect=dialect)
    with fake_openai_server(live) as upstream, recording_proxy(upstream) as (url, recording):
        result = CliRunner().invoke(
            app,
            ["si", "run", str(scenario_file), "--agent", "openai:local", "--base-url", url,
             "--out", str(tmp_path / "live"), *SI_OPTIONS],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    evidence = json.loads((tmp_path / "live" / "evidence.json").read_text(encoding="utf-8"))
    actions = [[a["tool"], a.get("error_code")] for a in evidence["actions"]]
    assert actions == [["orchestration_list", None], ["orchestration_get", "invalid_arguments"],
                       ["no_such_tool", "unknown_tool"]]  # fmt: skip
    fixture = recording.fixture("synthetic", model="local", command="si run", ending="answered",
                                actions=actions, final_answer=evidence["final_answer"])  # fmt: skip
    for exchange in fixture["exchanges"]:
        exchange["request"] = summary(exchange["request"])
    _check_si_replay(json.loads(json.dumps(fixture)), tmp_path)


@pytest.mark.parametrize("path", fixtures("pilot run"), ids=lambda p: p.stem)
def test_pilot_run_over_a_recorded_real_server_makes_the_recorded_run(
    tmp_path: Path, path: Path
) -> None:
    fixture = _load(path)
    corpus = make_small_corpus(tmp_path, seed=3, cycles=PILOT_CYCLES)
    model = _replaying(fixture)
    with fake_openai_server(model) as url:
        result = CliRunner().invoke(
            app,
            ["pilot", "run", "--corpus", str(corpus), "--agent", f"openai:{fixture['model']}",
             "--base-url", url, "--out", str(tmp_path / "run"), "--quiet", *PILOT_OPTIONS],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    notes = transcript_notes(tmp_path / "run")
    assert [[n["ending"], n["steps"]] for n in notes] == fixture["cycles"]
    assert [summary(r) for r in model.requests] == [e["request"] for e in fixture["exchanges"]]


@pytest.mark.parametrize("path", fixtures("probe"), ids=lambda p: p.stem)
def test_the_real_servers_recorded_tool_calls_are_recorded_steps(
    tmp_path: Path, path: Path
) -> None:
    check_probe(_load(path), write_fixture(tmp_path))
