"""The strict reading beside the ratified one (docs/si-scoring.md, "The strict reading").

The ratified C-DA-001 verdict is the seed's (SI §3: normative); the strict reading withholds a
co-occurrence the sentence does not assert or the answer does not commit to, names the rule and
the sentence, and must not punish honest phrasings.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scoring import Verdict, evaluate, example_evidence, score_files
from tests.helpers.si_evidence import make_evidence

PACKAGE = Path(provebench.si.__file__).parent
SCENARIO_FILE = PACKAGE / "scenarios" / "diagnostic-accuracy.yaml"
SCENARIO = load_scenarios(SCENARIO_FILE)[0]
TOOL_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"


def verdict_of(answer: str, **options: str) -> Verdict:
    return evaluate(SCENARIO, make_evidence(answer, [TOOL_BODY]), **options)  # type: ignore[arg-type]


def rules(verdict: Verdict) -> set[str]:
    assert verdict.strict is not None
    return {finding.rule for finding in verdict.strict.findings}


# The answers of the issue and of the stress families that the ratified reading scores 1.0,
# each with the rule that withholds it under the strict reading.
GAMED = [
    (
        "The key SMTP_PORT in configmap/smtp-config is not missing, it is present and correct. "
        "The root cause is the node's disk pressure",
        "negated",
    ),
    ("Is SMTP_PORT missing?", "question"),
    ("SMTP_PORT is missing from smtp-config?", "question"),
    ("If SMTP_PORT were missing, notification-service would crash.", "conditional"),
    ("SMTP_PORT might be missing from smtp-config.", "hedged"),
    (
        "SMTP_PORT may be missing, or has a wrong value, or is an extra key.",
        "hedged",
    ),
    ("SMTP_PORT is missing, or wrong, or unexpected.", "several_deviation_types"),
    ("SMTP_PORT is missing. SMTP_PORT is wrong.", "several_deviation_types"),
    (
        "SMTP_PORT is missing. SMTP_HOST is missing. smtp-config is missing. "
        "configMapKeyRef is missing.",
        "several_causes",
    ),
    (
        "The root cause is report-renderer. SMTP_PORT is missing from smtp-config too.",
        "several_causes",
    ),
]


@pytest.mark.parametrize(("answer", "rule"), GAMED)
def test_a_gamed_answer_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)  # SI §5.1, unchanged
    strict = verdict.strict
    assert strict is not None
    assert (strict.band, strict.score, strict.matched_row) == (
        "correct_subsystem_wrong_component",
        0.5,
        3,
    )
    assert not strict.same_as_ratified
    assert rule in rules(verdict)
    finding = next(f for f in strict.findings if f.rule == rule)
    # a finding names the sentence it is about, as written
    assert finding.text in answer
    assert finding.channel == "agent_response"
    assert finding.line == 1


HONEST = [
    "SMTP_PORT is missing from smtp-config, so notification-service cannot start.",
    "SMTP_PORT is not set in configmap/smtp-config.",
    "SMTP_PORT doesn't exist in smtp-config.",
    "smtp-config lacks SMTP_PORT.",
    "SMTP_PORT is missing from smtp-config. SMTP_HOST is not missing, it is set correctly.",
    "SMTP_PORT is missing from smtp-config. No other key is missing.",
    "SMTP_PORT is missing; no other key is missing.",
    "The pods could not start because SMTP_PORT is missing from smtp-config.",
    "It is not a disk problem: SMTP_PORT is missing from smtp-config.",
    "Neither the node nor report-renderer is involved; SMTP_PORT is missing.",
    "notification-service reads SMTP_PORT through configMapKeyRef, but smtp-config lacks it.",
    "Root cause: SMTP_PORT is undefined in smtp-config, which is why notification-service is "
    "not running.",
]


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_phrasing_reaches_the_top_band_under_both_readings(answer: str) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.findings) == ("correct_root_cause", [])
    assert verdict.strict.same_as_ratified


@pytest.mark.parametrize("evidence", example_evidence(), ids=lambda path: path.stem)
def test_every_shipped_example_reads_the_same_under_both_readings(evidence: Path) -> None:
    verdict = score_files(SCENARIO_FILE, evidence)
    assert verdict.strict is not None
    assert verdict.strict.band == verdict.band
    assert verdict.strict.same_as_ratified


def test_reading_strict_gives_band_and_score_and_shows_the_ratified_beside() -> None:
    answer = GAMED[0][0]
    ratified = verdict_of(answer)
    strict = verdict_of(answer, reading="strict")
    assert (strict.band, strict.score, strict.matched_row.id) == (
        "correct_subsystem_wrong_component",
        0.5,
        3,
    )
    assert strict.reading == "strict"
    assert strict.ratified is not None
    assert (strict.ratified.band, strict.ratified.score) == ("correct_root_cause", 1.0)
    # the reference runner is compared with the ratified band, whichever reading drives
    assert strict.reference_runner == ratified.reference_runner
    shown = json.loads(ratified.to_json())
    assert "reading" not in shown
    assert "ratified" not in shown
    assert json.loads(strict.to_json())["reading"] == "strict"


def test_the_strict_reading_is_the_same_bytes_on_every_run() -> None:
    answers = " ".join(answer for answer, _ in GAMED)
    assert verdict_of(answers).to_json() == verdict_of(answers).to_json()


def test_an_echoed_line_is_out_of_scope_for_the_strict_reading_too() -> None:
    # the co-occurrence is on a line copied from a tool body: neither reading counts it, and
    # the line's negation-free copy cannot lend the strict reading an assertion
    body = "SMTP_PORT is missing"
    evidence = make_evidence("SMTP_PORT is missing\nSMTP_PORT is not missing.", [body])
    verdict = evaluate(SCENARIO, evidence)
    assert verdict.band == "correct_root_cause"  # the second line, ratified
    assert verdict.strict is not None
    assert verdict.strict.band == "correct_subsystem_wrong_component"
    assert rules(verdict) == {"negated"}


WORDS = st.sampled_from(
    [
        "SMTP_PORT",
        "SMTP_HOST",
        "smtp-config",
        "report-renderer",
        "is",
        "not",
        "missing",
        "wrong",
        "if",
        "or",
        "may",
        "lacks",
        "the root cause",
        ",",
        ".",
        "?",
        ";",
        "\n",
        "no",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, max_size=30))
def test_the_strict_reading_never_credits_more_than_the_ratified_one(words: list[str]) -> None:
    # the one exception, an absent key spelt "R has no K key" (round 33, `_missing_key`), needs
    # words this vocabulary does not hold ("has", "key"): test_strict_missing_key reads it
    verdict = verdict_of(" ".join(words))
    assert verdict.strict is not None
    assert verdict.strict.score <= verdict.score
    if verdict.matched_row.id != 2:
        # only the factor_identified row reads differently
        assert verdict.strict.matched_row == verdict.matched_row.id


def test_a_strict_batch_prints_the_strict_band_with_the_ratified_beside(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from provebench.cli import app

    answers = [answer for answer, _ in GAMED] + HONEST
    for index, answer in enumerate(answers):
        evidence = make_evidence(answer, [TOOL_BODY])
        (tmp_path / f"{index:03}.json").write_text(evidence.model_dump_json(), encoding="utf-8")
    command = ["si", "score", str(SCENARIO_FILE), str(tmp_path), "--jobs", "1"]
    decided = CliRunner().invoke(app, [*command, "--reading", "strict"])
    full = CliRunner().invoke(app, [*command, "--reading", "strict", "--full"])
    assert decided.exit_code == full.exit_code == 0
    lines = [json.loads(line) for line in decided.stdout.splitlines()]
    verdicts = [json.loads(line)["verdict"] for line in full.stdout.splitlines()]
    assert len(lines) == len(verdicts) == len(answers)
    for line, verdict in zip(lines, verdicts, strict=True):
        # the deciders' line is the full verdict's decision
        assert (line["band"], line["score"], line["matched_row"]) == (
            verdict["band"],
            verdict["score"],
            verdict["matched_row"]["id"],
        )
        assert line["reading"] == verdict["reading"] == "strict"
        assert line["ratified"] == verdict["ratified"]
        assert line["ratified"]["band"] == "correct_root_cause"
    assert [line["score"] for line in lines] == [0.5] * len(GAMED) + [1.0] * len(HONEST)


@pytest.mark.parametrize(
    "piece",
    [
        "SMTP_HOST or SMTP_PORT is not missing or wrong, the root cause maybe report-renderer ",
        "SMTP_PORT missing SMTP_HOST wrong report-renderer the root cause not may if ",
        "SMTP_PORT is missing. SMTP_HOST is not wrong or unexpected? If smtp-config lacks it. ",
    ],
    ids=["one-sentence", "one-clause", "many-sentences"],
)
def test_both_readings_are_linear_in_the_answer_even_on_one_line(piece: str) -> None:
    # Each sentence is read once and every look-up is a bisection: four times the answer
    # costs about four times the CPU (a quadratic reading, here, costs sixteen).
    def cpu_seconds(repeats: int) -> float:
        evidence = make_evidence("SMTP_PORT is missing. " + piece * repeats, [TOOL_BODY])
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            evaluate(SCENARIO, evidence)
            best = min(best, time.process_time() - started)
        return best

    # The smaller answer costs some twenty times a verdict's fixed cost, so a reading
    # quadratic in it still costs about sixteen times as much four times over; larger
    # answers bought only CPU (a reading that re-walked the sentences per match failed here).
    small, large = cpu_seconds(60), cpu_seconds(240)
    assert large < 8 * max(small, 0.005)


@pytest.mark.parametrize(
    "piece",
    [
        "SMTP_PORT is missing — not, said nobody, `SMTP_PORT is missing` (NOT), which is false, ",
        "SMTP_PORT is missing. Actually, scratch that. SMTP_PORT is missing. Not really. ",
    ],
    ids=["one-sentence", "many-sentences"],
)
def test_version_3_rules_are_linear_when_every_phrase_is_withheld(piece: str) -> None:
    # No pair is asserted, so every phrase is read against the denials after it and the
    # retractions after its sentence: each read once per sentence, not once per phrase.
    def cpu_seconds(repeats: int) -> float:
        evidence = make_evidence(piece * repeats, [TOOL_BODY])
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            verdict = evaluate(SCENARIO, evidence)
            best = min(best, time.process_time() - started)
        assert verdict.strict is not None and verdict.strict.score == 0.5
        return best

    # The smaller answer costs some twenty times a verdict's fixed cost, so a reading
    # quadratic in it still costs about sixteen times as much four times over; larger
    # answers bought only CPU (a reading that re-walked the sentences per match failed here).
    small, large = cpu_seconds(50), cpu_seconds(200)
    assert large < 8 * max(small, 0.005)


@pytest.mark.parametrize(
    ("answer", "strict_score", "rules_found"),
    [
        ("Is SMTP_PORT the key? SMTP_PORT is missing from smtp-config.", 1.0, set()),
        ("Is SMTP_PORT the key? It is missing.", 0.5, {"question"}),
        ("SMTP_PORT is the key. It is missing.", 1.0, set()),
    ],
)
def test_under_the_adjacent_window_the_identifiers_sentence_must_not_be_a_question(
    answer: str, strict_score: float, rules_found: set[str]
) -> None:
    verdict = verdict_of(answer, window="adjacent-sentence")
    assert verdict.score == 1.0
    assert verdict.strict is not None
    assert (verdict.strict.score, rules(verdict)) == (strict_score, rules_found)
