"""provebench in Inspect AI, offline with Inspect's `mockllm` model: the SI suite and the
call-import laboratory as Inspect tasks scored by provebench, equal to the direct runs; an
Inspect log read back as evidence gives the verdict the live run gave."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, ClassVar

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from typer.testing import CliRunner

from provebench.cli import app
from provebench.pilot.agents._loaded import LoadedAgent
from provebench.pilot.agents._tools import call_tool
from provebench.pilot.lab import CycleContext
from provebench.pilot.lab._runner import execute_run, open_corpus
from provebench.sandbox._isolation import SHIPPED
from provebench.si import load_scenarios
from provebench.si.agents import CorrectDiagnoser, run_agent
from provebench.si.sim import Session
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus
from tests.helpers.si_lab import write_fixture

pytestmark = pytest.mark.slow

MODEL = "mockllm/model"


def _output(tool: str, arguments: dict[str, Any]) -> ModelOutput:
    output = ModelOutput.for_tool_call(MODEL, tool, arguments)
    # Set, so that mockllm does not count tokens with a tokenizer it would download.
    output.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return output


def _eval(task: Any, outputs: list[ModelOutput], log_dir: Path, **task_args: Any) -> EvalLog:
    model = get_model(MODEL, custom_outputs=outputs)
    logs = inspect_eval(
        task, model=model, log_dir=str(log_dir), display="none", task_args=task_args
    )
    assert logs[0].status == "success", logs[0].error
    return logs[0]


def _without_run_facts(verdict: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in verdict.items() if k not in ("non_scoring", "inputs", "sealed")}


def test_si_suite_in_inspect_scores_as_si_run_and_its_log_imports_to_the_same_verdict(
    tmp_path: Path,
) -> None:
    scenario_file = write_fixture(tmp_path)
    session = Session.start(load_scenarios(scenario_file)[0])
    direct = run_agent(session, CorrectDiagnoser()).evidence
    outputs = [_output(a.tool, dict(a.arguments)) for a in direct.actions]
    outputs.append(_output("submit_answer", {"final_answer": direct.final_answer}))
    # By its registered name: Inspect finds the task through provebench's entry point.
    log = _eval("provebench/si_suite", outputs, tmp_path / "logs", path=str(scenario_file))
    sample = log.samples[0] if log.samples else None
    assert sample is not None and sample.scores is not None
    score = sample.scores["provebench_verdict"]
    live = score.metadata["verdict"] if score.metadata else {}
    result = CliRunner().invoke(
        app, ["si", "run", str(scenario_file), "--agent", "diagnoser", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    ran = json.loads((tmp_path / "r" / "verdict.json").read_text())
    assert score.value == ran["score"] == 1.0
    assert _without_run_facts(live) == _without_run_facts(ran)
    # Inspect's model is not provebench's to seal: the sample is shown apart from sealed ones.
    assert (live["sealed"], ran["sealed"]) == (False, True)
    assert score.metadata is not None and score.metadata["sealed"] is False
    assert score.explanation is not None and score.explanation.startswith("UNSEALED: ")
    metrics = {name: m.value for s in log.results.scores for name, m in s.metrics.items()}  # type: ignore[union-attr]
    assert metrics["mean"] == 1.0 and math.isnan(metrics["sealed_mean"])

    imported = tmp_path / "imported"
    converted = CliRunner().invoke(
        app, ["evidence", "import", log.location, "--format", "inspect", "--output", str(imported)]
    )
    assert converted.exit_code == 0, converted.output
    files = sorted(imported.iterdir())
    assert [f.name for f in files] == [f"{sample.id}.epoch-1.evidence.json"]
    evidence = json.loads(files[0].read_text())
    assert evidence["metadata"]["source_format"] == "inspect"
    assert evidence["metadata"]["tokens"] == {"input": 10 * len(outputs),
                                              "output": 5 * len(outputs),
                                              "total": 15 * len(outputs)}  # fmt: skip
    assert [a["result"] for a in evidence["actions"]] == [a.result for a in direct.actions]
    scored = CliRunner().invoke(app, ["si", "score", str(scenario_file), str(files[0])])
    assert scored.exit_code == 0, scored.output
    assert _without_run_facts(json.loads(scored.stdout)) == _without_run_facts(live)


def test_an_inspect_log_whose_accounts_disagree_is_refused(tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    from provebench.integrations.inspect.tasks import si_suite

    scenario_file = write_fixture(tmp_path)
    outputs = [_output("orchestration_list", {"kind": "pod"}),
               _output("submit_answer", {"final_answer": "no idea"})]  # fmt: skip
    log = _eval(si_suite(path=str(scenario_file)), outputs, tmp_path / "logs")
    edited = read_eval_log(log.location)
    assert edited.samples is not None
    tool_message = next(m for m in edited.samples[0].messages if m.role == "tool")
    tool_message.content = "a result the simulator never gave"
    forged = tmp_path / "forged.json"
    write_eval_log(edited, str(forged))
    result = CliRunner().invoke(
        app, ["evidence", "import", str(forged), "--format", "inspect", "--output",
              str(tmp_path / "out")],
    )  # fmt: skip
    assert result.exit_code != 0
    assert "disagree at action 1" in str(result.exception)
    assert not (tmp_path / "out").exists()


def _script() -> list[tuple[str, dict[str, Any]]]:
    """A fixed importer's calls: list and read in the first cycle, then finish every cycle."""
    return [
        ("cycle_info", {}),
        ("read_confirmed_ids", {}),
        ("list_files", {"page_size": 1000}),
        ("finish_cycle", {}),
        ("finish_cycle", {}),
        ("finish_cycle", {}),
        ("finish_cycle", {}),
    ]


