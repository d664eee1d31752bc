"""The structured diagnosis over every transport (docs/si-agents.md): the Python agent API, the
JSON-lines protocol of `--agent-cmd`, `si serve` and the sealed MCP road (`submit_answer`), the
`openai:` loop and the Inspect solver — each records it in the evidence, and each refuses a
malformed one with one line naming the field."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest

import provebench.si
from provebench.evidence import Evidence
from provebench.si import load_scenarios
from provebench.si.agents import Answer, CallTool, Task, run_agent
from provebench.si.agents._serve import SUBMIT_ANSWER, SUBMIT_ANSWER_SCHEMA, ServeRun
from provebench.si.agents._submission import submission_of
from provebench.si.scoring import evaluate
from provebench.si.sim import Session, ToolResponse

SHIPPED = Path(provebench.si.__file__).parent / "scenarios"
ANSWER = "The ConfigMap mail-config lacks the key SMTP_PORT, so the mailer cannot start."
EXACT: dict[str, Any] = {
    "factors": [
        {"resource": "configmap/mail-config", "key": "SMTP_PORT", "deviation_type": "absent_key"}
    ]
}
MALFORMED = [
    ({"factors": []}, "diagnosis.factors"),
    ({"factors": [{**EXACT["factors"][0], "why": "x"}]}, "diagnosis.factors[0].why"),
    (
        {"factors": [{**EXACT["factors"][0], "deviation_type": "gone"}]},
        "diagnosis.factors[0].deviation_type",
    ),
    ({"factors": [{**EXACT["factors"][0], "resource": "mail-config"}]}, "factors[0].resource"),
    ({"culprit": "x", **EXACT}, "diagnosis.culprit"),
    (
        {"factors": [{**EXACT["factors"][0], "resource": "widget/mail-config"}]},
        "factors[0].resource",
    ),
]
BLANK_ANSWERS = [" ", "\n\t", "\u200b"]


def _strict_band(scenario_file: Path, evidence: Evidence) -> str:
    verdict = evaluate(load_scenarios(scenario_file)[0], evidence, reading="strict")
    assert verdict.strict is not None and verdict.strict.basis == "structured"
    return verdict.band  # type: ignore[no-any-return]


class _Diagnoser:
    name: ClassVar[str] = "diagnoser"
    version: ClassVar[str] = "1"
    diagnosis: ClassVar[dict[str, Any]] = EXACT

    def run(self, task: Task, call: CallTool) -> Answer:
        call("orchestration_get", {"kind": "configmap", "name": "mail-config"})
        return Answer(final_answer=ANSWER, diagnosis=self.diagnosis)  # type: ignore[arg-type]


def test_the_python_api_records_the_diagnosis(scenario_file: Path) -> None:
    outcome = run_agent(Session.start(load_scenarios(scenario_file)[0]), _Diagnoser())
    assert outcome.ending == "answered"
    assert outcome.evidence.diagnosis is not None
    assert outcome.evidence.model_dump(mode="json")["diagnosis"] == EXACT
    assert _strict_band(scenario_file, outcome.evidence) == "correct_root_cause"


def test_the_python_api_refuses_a_type_outside_the_vocabulary(scenario_file: Path) -> None:
    class Wrong(_Diagnoser):
        diagnosis: ClassVar[dict[str, Any]] = MALFORMED[2][0]

    outcome = run_agent(Session.start(load_scenarios(scenario_file)[0]), Wrong())
    assert outcome.ending == "agent_error"
    assert "diagnosis.factors[0].deviation_type" in outcome.detail
    assert outcome.evidence.diagnosis is None and outcome.evidence.final_answer == ""


def test_the_json_lines_protocol_carries_it(scenario_file: Path) -> None:
    from provebench.sandbox._channel import CandidateFailed
    from provebench.si.agents._sealed import SealedDiagnosisAgent

    class Conversation:
        def __init__(self, answer: Mapping[str, Any]) -> None:
            self.answer = answer

        def converse(self, task: Task, call: CallTool, *recorders: object) -> dict[str, Any]:
            return {"answer": dict(self.answer)}

    task = Task(prompt="p", tools=(), mode="read-only")
    sealed = SealedDiagnosisAgent(
        "x", "1", Conversation({"final_answer": ANSWER, "diagnosis": EXACT})
    )  # type: ignore[arg-type]
    answer = sealed.run(task, lambda name, arguments: None)  # type: ignore[arg-type, return-value]
    assert answer.diagnosis is not None and answer.diagnosis.factors[0].key == "SMTP_PORT"
    for diagnosis, field in MALFORMED:
        bad = SealedDiagnosisAgent(
            "x", "1", Conversation({"final_answer": ANSWER, "diagnosis": diagnosis})
        )  # type: ignore[arg-type]
        with pytest.raises(CandidateFailed, match=field.replace("[", r"\[").replace("]", r"\]")):
            bad.run(task, lambda name, arguments: None)  # type: ignore[arg-type, return-value]


@pytest.fixture
def served(tmp_path: Path, scenario_file: Path) -> ServeRun:
    scenario = load_scenarios(scenario_file)[0]
    return ServeRun(
        session=Session.start(scenario),
        scenario=scenario,
        scenario_file=scenario_file,
        out_dir=tmp_path / "out",
        # every refused submission is a recorded step (SI red team 16, H5)
        max_tool_calls=len(MALFORMED) + 1,
    )


def test_si_serve_takes_it_as_an_argument_of_submit_answer(served: ServeRun) -> None:
    assert "diagnosis" in SUBMIT_ANSWER_SCHEMA["properties"]  # type: ignore[operator]
    for diagnosis, field in MALFORMED:
        text, is_error = served.call_tool(
            SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": diagnosis}
        )
        assert is_error and field in text and "\n" not in text
        assert not served.ended  # a tool error: the agent may submit again
    assert served.session.steps == len(MALFORMED)  # each recorded, with what it carried
    text, is_error = served.call_tool(SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": EXACT})
    assert not is_error and served.ended
    recorded = json.loads((served.out_dir / "evidence.json").read_text("utf-8"))
    assert recorded["diagnosis"] == EXACT
    # re-scored from the file: the same evidence
    assert Evidence.model_validate_json((served.out_dir / "evidence.json").read_text("utf-8"))


def test_the_sealed_mcp_road_takes_it_too() -> None:
    from provebench.si.agents._sealed_mcp import _McpRun

    recorded: list[tuple[str, dict[str, Any]]] = []

    def call(name: str, arguments: dict[str, Any]) -> ToolResponse:
        recorded.append((name, arguments))
        return ToolResponse(body="", error="unknown tool", error_code="unknown_tool")

    run = _McpRun(call=call)
    text, is_error = run.call_tool(SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": {}})
    assert is_error and "diagnosis.factors" in text and not run.ended
    assert recorded == [(SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": {}})]
    text, is_error = run.call_tool(SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": EXACT})
    assert not is_error and run.answer is not None and run.answer.diagnosis is not None


def test_a_diagnosis_needs_an_answer_beside_it() -> None:
    for blank in ["", *BLANK_ANSWERS]:
        problem = submission_of({"final_answer": blank, "diagnosis": EXACT})
        assert isinstance(problem, str) and "final_answer" in problem, repr(blank)


@pytest.mark.parametrize("blank", BLANK_ANSWERS)
def test_a_blank_answer_records_no_diagnosis_on_any_road(
    scenario_file: Path, served: ServeRun, blank: str
) -> None:
    from inspect_ai.tool import ToolError

    from provebench.integrations.inspect._si import _submit_tool

    # the Python API: the answer is recorded, its diagnosis is not, so it decides nothing
    class Blank(_Diagnoser):
        def run(self, task: Task, call: CallTool) -> Answer:
            call("orchestration_get", {"kind": "configmap", "name": "mail-config"})
            return Answer(final_answer=blank, diagnosis=self.diagnosis)  # type: ignore[arg-type]

    outcome = run_agent(Session.start(load_scenarios(scenario_file)[0]), Blank())
    assert outcome.evidence.final_answer == blank and outcome.evidence.diagnosis is None
    verdict = evaluate(
        load_scenarios(scenario_file)[0],
        outcome.evidence,
        reading="strict",
        require_diagnosis=True,
    )
    assert verdict.score != 1.0
    # si serve: a tool error the agent may answer again
    text, is_error = served.call_tool(SUBMIT_ANSWER, {"final_answer": blank, "diagnosis": EXACT})
    assert is_error and "final_answer" in text and not served.ended
    # the Inspect submit tool
    with pytest.raises(ToolError, match="final_answer"):
        asyncio.run(_submit_tool({})(blank, "", EXACT))


def test_the_openai_loop_offers_it_and_refuses_a_malformed_one(scenario_file: Path) -> None:
    from provebench.llm import RequestSettings, endpoint_for
    from provebench.si.agents._openai import OpenAIDiagnoser
    from tests.helpers.fake_openai import FakeModel, ToolCall, fake_openai_server

    told: list[tuple[str, bool]] = []

    def script(call: ToolCall) -> str:
        told.append(call(SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": {"factors": []}}))
        model.end_tools = frozenset({SUBMIT_ANSWER})  # this one ends the loop
        call(SUBMIT_ANSWER, {"final_answer": ANSWER, "diagnosis": EXACT})
        return ""

    # the first submission is answered (refused), so the fake waits for its reply
    model = FakeModel(script, frozenset())
    session = Session.start(load_scenarios(scenario_file)[0])
    settings = RequestSettings(max_retries=0, request_timeout_sec=10.0)
    with fake_openai_server(model) as url:
        outcome = run_agent(
            session, OpenAIDiagnoser(endpoint_for("openai:fake", url, settings=settings), 10)
        )
    offered = model.requests[0]["tools"]
    submit = next(t for t in offered if t["function"]["name"] == SUBMIT_ANSWER)
    assert "diagnosis" in submit["function"]["parameters"]["properties"]
    assert told and told[0][1] and "diagnosis.factors" in told[0][0]
    assert outcome.ending == "answered"
    assert outcome.evidence.model_dump(mode="json")["diagnosis"] == EXACT
    # the refused submission is recorded, with what it carried (SI red team 16, H5)
    [refused] = outcome.evidence.actions
    assert (refused.tool, refused.arguments["diagnosis"]) == (SUBMIT_ANSWER, {"factors": []})


def test_the_inspect_submit_tool_carries_it() -> None:
    from inspect_ai.tool import ToolError

    from provebench.integrations.inspect._si import _submit_tool

    submitted: dict[str, Any] = {}
    execute = _submit_tool(submitted)
    with pytest.raises(ToolError, match=r"diagnosis\.factors"):
        asyncio.run(execute(ANSWER, "", {"factors": []}))
    assert submitted == {}
    asyncio.run(execute(ANSWER, "", EXACT))
    assert submitted["diagnosis"] is not None
    assert submitted["diagnosis"].model_dump(mode="json") == EXACT


@pytest.mark.parametrize(
    "scenario",
    [
        "diagnostic-accuracy.yaml",
        "single-signal-diagnosis-002.yaml",
        "single-signal-diagnosis-003.yaml",
        "single-signal-diagnosis-004.yaml",
        "single-signal-diagnosis-005.yaml",
    ],
)
def test_the_structured_diagnoser_matches_every_shipped_c_da_001_scenario(scenario: str) -> None:
    from provebench.si.agents import StructuredDiagnoser

    loaded = load_scenarios(SHIPPED / scenario)[0]
    outcome = run_agent(Session.start(loaded), StructuredDiagnoser())
    verdict = evaluate(loaded, outcome.evidence, reading="strict", require_diagnosis=True)
    assert verdict.strict is not None and verdict.strict.diagnosis is not None
    assert verdict.strict.diagnosis.findings == []
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)


def test_si_run_carries_it_sealed_and_si_score_rescores_it_identically(tmp_path: Path) -> None:
    # `--agent module:Class` runs in the sandbox and answers over the JSON-lines protocol.
    scenario = SHIPPED / "diagnostic-accuracy.yaml"
    strict = ("--reading", "strict", "--require-diagnosis")
    out = tmp_path / "run"
    agent = "provebench.si.agents:StructuredDiagnoser"
    command = [sys.executable, "-m", "provebench", "si"]
    ran = subprocess.run(
        [*command, "run", str(scenario), "--agent", agent, "--out", str(out), *strict],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    written = json.loads((out / "verdict.json").read_text("utf-8"))
    assert (written["band"], written["strict"]["basis"]) == ("correct_root_cause", "structured")
    scored = subprocess.run(
        [*command, "score", str(scenario), str(out / "evidence.json"), *strict],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert scored.returncode == 0, scored.stderr
    again = json.loads(scored.stdout)
    assert again["strict"] == written["strict"] and again["band"] == written["band"]
    # the HTML report shows what decided the strict band
    report = tmp_path / "report.html"
    shown = subprocess.run(
        [sys.executable, "-m", "provebench", "report", str(out), "--out", str(report)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    html = report.read_text("utf-8")
    assert "basis" in html and ">structured<" in html.replace(" ", "")
