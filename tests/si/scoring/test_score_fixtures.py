"""The shipped evidence fixtures, each pinned to its band, score and the evidence that decided it.

Scenario: the shipped Form B `infra.capability.da.single-signal-diagnosis-001` (step_budget 15,
channels [agent_response], exclude_tool_echo true, subsystem_set [smtp-config, SMTP_HOST,
SMTP_PORT, configMapKeyRef], factor f1 = SMTP_PORT absent_key).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import provebench.si
from provebench.si.scoring import Verdict, example_evidence, score_files

PACKAGE = Path(provebench.si.__file__).parent
SCENARIO = PACKAGE / "scenarios" / "diagnostic-accuracy.yaml"
EXAMPLES = PACKAGE / "examples"


def score(name: str, window: str | None = None) -> Verdict:
    return score_files(SCENARIO, EXAMPLES / f"{name}.json", window=window)


def calls(verdict: Verdict) -> list[tuple[int, str, bool]]:
    return [(e.row, e.result.primitive, e.result.value) for e in verdict.evaluations]


def answer(name: str) -> str:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))["final_answer"]


def test_every_fixture_is_pinned() -> None:
    pinned = {
        "correct-diagnosis",
        "named-without-characterisation",
        "quotation-gaming",
        "longer-token",
        "reasoning-trace-only",
        "over-budget",
        "no-final-answer",
        "nfc-case-variants",
        "sentence-boundary",
        "no-op-agent",
    }
    assert {path.stem for path in example_evidence()} == pinned


def test_correct_diagnosis_scores_one() -> None:
    verdict = score("correct-diagnosis")
    assert (verdict.band, verdict.score, verdict.matched_row.id) == ("correct_root_cause", 1.0, 2)
    assert calls(verdict) == [(1, "within_step_budget", True), (2, "factor_identified", True)]
    factor = verdict.evaluations[1].result
    assert factor.primitive == "factor_identified"
    co = factor.cooccurrence
    assert co.identifier_match is not None and co.synonym_match is not None
    first_line = answer("correct-diagnosis").split("\n")[0]
    assert (co.identifier_match.line, co.identifier_match.column) == (1, 104)
    assert first_line[103:112] == "SMTP_PORT"
    assert (co.synonym_match.text, co.synonym_match.sentence) == ("missing", 0)
    assert co.window == "same-sentence"


def test_named_without_characterisation_scores_half() -> None:
    verdict = score("named-without-characterisation")
    assert (verdict.band, verdict.score, verdict.matched_row.id) == (
        "correct_subsystem_wrong_component",
        0.5,
        3,
    )
    assert calls(verdict) == [
        (1, "within_step_budget", True),
        (2, "factor_identified", False),
        (3, "named_in_output", True),
    ]
    factor = verdict.evaluations[1].result
    assert factor.primitive == "factor_identified"
    assert factor.identifiers[0].value is True  # SMTP_PORT is named ...
    assert factor.cooccurrence.found is False  # ... but not characterised
    subsystem = verdict.evaluations[2].result
    assert subsystem.primitive == "named_in_output"
    assert subsystem.matched_identifiers == ["SMTP_PORT"]


def test_quotation_gaming_is_not_credited() -> None:
    verdict = score("quotation-gaming")
    assert (verdict.band, verdict.score, verdict.matched_row.id) == ("incorrect", 0.0, 4)
    factor = verdict.evaluations[1].result
    assert factor.primitive == "factor_identified"
    named = factor.identifiers[0]
    assert named.match_count == 0
    assert [(line.line, line.action_index) for line in named.excluded_lines] == [
        (2, 2),
        (5, 2),
        (7, 1),
    ]
    assert named.excluded_lines[2].text.endswith("SMTP_PORT is missing")
    subsystem = verdict.evaluations[2].result
    assert subsystem.primitive == "named_in_output"
    assert subsystem.value is False and subsystem.excluded_line_count == 6


def test_longer_token_does_not_name_the_identifier() -> None:
    verdict = score("longer-token")
    assert (verdict.band, verdict.score) == ("incorrect", 0.0)
    assert "SMTP_PORT_OLD" in answer("longer-token")
    factor = verdict.evaluations[1].result
    assert factor.primitive == "factor_identified"
    assert factor.identifiers[0].match_count == 0


def test_answer_only_in_the_reasoning_trace_is_not_credited() -> None:
    verdict = score("reasoning-trace-only")
    assert (verdict.band, verdict.score) == ("incorrect", 0.0)
    assert all(not e.result.value for e in verdict.evaluations[1:])


def test_right_answer_after_more_than_fifteen_tool_calls_scores_zero() -> None:
    verdict = score("over-budget")
    assert (verdict.band, verdict.score, verdict.matched_row.id) == (
        "no_conclusion_within_budget",
        0.0,
        1,
    )
    budget = verdict.evaluations[0].result
    assert budget.primitive == "within_step_budget"
    assert (budget.steps, budget.n, budget.value) == (16, 15, False)
    assert len(verdict.evaluations) == 1  # first match wins: row 2 is never evaluated


def test_no_final_answer_scores_zero() -> None:
    verdict = score("no-final-answer")
    assert (verdict.band, verdict.score, verdict.matched_row.id) == (
        "no_conclusion_within_budget",
        0.0,
        1,
    )
    budget = verdict.evaluations[0].result
    assert budget.primitive == "within_step_budget"
    assert (budget.has_final_answer, budget.steps) == (False, None)


def test_nfc_and_case_variants_are_credited_at_their_original_columns() -> None:
    text = answer("nfc-case-variants")
    first_line = text.split("\n")[0]
    assert "e\u0301" in first_line  # the file holds decomposed (NFD) text
    verdict = score("nfc-case-variants")
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    factor = verdict.evaluations[1].result
    assert factor.primitive == "factor_identified"
    co = factor.cooccurrence
    assert co.identifier_match is not None and co.synonym_match is not None
    assert co.identifier_match.text == "smtp_port"
    assert co.identifier_match.column == first_line.index("smtp_port") + 1
    assert co.synonym_match.text == "MISSING"
    assert [m.text for m in factor.identifiers[0].matches] == ["smtp_port", "Smtp_Port"]


def test_synonym_one_sentence_away_depends_on_the_window() -> None:
    same = score("sentence-boundary")
    assert (same.band, same.score) == ("correct_subsystem_wrong_component", 0.5)
    assert same.versions.cooccurrence_window == "same-sentence"
    adjacent = score("sentence-boundary", window="adjacent-sentence")
    assert (adjacent.band, adjacent.score) == ("correct_root_cause", 1.0)
    assert adjacent.versions.cooccurrence_window == "adjacent-sentence"
    factor = adjacent.evaluations[1].result
    assert factor.primitive == "factor_identified"
    co = factor.cooccurrence
    assert co.identifier_match is not None and co.synonym_match is not None
    assert (co.identifier_match.sentence, co.synonym_match.sentence) == (0, 1)


def test_no_op_agent_scores_zero() -> None:
    verdict = score("no-op-agent")
    assert (verdict.band, verdict.score, verdict.matched_row.id) == ("incorrect", 0.0, 4)
    assert verdict.non_scoring.tool_invocations == 0


@pytest.mark.parametrize("name", sorted(path.stem for path in EXAMPLES.glob("*.json")))
def test_verdict_bytes_are_identical_across_runs(name: str) -> None:
    assert score(name).to_json() == score(name).to_json()


def test_oasis_runner_evidence_scores_like_provebench_evidence(tmp_path: Path) -> None:
    document = json.loads((EXAMPLES / "quotation-gaming.json").read_text(encoding="utf-8"))
    oasis = {
        "scenario_id": document["scenario_id"],
        "final_answer": document["final_answer"],
        "reasoning_trace": document["reasoning_trace"],
        "actions": [
            {key: action[key] for key in ("id", "tool", "arguments", "result")}
            for action in document["actions"]
        ],
    }
    path = tmp_path / "oasis.json"
    path.write_text(json.dumps(oasis), encoding="utf-8")
    ours, theirs = score("quotation-gaming"), score_files(SCENARIO, path)
    assert (theirs.band, theirs.score) == (ours.band, ours.score) == ("incorrect", 0.0)
    assert theirs.evaluations == ours.evaluations


def test_the_reference_runners_band_is_named_beside_provebenchs() -> None:
    from provebench.si.scoring._score import score_files

    shipped = Path(__file__).resolve().parents[3] / "src/provebench/si"
    scenario = shipped / "scenarios" / "diagnostic-accuracy.yaml"
    # identifier in one sentence, "missing" in the next: provebench's same-sentence window
    # gives the locus band, the reference runner's adjacent-sentence window the full one
    split = score_files(scenario, shipped / "examples" / "sentence-boundary.json")
    assert split.reference_runner is not None  # type: ignore[union-attr]
    assert (split.band, split.reference_runner.band) == (  # type: ignore[union-attr]
        "correct_subsystem_wrong_component",
        "correct_root_cause",
    )
    assert split.reference_runner.same_as_provebench is False  # type: ignore[union-attr]
    same = score_files(scenario, shipped / "examples" / "correct-diagnosis.json")
    assert same.reference_runner.same_as_provebench is True  # type: ignore[union-attr]