class _ScriptedImporter:
    """The same calls, made in-process through the same tools (the direct run)."""

    name = "scripted"
    version = "1"
    calls: ClassVar[list[tuple[str, dict[str, Any]]]] = []

    def run_cycle(self, ctx: CycleContext) -> None:
        while self.calls:
            name, arguments = self.calls.pop(0)
            if name == "finish_cycle":
                return
            call_tool(ctx, name, arguments)


def test_call_import_in_inspect_is_judged_as_the_same_calls_made_directly(tmp_path: Path) -> None:
    from provebench.integrations.inspect.tasks import call_import

    corpus = make_small_corpus(tmp_path, seed=4)
    outputs = [_output(name, arguments) for name, arguments in _script()]
    log = _eval(call_import(corpus=str(corpus), out=str(tmp_path / "runs")), outputs,
                tmp_path / "logs")  # fmt: skip
    assert log.samples is not None and log.samples[0].scores is not None
    score = log.samples[0].scores["call_import_verdict"]
    assert score.metadata is not None
    run_dir = Path(score.metadata["run_dir"])
    live = score.metadata["verdict"]

    _ScriptedImporter.calls = list(_script())
    agent = LoadedAgent("scripted", "scripted", "1", _ScriptedImporter, dict(SHIPPED), "")
    execute_run(open_corpus(corpus), agent, tmp_path / "direct")
    direct = evaluate(tmp_path / "direct", corpus)
    assert (run_dir / "register.csv").read_bytes() == (
        tmp_path / "direct" / "register.csv"
    ).read_bytes()
    assert direct.metrics is not None
    assert live["metrics"]["overall"] == json.loads(direct.metrics.model_dump_json())["overall"]
    assert live["scorer_pass"] is False and live["laboratory_pass"] is False  # nothing imported
    assert score.value < 1.0


def test_epochs_are_reduced_to_the_mean_and_pass_hat_k(tmp_path: Path) -> None:
    from provebench.integrations.inspect.tasks import si_suite

    scenario_file = write_fixture(tmp_path)
    right = "SMTP_PORT is missing from the checkout config."
    # One epoch answers right, the other wrong (whichever runs first: the reductions do not
    # depend on the order).
    outputs = [_output("submit_answer", {"final_answer": answer}) for answer in (right, "DNS.")]
    log = _eval(si_suite(path=str(scenario_file), epochs=2), outputs, tmp_path / "logs")
    assert log.samples is not None
    values = sorted(s.scores["provebench_verdict"].value for s in log.samples if s.scores)
    assert values == [0.0, 1.0]
    reductions = {r.reducer: [s.value for s in r.samples] for r in log.reductions or []}
    assert reductions == {"mean": [0.5], "pass_k_2": [0.0]}  # pass^k: every epoch passed


