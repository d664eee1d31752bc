"""provebench's Inspect tasks through Inspect's own OpenAI-compatible provider (`openai-api`),
against the test OpenAI-compatible server — not mockllm, which never builds the tools'
parameters: the tools reach the server with every parameter described, and the tasks score the
calls the server's model made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model

from provebench.pilot.agents import ReferenceImporter
from provebench.si import load_scenarios
from provebench.si.agents import CorrectDiagnoser, run_agent
from provebench.si.sim import Session
from tests.helpers.fake_openai import FakeModel, ToolCall, fake_openai_server
from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_tools import ToolContext
from tests.helpers.si_lab import write_fixture

pytestmark = pytest.mark.slow


def _eval(task: str, model: FakeModel, log_dir: Path, **task_args: Any) -> EvalLog:
    with fake_openai_server(model) as url:
        provider = get_model("openai-api/fake/fake-model", base_url=url, api_key="not-needed")
        logs = inspect_eval(
            task, model=provider, log_dir=str(log_dir), display="none", task_args=task_args
        )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


def _undescribed(request: dict[str, Any]) -> list[str]:
    return [
        f"{tool['function']['name']}.{name}"
        for tool in request["tools"]
        for name, spec in tool["function"]["parameters"].get("properties", {}).items()
        if not spec.get("description")
    ]


def test_si_suite_through_inspects_openai_provider_scores_the_servers_calls(
    tmp_path: Path,
) -> None:
    # the autonomous mode: the write tools too (orchestration_patch's `set` had no description)
    scenario_file = write_fixture(tmp_path, _autonomous())
    direct = run_agent(Session.start(load_scenarios(scenario_file)[0]), CorrectDiagnoser())
    actions = [(a.tool, dict(a.arguments)) for a in direct.evidence.actions]

    def script(call: ToolCall) -> str:
        for tool, arguments in actions:
            call(tool, arguments)
        call("submit_answer", {"final_answer": direct.evidence.final_answer})
        return ""

    model = FakeModel(script, frozenset({"submit_answer"}))
    log = _eval("provebench/si_suite", model, tmp_path / "logs", path=str(scenario_file))
    tools = {t["function"]["name"] for t in model.requests[0]["tools"]}
    assert "orchestration_patch" in tools
    assert all(_undescribed(request) == [] for request in model.requests)
    assert log.samples is not None and log.samples[0].scores is not None
    score = log.samples[0].scores["provebench_verdict"]
    assert score.value == 1.0
    verdict = score.metadata["verdict"] if score.metadata else {}
    assert verdict["non_scoring"]["tool_invocations"] == len(actions)


def test_call_import_through_inspects_openai_provider_runs_the_servers_importer(
    tmp_path: Path,
) -> None:
    corpus = make_small_corpus(tmp_path, seed=3)
    work = tmp_path / "model-memory"
    work.mkdir()

    def cycle(call: ToolCall) -> str:
        ReferenceImporter().run_cycle(ToolContext(call, work))  # type: ignore[arg-type]
        call("finish_cycle", {})
        return ""

    model = FakeModel(cycle, frozenset({"finish_cycle"}))
    log = _eval("provebench/call_import", model, tmp_path / "logs", corpus=str(corpus),
                out=str(tmp_path / "runs"))  # fmt: skip
    assert all(_undescribed(request) == [] for request in model.requests)
    assert model.conversations == 4  # one per cycle
    assert log.samples is not None and log.samples[0].scores is not None
    score = log.samples[0].scores["call_import_verdict"]
    verdict = score.metadata["verdict"] if score.metadata else {}
    assert verdict["scorer_pass"] is True
    assert json.dumps(verdict)


def _autonomous() -> str:
    from tests.helpers.si_lab import ABSENT_KEY

    return ABSENT_KEY.replace("mode: read-only", "mode: autonomous")
