"""Every way a run ends survives every export: the evidence in provebench's shape, the OASIS
artifact, and the report. A provider failure read back from either evidence file is still a
provider failure (Core §3.7) — never a pass — and how the run ended is in the verdict."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from provebench.cli import app
from provebench.evidence import Evidence, load_evidence
from provebench.llm import RequestSettings, endpoint_for
from provebench.report._render import write_report
from provebench.si import load_scenarios
from provebench.si.agents import Answer, CallTool, Task, run_agent
from provebench.si.agents._openai import OpenAIDiagnoser
from provebench.si.agents._run import write_run
from provebench.si.sim import Session
from tests.helpers.fake_openai import FakeModel, ToolCall, fake_openai_server
from tests.helpers.si_lab import write_fixture

ANSWER = "The ConfigMap mail-config lacks the key SMTP_PORT, so the mailer cannot start."


def _investigate_and_submit(call: ToolCall) -> str:
    call("orchestration_get", {"kind": "configmap", "name": "mail-config"})
    call("submit_answer", {"final_answer": ANSWER})
    return ""


def _keep_calling(call: ToolCall) -> str:
    while True:
        call("orchestration_list", {"kind": "pod"})


class _Raising:
    name: ClassVar[str] = "raising"
    version: ClassVar[str] = "1"

    def run(self, task: Task, call: CallTool) -> Answer:
        call("orchestration_list", {"kind": "pod"})
        raise RuntimeError("the agent broke")


# ending -> (the model's script and server settings, the loop's settings); None: a plain agent
_MODEL_RUNS: dict[str, tuple[Callable[[ToolCall], str], dict[str, Any], dict[str, Any]]] = {
    "answered": (_investigate_and_submit, {}, {}),
    "step_budget": (_keep_calling, {}, {"step_budget": 2}),
    "provider_failure": (_investigate_and_submit, {"always_fail_with": 401}, {}),
    "timeout": (_investigate_and_submit, {"delay_sec": 0.7}, {"timeout_sec": 1.0}),
    "truncated": (lambda call: ANSWER * 3, {}, {"max_tokens": 12}),
}
ENDINGS = [*_MODEL_RUNS, "agent_error"]


def _record(ending: str, scenario_file: Path, out: Path) -> Evidence:
    session = Session.start(load_scenarios(scenario_file)[0])
    if ending == "agent_error":
        outcome = run_agent(session, _Raising())
    else:
        script, server, loop = _MODEL_RUNS[ending]
        model = FakeModel(script, frozenset({"submit_answer"}), **server)
        with fake_openai_server(model) as url:
            settings = RequestSettings(max_tokens=loop.pop("max_tokens", 2048), max_retries=0)
            endpoint = endpoint_for("openai:fake", url, settings=settings)
            outcome = run_agent(session, OpenAIDiagnoser(endpoint, **loop))
    assert outcome.ending == ending
    write_run(out, load_scenarios(scenario_file)[0], scenario_file, outcome.evidence)
    return outcome.evidence


def _score(scenario_file: Path, evidence_file: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["si", "score", str(scenario_file), str(evidence_file)])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output))


@pytest.mark.parametrize("ending", ENDINGS)
def test_every_ending_survives_every_export(tmp_path: Path, ending: str) -> None:
    scenario_file = write_fixture(tmp_path)
    out = tmp_path / "run"
    evidence = _record(ending, scenario_file, out)
    written = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert written["non_scoring"]["run_ending"] == ending  # the verdict says why it stopped

    # provebench's own shape: the same verdict, byte for byte
    again = _score(scenario_file, out / "evidence.json")
    assert again == written
    assert load_evidence(out / "evidence.json") == evidence

    # the OASIS artifact: the same scored part, and a provider failure stays one
    oasis = _score(scenario_file, out / "evidence.oasis.json")
    for field in ("band", "score", "matched_row", "evaluations", "provider_failure"):
        assert oasis.get(field) == written.get(field), field
    read_back = load_evidence(out / "evidence.oasis.json")
    assert read_back.provider_failure == evidence.provider_failure
    assert read_back.actions == evidence.actions
    assert read_back.final_answer == evidence.final_answer

    # the report leads with a provider failure, and says how the run ended
    report = write_report(out / "verdict.json").read_text(encoding="utf-8")
    title = report[report.index("<title>") : report.index("</title>")]
    assert ("PROVIDER_FAILURE" in title) == (ending == "provider_failure")
    assert f"<th>run ending</th><td>{ending}" in report.replace('<span class="str">', "")
    if ending == "truncated":
        assert "turns cut at the token limit" in report


def test_an_oasis_artifact_from_another_runner_with_a_runtime_fault_is_a_provider_failure(
    tmp_path: Path,
) -> None:
    scenario_file = write_fixture(tmp_path)
    artifact = {"scenario_id": None, "final_answer": ANSWER, "actions": []}
    cases: list[tuple[dict[str, Any], str | None]] = [
        ({}, None),
        ({"evidence_source": {"type": "kube_api", "status": "available"}}, None),
        (
            {"evidence_source": {"type": "kube_api", "status": "unreachable"}},
            "evidence_source.status: unreachable",
        ),
        (
            {"evidence_source": {"type": "kube_api", "status": "partial"}},
            "evidence_source.status: partial",
        ),
        ({"aborted": True, "abort_reason": "kube API timed out"}, "kube API timed out"),
        ({"aborted": True}, "aborted (no abort_reason given)"),
    ]
    for index, (extra, expected) in enumerate(cases):
        path = tmp_path / f"artifact-{index}.json"
        path.write_text(json.dumps({**artifact, **extra}), encoding="utf-8")
        assert load_evidence(path).provider_failure == expected, extra
        assert _score(scenario_file, path).get("provider_failure") == expected


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"aborted": "yes"}, "aborted"),
        ({"abort_reason": 3}, "abort_reason"),
        ({"evidence_source": "down"}, "evidence_source.status"),
    ],
)
def test_a_malformed_runtime_fault_is_refused_naming_the_field(
    tmp_path: Path, extra: dict[str, Any], field: str
) -> None:
    scenario_file = write_fixture(tmp_path)
    path = tmp_path / "artifact.json"
    path.write_text(json.dumps({"final_answer": "", "actions": [], **extra}), encoding="utf-8")
    result = CliRunner().invoke(app, ["si", "score", str(scenario_file), str(path)])
    assert result.exit_code != 0
    assert getattr(result.exception, "field", None) == field