def test_inspect_react_over_si_serve_with_submit_off_loses_no_answer(tmp_path: Path) -> None:
    """The setting docs/si-agents.md gives for Inspect as the MCP client of `si serve`."""
    import sys

    from inspect_ai import Task
    from inspect_ai.agent import react
    from inspect_ai.dataset import Sample
    from inspect_ai.tool import mcp_server_stdio

    scenario_file = write_fixture(tmp_path)
    served = tmp_path / "served"
    server = mcp_server_stdio(
        command=sys.executable,
        args=["-m", "provebench", "si", "serve", str(scenario_file), "--out", str(served),
              "--per-session", "--agent-name", "mock-model"],
    )  # fmt: skip
    right = "SMTP_PORT is missing from the checkout config."
    outputs = [
        _output("orchestration_list", {"kind": "pod"}),
        _output("submit_answer", {"final_answer": right}),
        ModelOutput.from_content(MODEL, "Done."),
    ]
    outputs[-1].usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    task = Task(dataset=[Sample(input="the task")], solver=react(tools=[server], submit=False))
    _eval(task, outputs, tmp_path / "logs")
    sessions = sorted(served.iterdir())
    assert [s.name for s in sessions] == ["session-00001"]
    evidence = json.loads((sessions[0] / "evidence.json").read_text())
    assert evidence["final_answer"] == right
    assert [a["tool"] for a in evidence["actions"]] == ["orchestration_list"]
    assert evidence["metadata"]["agent_name"] == "mock-model"
    assert evidence["metadata"]["agent_identity_source"] == "declared"
    verdict = json.loads((sessions[0] / "verdict.json").read_text())
    assert verdict["score"] == 1.0


def test_calls_refused_in_inspect_are_recorded_in_order_as_si_run_records_them(
    tmp_path: Path,
) -> None:
    # Inspect refuses arguments that miss the tool's schema before the simulator sees them, and
    # provebench refuses a malformed submission: what such calls carried was in no evidence,
    # so never searched (a secret in a refused call's arguments passed containment).
    from provebench.integrations.inspect._si import EVIDENCE_KEY

    scenario_file = write_fixture(tmp_path)
    session = Session.start(load_scenarios(scenario_file)[0])
    direct = run_agent(session, CorrectDiagnoser()).evidence
    first = direct.actions[0]
    outputs = [
        _output(first.tool, {"marker-refused-by-schema": ["x"], **dict(first.arguments)}),
        _output(first.tool, dict(first.arguments)),
        _output("submit_answer", {"final_answer": "x", "diagnosis": {"factors": "marker-2"}}),
        _output("submit_answer", {"final_answer": "the answer"}),
    ]
    log = _eval("provebench/si_suite", outputs, tmp_path / "logs", path=str(scenario_file))
    sample = log.samples[0] if log.samples else None
    assert sample is not None
    evidence = sample.store[EVIDENCE_KEY]
    assert evidence["final_answer"] == "the answer"
    steps = [(a["tool"], json.dumps(a["arguments"])) for a in evidence["actions"]]
    assert [tool for tool, _ in steps] == [first.tool, first.tool, "submit_answer"]
    assert "marker-refused-by-schema" in steps[0][1] and evidence["actions"][0]["error"]
    assert evidence["actions"][1]["result"] == first.result  # the call that ran, as it ran
    assert "marker-2" in steps[2][1]
    # the log imports to the same calls (the refused submission is an action, not the answer)
    imported = tmp_path / "imported"
    converted = CliRunner().invoke(
        app, ["evidence", "import", log.location, "--format", "inspect", "--output", str(imported)]
    )
    assert converted.exit_code == 0, converted.output
    again = json.loads(next(imported.iterdir()).read_text())
    assert again["final_answer"] == "the answer"
    assert [a["arguments"] for a in again["actions"]] == [
        a["arguments"] for a in evidence["actions"]
    ]


