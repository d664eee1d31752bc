"""The three registry-v1 primitives (SI §2.1–§2.3) and the decision-table evaluator."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.si import Row, bind_scoring, registry
from provebench.si.primitives import (
    IMPLEMENTED_PRIMITIVES,
    TOKEN_CHARACTERS,
    EvidenceView,
    factor_identified,
    named_in_output,
    within_step_budget,
)
from provebench.si.scenario import load_scenarios
from provebench.si.scoring import evaluate, evaluate_bound
from tests.helpers.si_evidence import make_evidence
from tests.helpers.si_scenarios import FORM_B

AGENT = ["agent_response"]


def test_registered_primitive_names_equal_the_implemented_ones() -> None:
    assert set(registry().primitives) == set(IMPLEMENTED_PRIMITIVES)


def test_named_in_output_is_membership_not_conjunction() -> None:
    view = EvidenceView(make_evidence("only smtp-config is mentioned"))
    result = named_in_output(view, ["SMTP_PORT", "smtp-config"], AGENT)
    assert result.value and result.matched_identifiers == ["smtp-config"]


def test_named_in_output_reads_only_the_listed_channels() -> None:
    view = EvidenceView(make_evidence("no idea", reasoning_trace="SMTP_PORT is missing"))
    assert not named_in_output(view, ["SMTP_PORT"], AGENT).value
    assert named_in_output(view, ["SMTP_PORT"], ["reasoning_trace"]).value


def test_echo_exclusion_applies_only_when_asked() -> None:
    body = "env:\n  - name: SMTP_PORT\n"
    view = EvidenceView(make_evidence("  - name: SMTP_PORT", [body]))
    assert named_in_output(view, ["SMTP_PORT"], AGENT, False).value
    excluded = named_in_output(view, ["SMTP_PORT"], AGENT, True)
    assert not excluded.value
    assert [(e.line, e.action_index, e.action_id) for e in excluded.excluded_lines] == [
        (1, 0, "call-0")
    ]


def test_blank_and_unrelated_lines_are_never_reported_as_echo() -> None:
    view = EvidenceView(make_evidence("\n\nSMTP_PORT is missing\n   \n", ["\n\n   \nlogs"]))
    result = named_in_output(view, ["SMTP_PORT"], AGENT, True)
    assert result.value and result.excluded_line_count == 0


@pytest.mark.parametrize(
    ("identifiers", "channels"),
    [([], AGENT), ([""], AGENT), (["SMTP_PORT"], []), (["SMTP_PORT"], ["no_such_channel"])],
)
def test_configuration_errors_are_never_vacuous(
    identifiers: list[str], channels: list[str]
) -> None:
    with pytest.raises(ProvebenchError):
        named_in_output(EvidenceView(make_evidence("SMTP_PORT")), identifiers, channels)


@pytest.mark.parametrize(
    ("steps", "after", "answer", "expected"),
    [
        (15, None, "done", True),
        (16, None, "done", False),
        (16, 15, "done", True),  # tool calls after the answer are not counted (SI §2.3)
        (0, None, "done", True),
        (3, None, "", False),  # no final answer: outside every budget
    ],
)
def test_within_step_budget(steps: int, after: int | None, answer: str, expected: bool) -> None:
    evidence = make_evidence(answer, ["x"] * steps, final_answer_after_step=after)
    assert within_step_budget(EvidenceView(evidence), 15).value is expected


def test_within_step_budget_refuses_a_non_integer_budget() -> None:
    with pytest.raises(ProvebenchError):
        within_step_budget(EvidenceView(make_evidence("x")), True)


@pytest.fixture
def scenario(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "scenario.yaml"
    path.write_text(FORM_B, encoding="utf-8")
    return load_scenarios(path)[0]


def factor_of(scenario, text: str, bodies: tuple[str, ...] = (), window: str | None = None):  # type: ignore[no-untyped-def]
    bound = bind_scoring(scenario, window=window)
    assert bound.factor is not None
    view = EvidenceView(make_evidence(text, bodies))
    return factor_identified(view, bound.factor, AGENT, bound.window, True)


def test_factor_needs_the_synonym_in_the_same_sentence(scenario) -> None:  # type: ignore[no-untyped-def]
    assert factor_of(scenario, "SMTP_PORT is missing.").value
    assert not factor_of(scenario, "SMTP_PORT is wrong. It is missing.").value
    assert factor_of(
        scenario, "SMTP_PORT is wrong. It is missing.", window="adjacent-sentence"
    ).value
    assert not factor_of(
        scenario, "SMTP_PORT is wrong. Really. It is missing.", window="adjacent-sentence"
    ).value


def test_sentence_split_on_newline_separates_identifier_and_synonym(scenario) -> None:  # type: ignore[no-untyped-def]
    assert not factor_of(scenario, "SMTP_PORT\nis missing").value
    # A decimal point is not a sentence end: "v1.2" does not split.
    assert factor_of(scenario, "SMTP_PORT in v1.2 is missing").value


def test_synonym_on_an_echoed_line_does_not_characterise(scenario) -> None:  # type: ignore[no-untyped-def]
    body = "ERROR key is missing\n"
    result = factor_of(
        scenario, "Look at SMTP_PORT.\nERROR key is missing", (body,), "adjacent-sentence"
    )
    assert result.identifiers[0].value
    assert not result.value
    assert factor_of(
        scenario, "Look at SMTP_PORT.\nThe key is missing", (body,), "adjacent-sentence"
    ).value


def test_the_window_counts_sentences_of_the_remaining_lines(scenario) -> None:  # type: ignore[no-untyped-def]
    # SI §2.1 read literally: matching runs over the lines that remain once echoes are removed,
    # so the echoed line between the two sentences does not hold them apart.
    body = "dumped line\n"
    text = "SMTP_PORT is the key.\ndumped line\nIt is missing."
    assert factor_of(scenario, text, (body,), "adjacent-sentence").value
    # the same line, not echoed (no tool printed it): the sentences are two apart
    assert not factor_of(scenario, text, ("other\n",), "adjacent-sentence").value
    # the default window is one sentence: removal can never bring two sentences into one
    assert not factor_of(scenario, text, (body,), "same-sentence").value


def test_every_required_identifier_must_be_named(scenario) -> None:  # type: ignore[no-untyped-def]
    assert not factor_of(scenario, "The port key is missing.").value


def test_evaluation_is_lazy_and_first_match_wins(scenario) -> None:  # type: ignore[no-untyped-def]
    verdict = evaluate(scenario, make_evidence("SMTP_PORT is missing"))
    assert [e.row for e in verdict.evaluations] == [1, 2]
    assert verdict.matched_row.id == 2


def test_local_table_with_all_any_not(tmp_path: Path) -> None:
    table = (
        "  decision_table:\n    rows:\n"
        "      - id: 1\n"
        "        when: {all: [{call: within_step_budget, with: {n: 3}}, {any: [\n"
        "          {call: named_in_output, with: {identifier_set: [SMTP_HOST],\n"
        "                                         channels: [agent_response]}},\n"
        "          {not: {call: named_in_output, with: {identifier_set: [smtp-config],\n"
        "                                               channels: [agent_response]}}}]}]}\n"
        "        band: hit\n        score: 1.0\n"
        "      - {id: 2, when: otherwise, band: miss, score: 0.0}\n"
    )
    start, end = FORM_B.index("  archetype_template:"), FORM_B.index("verification:")
    path = tmp_path / "local.yaml"
    path.write_text(FORM_B[:start] + table + FORM_B[end:], encoding="utf-8")
    (scenario,) = load_scenarios(path)
    verdict = evaluate(scenario, make_evidence("SMTP_HOST"))
    assert (verdict.band, [e.result.primitive for e in verdict.evaluations]) == (
        "hit",
        ["within_step_budget", "named_in_output"],  # `any` stopped at its first true operand
    )
    assert verdict.matched_row.predicate.startswith("all(within_step_budget(n=3), any(")
    verdict = evaluate(scenario, make_evidence("smtp-config"))
    assert verdict.band == "miss" and len(verdict.evaluations) == 3
    verdict = evaluate(scenario, make_evidence("done", ["x"] * 4))
    assert verdict.band == "miss" and len(verdict.evaluations) == 1  # `all` stopped early


@dataclass(frozen=True)
class _Synonyms:
    deviation_type: str = "absent_key"
    version: str = "v1"
    phrases: tuple[str, ...] = ("missing", "unset")


@dataclass(frozen=True)
class _Factor:
    required_identifiers: tuple[str, ...]
    ref: str = "f1"
    deviation_type: str = "absent_key"
    synonyms: _Synonyms = _Synonyms()


@dataclass(frozen=True)
class _Window:
    id: str = "same-sentence"
    sentence_radius: int = 0


def test_a_synonym_inside_the_identifier_is_not_a_characterisation() -> None:
    factor = _Factor(required_identifiers=("MISSING_KEY",))

    def identified(text: str) -> bool:
        view = EvidenceView(make_evidence(text))
        return factor_identified(view, factor, AGENT, _Window(), True).value

    assert not identified("MISSING_KEY is wrong.")
    assert identified("MISSING_KEY is missing.")
    assert identified("MISSING_KEY is unset.")


def test_every_required_identifier_is_checked_separately() -> None:
    factor = _Factor(required_identifiers=("SMTP_PORT", "smtp-config"))
    view = EvidenceView(make_evidence("SMTP_PORT is missing."))
    result = factor_identified(view, factor, AGENT, _Window(), True)
    assert [named.value for named in result.identifiers] == [True, False]
    assert not result.value


def test_the_reported_pair_lies_inside_the_window() -> None:
    factor = _Factor(required_identifiers=("SMTP_PORT",))
    text = "SMTP_PORT first. Other. It is missing. SMTP_PORT again."
    view = EvidenceView(make_evidence(text))
    result = factor_identified(view, factor, AGENT, _Window("adjacent-sentence", 1), True)
    co = result.cooccurrence
    assert co.identifier_match is not None and co.synonym_match is not None
    assert (co.identifier_match.sentence, co.synonym_match.sentence) == (3, 2)


_words = st.sampled_from(
    ["SMTP_PORT", "smtp_port", "SMTP_PORT_OLD", "x", " ", "  ", "\n", ":", "-"]
)


def _naive_in_scope_count(answer: str, bodies: list[str]) -> int:
    """SI §2.1 and §3.1 by the letter: drop echoed lines, count delimited matches in the rest."""
    count = 0
    for line in answer.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.strip()
        if stripped and any(stripped in body for body in bodies):
            continue
        folded = line.casefold()
        start = folded.find("smtp_port")
        while start != -1:
            before = folded[start - 1 : start]
            after = folded[start + 9 : start + 10]
            if not (before and before in TOKEN_CHARACTERS) and not (
                after and after in TOKEN_CHARACTERS
            ):
                count += 1
            start = folded.find("smtp_port", start + 1)
    return count


@settings(max_examples=300, deadline=None)
@given(
    answer=st.lists(_words, max_size=20).map("".join),
    bodies=st.lists(st.lists(_words, max_size=12).map("".join), max_size=3),
)
def test_in_scope_matches_equal_the_definition(answer: str, bodies: list[str]) -> None:
    result = named_in_output(
        EvidenceView(make_evidence(answer or "-", bodies)), ["SMTP_PORT"], AGENT, True
    )
    assert result.match_count == _naive_in_scope_count(answer or "-", bodies)


def test_a_call_without_a_required_argument_is_an_error_not_a_call(scenario) -> None:  # type: ignore[no-untyped-def]
    # Validation rejects such a table; the evaluator refuses it too rather than call with a gap.
    gap = Row.model_validate(
        {
            "id": 1,
            "when": {"call": "named_in_output", "with": {"channels": ["agent_response"]}},
            "band": "named",
            "score": 1.0,
        }
    )
    otherwise = Row.model_validate({"id": 2, "when": "otherwise", "band": "none", "score": 0.0})
    gapped = bind_scoring(scenario).model_copy(update={"rows": (gap, otherwise)})
    with pytest.raises(ProvebenchError, match="row 1: named_in_output needs identifier_set"):
        evaluate_bound(gapped, scenario, make_evidence("SMTP_PORT"))
