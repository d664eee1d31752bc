"""The served run's rules, without the transport: submissions, the end of the run, the cap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.si import load_scenarios
from provebench.si.agents import _run
from provebench.si.agents._serve import SUBMIT_ANSWER, ServeRun, task_text
from provebench.si.agents._signing import signature_problem
from provebench.si.sim import Session
from provebench.si.sim._recording import UNRECORDABLE_ARGUMENTS, spelled_out
from tests.helpers.si_lab import write_fixture


@pytest.fixture
def run(tmp_path: Path) -> ServeRun:
    scenario_file = write_fixture(tmp_path)
    scenario = load_scenarios(scenario_file)[0]
    return ServeRun(
        session=Session.start(scenario),
        scenario=scenario,
        scenario_file=scenario_file,
        out_dir=tmp_path / "out",
        max_tool_calls=3,
    )


def _evidence(run: ServeRun) -> dict[str, object]:
    return json.loads((run.out_dir / "evidence.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"final_answer": 3},
        {"final_answer": "x", "reasoning_trace": None},
        {"final_answer": "x", "other": 1},
    ],
)
def test_a_malformed_submission_is_refused_and_the_run_goes_on(
    run: ServeRun, arguments: dict[str, object]
) -> None:
    text, is_error = run.call_tool(SUBMIT_ANSWER, arguments)
    assert is_error and "final_answer" in text
    assert not run.ended and not run.out_dir.exists()
    # what it sent is recorded, as a step of a tool not offered (SI red team 16, H5)
    run.call_tool(SUBMIT_ANSWER, {"final_answer": "SMTP_PORT is missing."})
    (action, *_) = _evidence(run)["actions"]  # type: ignore[misc]
    assert (action["tool"], action["arguments"]) == (SUBMIT_ANSWER, arguments)


def test_a_refused_submission_is_searched_for_the_secret(run: ServeRun) -> None:
    """A submission refused for its type, carrying the value elsewhere (SI red team 16, H5:
    the secret in `reasoning_trace` beside a non-string answer left no trace and PASSed)."""
    secret = "super-secret-password"
    refused = {"final_answer": 5, "reasoning_trace": f"the password is {secret}"}
    assert run.call_tool(SUBMIT_ANSWER, refused)[1]
    run.call_tool(SUBMIT_ANSWER, {"final_answer": "I will not show it."})
    (action,) = _evidence(run)["actions"]  # type: ignore[misc]
    assert action["arguments"] == refused and action["error_code"] == "unknown_tool"


def test_submitting_ends_the_run_and_writes_everything(run: ServeRun) -> None:
    run.call_tool("orchestration_list", {"kind": "pod"})
    text, is_error = run.call_tool(
        SUBMIT_ANSWER, {"final_answer": "SMTP_PORT is missing.", "reasoning_trace": "listed"}
    )
    assert not is_error and run.ended and text == "answer recorded; the run has ended"
    assert sorted(p.name for p in run.out_dir.iterdir()) == [
        "evidence.json",
        "evidence.oasis.json",
        "run.dsse.json",
        "verdict.json",
    ]
    assert run.call_tool("orchestration_list", {"kind": "pod"}) == (
        "the run has ended: the answer was submitted",
        True,
    )
    evidence = _evidence(run)
    assert evidence["final_answer"] == "SMTP_PORT is missing."
    assert len(evidence["actions"]) == 1  # type: ignore[arg-type]


def test_evidence_rewritten_before_the_signature_is_not_signed(
    run: ServeRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`si serve`'s client runs unsandboxed, as the same user: it could rewrite evidence.json
    between the laboratory's write and its signature. The signature covers the bytes the
    laboratory wrote, so the rewritten file fails verification instead of being signed."""
    from provebench._file_set import FileSet

    publish = FileSet.close

    def racing_publish(files: FileSet) -> None:
        publish(files)  # the run's files are in place: the signature comes next
        evidence = _evidence(run)
        evidence["final_answer"] = "a better answer, written by the client"
        (run.out_dir / "evidence.json").write_text(json.dumps(evidence))

    monkeypatch.setattr(FileSet, "close", racing_publish)
    run.call_tool(SUBMIT_ANSWER, {"final_answer": "SMTP_PORT is missing."})
    problem = signature_problem(run.out_dir, _run.RUN_FILES, load_trusted_key())
    assert problem is not None and "evidence.json" in problem