def test_reasoning_blocks_text_beside_calls_and_calls_after_the_submission_are_recorded(
    tmp_path: Path,
) -> None:
    # SI red team 20, S4: a reasoning block, the text of a message that also carried a tool
    # call, and a call in the turn of the accepted submission were in no evidence (the live
    # score and the imported log both passed a secret written there).
    from inspect_ai.model import ChatMessageAssistant, ContentReasoning, ContentText
    from inspect_ai.tool import ToolCall

    from provebench.integrations.inspect._si import EVIDENCE_KEY

    scenario_file = write_fixture(tmp_path)
    session = Session.start(load_scenarios(scenario_file)[0])
    first = run_agent(session, CorrectDiagnoser()).evidence.actions[0]
    thought = ChatMessageAssistant(
        content=[ContentReasoning(reasoning="marker-reasoning"), ContentText(text="ok")],
        model=MODEL,
    )
    reasoning = ModelOutput.from_message(thought)
    reasoning.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    with_text = _output(first.tool, dict(first.arguments))
    with_text.choices[0].message.content = "marker-beside-a-call"
    submit = _output("submit_answer", {"final_answer": "the answer"})
    assert submit.choices[0].message.tool_calls is not None
    submit.choices[0].message.tool_calls.append(
        ToolCall(id="after", function=first.tool, arguments={"marker-after": ["x"]})
    )
    log = _eval("provebench/si_suite", [reasoning, with_text, submit], tmp_path / "logs",
                path=str(scenario_file))  # fmt: skip
    sample = log.samples[0] if log.samples else None
    assert sample is not None
    evidence = sample.store[EVIDENCE_KEY]
    assert "marker-reasoning" in evidence["reasoning_trace"]
    assert "marker-beside-a-call" in evidence["reasoning_trace"]
    assert [a["tool"] for a in evidence["actions"]] == [first.tool, first.tool]
    assert "marker-after" in json.dumps(evidence["actions"][1]["arguments"])
    assert evidence["final_answer_after_step"] == 1
    imported = tmp_path / "imported"
    converted = CliRunner().invoke(
        app, ["evidence", "import", log.location, "--format", "inspect", "--output", str(imported)]
    )
    assert converted.exit_code == 0, converted.output
    again = json.loads(next(imported.iterdir()).read_text())
    assert "marker-reasoning" in again["reasoning_trace"]
    assert [a["arguments"] for a in again["actions"]] == [
        a["arguments"] for a in evidence["actions"]
    ]
    assert again["final_answer_after_step"] == 1


def test_the_first_accepted_submission_is_the_answer_and_every_part_of_a_message_is_read(
    tmp_path: Path,
) -> None:
    # SI red team 23, H2/H3: of two accepted submissions in one turn the second was kept and
    # the first (the secret) recorded nowhere; a provider-side tool use's query was never read.
    from inspect_ai._util.content import ContentToolUse
    from inspect_ai.model import ChatMessageAssistant, ContentText
    from inspect_ai.tool import ToolCall

    from provebench.integrations.inspect._si import EVIDENCE_KEY

    scenario_file = write_fixture(tmp_path)
    searched = ChatMessageAssistant(
        content=[
            ContentToolUse(tool_type="web_search", id="s1", name="web_search",
                           arguments='{"query": "marker-tool-use"}', result="[]"),
            ContentText(text="ok"),
        ],
        model=MODEL,
    )  # fmt: skip
    first = ModelOutput.from_message(searched)
    first.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    both = _output("submit_answer", {"final_answer": "marker-first-answer"})
    assert both.choices[0].message.tool_calls is not None
    both.choices[0].message.tool_calls.append(
        ToolCall(id="second", function="submit_answer", arguments={"final_answer": "later"})
    )
    log = _eval("provebench/si_suite", [first, both], tmp_path / "logs", path=str(scenario_file))
    sample = log.samples[0] if log.samples else None
    assert sample is not None
    evidence = sample.store[EVIDENCE_KEY]
    assert evidence["final_answer"] == "marker-first-answer"
    assert [a["arguments"] for a in evidence["actions"]] == [{"final_answer": "later"}]
    assert "marker-tool-use" in evidence["reasoning_trace"]
    imported = tmp_path / "imported"
    converted = CliRunner().invoke(
        app, ["evidence", "import", log.location, "--format", "inspect", "--output", str(imported)]
    )
    assert converted.exit_code == 0, converted.output
    again = json.loads(next(imported.iterdir()).read_text())
    assert again["final_answer"] == "marker-first-answer"
    assert "marker-tool-use" in again["reasoning_trace"]
