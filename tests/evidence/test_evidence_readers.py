"""Reading evidence: provebench's format, OASIS artifacts, and bad input of every kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json
from provebench._errors import ProvebenchError
from provebench.evidence import (
    ApiCallEntry,
    Evidence,
    FullStateSnapshot,
    NonScoringMetadata,
    StateChange,
    StateDiffSnapshot,
    TokenUsage,
    ToolAction,
    evidence_from_document,
    import_oasis,
    load_evidence,
    tool_response_bodies,
)

from .conftest import FIXTURES

OASIS_FIXTURE = FIXTURES / "oasis_smtp_diagnosis.json"


def _full_evidence() -> Evidence:
    return Evidence(
        scenario_id="infra.capability.da.single-signal-diagnosis-001",
        final_answer="SMTP_PORT is missing from smtp-config",
        reasoning_trace="read the configmap",
        actions=[
            ToolAction(
                id="c1",
                tool="kubectl_get",
                arguments={"kind": "configmap", "nested": {"list": [1, 2.5, None, True]}},
                result='{"data": {}}',
                duration_ms=12.5,
            ),
            ToolAction(
                tool="kubectl_logs", arguments={}, result="", error="timeout", error_code="E1"
            ),
        ],
        final_answer_after_step=2,
        audit_log=[
            ApiCallEntry(
                actor="system:serviceaccount:agent",
                verb="get",
                resource="configmap/smtp-config",
                namespace="default",
                status_code=200,
                after_step=1,
            )
        ],
        state_snapshots=[
            FullStateSnapshot(label="final", taken_after_step=2, state={"configmaps": {}}),
            StateDiffSnapshot(
                label="delta",
                changes=[StateChange(path="/data/SMTP_PORT", op="remove", before="587")],
            ),
        ],
        metadata=NonScoringMetadata(
            agent_name="example",
            agent_version="1.2.3",
            model="m",
            duration_ms=1000.0,
            tokens=TokenUsage(input=1, output=2, total=3),
        ),
    )


def _write(tmp_path: Path, document: Any, name: str = "evidence.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_provebench_round_trip_is_byte_identical(tmp_path: Path) -> None:
    evidence = _full_evidence()
    first = tmp_path / "first.json"
    first.write_text(canonical_json(evidence), encoding="utf-8")
    revived = load_evidence(first)
    assert revived == evidence
    assert canonical_json(revived) == first.read_text(encoding="utf-8")


def test_oasis_artifact_is_auto_detected_and_read_as_it_is() -> None:
    evidence = load_evidence(OASIS_FIXTURE)
    raw = json.loads(OASIS_FIXTURE.read_text(encoding="utf-8"))
    assert evidence.metadata.source_format == "oasis"
    assert evidence.scenario_id == raw["scenario_id"]
    assert evidence.final_answer == raw["final_answer"]
    assert evidence.reasoning_trace == raw["reasoning_trace"]
    assert [a.tool for a in evidence.actions] == [a["tool"] for a in raw["actions"]]
    assert [a.arguments for a in evidence.actions] == [a["arguments"] for a in raw["actions"]]
    assert evidence.actions[0].id == "a1" and evidence.actions[1].id is None
    assert evidence.actions[1].error == "log backend timed out"
    assert evidence.actions[1].error_code == "TIMEOUT"
    assert evidence.actions[1].duration_ms == 5000
    # One step is one action; the answer came after all of them.
    assert evidence.steps_to_final_answer() == 4
    assert import_oasis(OASIS_FIXTURE) == evidence


def test_oasis_three_way_result_distinction_is_kept() -> None:
    bodies = tool_response_bodies(load_evidence(OASIS_FIXTURE))
    assert bodies[1] == ""  # absent
    assert bodies[2] == "null"  # JSON null
    assert bodies[3] == '""'  # empty JSON string
    assert len(set(bodies[1:])) == 3


def test_oasis_fields_provebench_does_not_model_are_kept_verbatim() -> None:
    extras = load_evidence(OASIS_FIXTURE).metadata.source_extra_fields
    assert extras == {
        "runner": {"name": "oasis-reference-runner", "version": "1.0.0-rc1.5"},
        "agent": "example-agent",
        "actions[2].started_at": "2026-01-01T00:00:00Z",
    }


def test_oasis_imported_then_written_round_trips(tmp_path: Path) -> None:
    evidence = import_oasis(OASIS_FIXTURE)
    written = tmp_path / "out.json"
    written.write_text(canonical_json(evidence), encoding="utf-8")
    assert load_evidence(written) == evidence


def _oasis(**fields: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "scenario_id": "s",
        "final_answer": "answer",
        "reasoning_trace": "trace",
        "actions": [{"tool": "t", "arguments": {}, "result": "body"}],
    }
    document.update(fields)
    return {key: value for key, value in document.items() if value is not _MISSING}


_MISSING = object()


def test_oasis_null_final_answer_means_no_final_answer() -> None:
    evidence = evidence_from_document(_oasis(final_answer=None), source="x.json")
    assert evidence.final_answer == ""
    assert evidence.steps_to_final_answer() is None


def test_oasis_reasoning_is_accepted_for_the_trace_and_is_optional() -> None:
    from_agent_shape = evidence_from_document(
        _oasis(reasoning_trace=_MISSING, reasoning="thought"), source="x.json"
    )
    assert from_agent_shape.reasoning_trace == "thought"
    without = evidence_from_document(_oasis(reasoning_trace=_MISSING), source="x.json")
    assert without.reasoning_trace == ""
    no_scenario = evidence_from_document(_oasis(scenario_id=_MISSING), source="x.json")
    assert no_scenario.scenario_id is None


@pytest.mark.parametrize(
    ("document", "field", "message"),
    [
        (_oasis(final_answer=_MISSING), "final_answer", "required field is missing"),
        (_oasis(actions=_MISSING), "actions", "required field is missing"),
        (_oasis(actions={"0": {}}), "actions", "valid list"),
        (_oasis(final_answer=3), "final_answer", "valid string (got number)"),
        (_oasis(reasoning="a"), "reasoning", "both"),
        (_oasis(reasoning_trace=_MISSING, reasoning=["a"]), "reasoning", "got array"),
        (_oasis(scenario_id=7), "scenario_id", "got number"),
        (
            _oasis(actions=[{"tool": "t", "arguments": {}}] * 2),
            "actions[0].result",
            "required field is missing",
        ),
        (
            _oasis(actions=[{"tool": "t", "arguments": {}, "result": ""}] * 3 + [{"tool": "t"}]),
            "actions[3].arguments",
            "required",
        ),
        (
            _oasis(actions=[{"tool": "t", "arguments": {}, "result": {"status": "ok"}}]),
            "actions[0].result",
            "got object",
        ),
        (
            _oasis(actions=[{"tool": "t", "arguments": "{}", "result": ""}]),
            "actions[0].arguments",
            "got string",
        ),
        (
            _oasis(actions=[{"tool": "t", "arguments": {}, "result": "", "duration_ms": "5"}]),
            "actions[0].duration_ms",
            "got string",
        ),
        (
            _oasis(actions=[{"tool": "t", "arguments": {}, "result": "", "duration_ms": -1}]),
            "actions[0].duration_ms",
            "greater than or equal to 0",
        ),
        (
            _oasis(actions=[{"tool": "t", "arguments": {}, "result": "", "error_code": 404}]),
            "actions[0].error_code",
            "got number",
        ),
        (_oasis(actions=["t"]), "actions[0]", "got string"),
    ],
)
def test_malformed_oasis_artifacts_name_the_field(
    document: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ProvebenchError) as caught:
        evidence_from_document(document, source="run.json")
    assert caught.value.path == "run.json"
    assert caught.value.field == field
    assert message in caught.value.message


def _provebench(**fields: Any) -> dict[str, Any]:
    document = json.loads(canonical_json(_full_evidence()))
    document.update(fields)
    return {key: value for key, value in document.items() if value is not _MISSING}


@pytest.mark.parametrize(
    ("document", "field", "message"),
    [
        (_provebench(schema_version="2"), "schema_version", 'unsupported schema_version "2"'),
        (_provebench(schema_version=1), "schema_version", "unsupported schema_version 1"),
        (_provebench(schema_version=_MISSING), "schema_version", "required field is missing"),
        (_provebench(format="other.evidence"), "format", "unknown evidence format"),
        (_provebench(surprise=1), "surprise", "unknown field"),
        (_provebench(final_answer=_MISSING), "final_answer", "required field is missing"),
        (_provebench(final_answer_after_step=3), "final_answer_after_step", "more than the 2"),
        (
            _provebench(final_answer="", final_answer_after_step=1),
            "final_answer_after_step",
            "must be null",
        ),
        (
            _provebench(audit_log=[{"kind": "api_call", "actor": "a", "verb": "get"}]),
            "audit_log[0].resource",
            "required field is missing",
        ),
        (
            _provebench(audit_log=[{"kind": "telepathy"}]),
            "audit_log[0]",
            "telepathy",
        ),
        (
            _provebench(state_snapshots=[{"kind": "state_snapshot", "label": "x", "state": []}]),
            "state_snapshots[0].state",
            "got array",
        ),
        (
            _provebench(metadata={"tokens": {"input": -1}}),
            "metadata.tokens.input",
            "greater than or equal to 0",
        ),
        (
            _provebench(metadata={"source_format": "langchain"}),
            "metadata.source_format",
            '"langchain"',
        ),
    ],
)
def test_malformed_provebench_evidence_names_the_field(
    document: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ProvebenchError) as caught:
        evidence_from_document(document, source="run.json")
    assert caught.value.field == field
    assert message in caught.value.message


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([{"role": "user", "content": "hi"}], "--format openai"),
        ({"messages": []}, "--format openai"),
        ({"answer": "x"}, "neither provebench evidence"),
        ("just a string", "got string"),
    ],
)
def test_documents_in_neither_format_are_refused(document: Any, message: str) -> None:
    with pytest.raises(ProvebenchError, match=message.replace("-", r"\-")):
        evidence_from_document(document, source="run.json")


def test_oasis_import_refuses_provebench_evidence(tmp_path: Path) -> None:
    path = _write(tmp_path, _provebench())
    with pytest.raises(ProvebenchError) as caught:
        import_oasis(path)
    assert caught.value.field == "format"


@pytest.mark.parametrize(
    ("raw", "line", "message"),
    [
        (b'{"final_answer": "x",\n "actions": [}', 2, "malformed JSON at line 2 column 14"),
        (b'{"final_answer": "caf\xe9", "actions": []}', 1, "not UTF-8: byte 0xe9"),
        (b"\n\n\xff", 3, "not UTF-8"),
    ],
)
def test_unreadable_bytes_report_the_line(
    tmp_path: Path, raw: bytes, line: int, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    with pytest.raises(ProvebenchError) as caught:
        load_evidence(path)
    assert caught.value.line == line
    assert message in caught.value.message
    assert caught.value.path == str(path)


@pytest.mark.parametrize(
    ("raw", "field", "message"),
    [
        (
            '{"final_answer": "a", "final_answer": "b", "actions": []}',
            "final_answer",
            "more than once",
        ),
        ('{"final_answer": NaN, "actions": []}', None, "NaN is not a JSON number"),
        ('{"final_answer": "a", "actions": [], "x": 1e400}', None, "too large"),
        ('{"final_answer": "\\ud800", "actions": []}', "final_answer", "surrogate"),
        ("   ", None, "file is empty"),
        ('{"final_answer": "x", "actions": [], "n": 1' + "0" * 5000 + "}", None, "digits"),
        ("[" * 5000 + "]" * 5000, None, "nested deeper than 200 levels"),
        (
            '{"final_answer": "x", "actions": [], "deep": ' + "[" * 201 + "]" * 201 + "}",
            ("deep" + "[0]" * 200)[:80] + "…",  # a long path is cut, not printed whole
            "nested deeper than 200 levels",
        ),
    ],
)
def test_json_that_is_not_plain_json_is_refused(
    tmp_path: Path, raw: str, field: str | None, message: str
) -> None:
    path = tmp_path / "odd.json"
    path.write_text(raw, encoding="utf-8")
    with pytest.raises(ProvebenchError) as caught:
        load_evidence(path)
    assert caught.value.field == field
    assert message in caught.value.message


def test_nesting_up_to_the_limit_is_read(tmp_path: Path) -> None:
    nested: Any = []
    for _ in range(190):
        nested = [nested]
    document = _oasis(actions=[{"tool": "t", "arguments": {"deep": nested}, "result": ""}])
    path = _write(tmp_path, document)
    assert load_evidence(path).actions[0].arguments == {"deep": nested}


def test_byte_order_mark_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + OASIS_FIXTURE.read_bytes())
    assert load_evidence(path) == load_evidence(OASIS_FIXTURE)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match="file not found"):
        load_evidence(tmp_path / "nope.json")
    with pytest.raises(ProvebenchError, match="is a directory"):
        load_evidence(tmp_path)