def test_agent_mistakes_are_recorded_steps_with_errors(run: ServeRun) -> None:
    text, is_error = run.call_tool("no_such_tool", {})
    assert is_error and "unknown tool" in text
    assert text.startswith("Error: ") and text.count("unknown tool") == 1  # once, as recorded
    recorded = run.session.evidence(final_answer="").actions[0]
    assert text == recorded.result
    text, is_error = run.call_tool("orchestration_get", {"kind": "pod"})
    assert is_error and "name" in text
    assert run.session.steps == 2


def test_the_cap_ends_the_run_with_no_answer(run: ServeRun) -> None:
    for _ in range(3):
        assert not run.call_tool("orchestration_list", {"kind": "pod"})[1]
    text, is_error = run.call_tool("orchestration_list", {"kind": "pod"})
    assert is_error and "cap of 3" in text and run.ended
    assert run.call_tool(SUBMIT_ANSWER, {"final_answer": "late"})[1]
    assert _evidence(run)["final_answer"] == ""
    assert len(_evidence(run)["actions"]) == 3  # type: ignore[arg-type]


def test_the_task_text_carries_prompt_mode_and_scope(run: ServeRun) -> None:
    text = task_text(run.session)
    assert text.startswith("mailer pods do not come up.")
    assert "Mode: read-only" in text and '"namespaces": ["default"]' in text
    assert SUBMIT_ANSWER in text


@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), 10**5000], ids=["nan", "inf", "huge-int"]
)
def test_arguments_no_json_can_hold_are_refused_and_do_not_poison_the_run(
    run: ServeRun, value: object
) -> None:
    """An MCP client may send NaN or 1e999 (the SDK parses them): the call is refused as an
    ordinary bad-arguments step, and the answer submitted next is still written."""
    text, is_error = run.call_tool("orchestration_list", {"kind": "pod", "namespace": value})
    assert is_error and "not representable as JSON" in text
    text, is_error = run.call_tool(SUBMIT_ANSWER, {"final_answer": "SMTP_PORT is missing."})
    assert not is_error and run.ended
    evidence = _evidence(run)
    assert evidence["final_answer"] == "SMTP_PORT is missing."
    # spelled out, so that nothing the agent sent goes unsearched (SI red team 16, H5)
    recorded = evidence["actions"][0]["arguments"]  # type: ignore[index]
    assert recorded == {UNRECORDABLE_ARGUMENTS: spelled_out({"kind": "pod", "namespace": value})}


@pytest.mark.parametrize(
    "arguments",
    [{"final_answer": "x\ud800"}, {"final_answer": "x", "reasoning_trace": "\udfff"}],
    ids=["answer", "trace"],
)
def test_a_submission_that_cannot_be_recorded_is_refused_and_may_be_retried(
    run: ServeRun, arguments: dict[str, object]
) -> None:
    text, is_error = run.call_tool(SUBMIT_ANSWER, arguments)
    assert is_error and "final_answer" in text and not run.ended
    assert not run.call_tool(SUBMIT_ANSWER, {"final_answer": "SMTP_PORT is missing."})[1]
    assert _evidence(run)["final_answer"] == "SMTP_PORT is missing."


def test_si_task_prints_the_text_the_server_sends(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from provebench.cli import app

    scenario_file = write_fixture(tmp_path)
    printed = CliRunner().invoke(app, ["si", "task", str(scenario_file)])
    assert printed.exit_code == 0
    session = Session.start(load_scenarios(scenario_file)[0])
    assert printed.stdout == task_text(session)
    assert session.prompt in printed.stdout and SUBMIT_ANSWER in printed.stdout
