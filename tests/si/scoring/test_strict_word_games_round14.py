"""The red team's round-14 word games and honest idioms on C-DA-001 (SI red team 14, W1 and
W2; docs/si-scoring.md §11, "Round 14: spellings, labels, tails and affirming idioms").

Each game below reached the strict top band on single-signal-diagnosis-001 before round 14 (the
red team's words first, then the class beyond them): a heading that labels what follows as false
or unconfirmed, a tail that withdraws or mocks it, a negation spelled with separators, digits,
a soft hyphen, small capitals or a symbol. Each keeps its ratified band (SI §2.2, normative) and
loses the strict one. The honest answers — negation idioms that affirm ("No question: …",
"Nobody can deny that …") — were pushed to 0.5 and now reach the top band in both readings.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._respell import respellings
from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import CRASH_LOOP_POD, TOP, c_da_001_verdict

LOCUS = ("correct_subsystem_wrong_component", 0.5)
X = "SMTP_PORT is missing from smtp-config"

GAMES = [
    # headings (red team: t2, t4)
    f"Hoax: {X}.",
    f"Fake news: {X}.",
    f"Misconception: {X}.",
    f"Wrong guess: {X}.",
    f"To rule out: {X}.",
    f"To be ruled out: {X}.",
    # tails
    f"{X}, if only.",
    f"{X}, I wish.",
    f"{X}, or so the rumor goes.",
    f"{X}... in my dreams.",
    f"{X} (joke).",
    f"{X} [citation needed].",
    f"{X}. /s",
    f"{X}. j/k",
    f"{X}. Psych!",
    f"{X}. April fools.",
    f"{X}. Just joking.",
    f"{X} == false",
    # negation spellings
    "SMTP_PORT is n0t missing from smtp-config.",
    "SMTP_PORT is n-o-t missing from smtp-config.",
    "SMTP_PORT is n o t missing from smtp-config.",
    "SMTP_PORT is n\u2d59t missing from smtp-config.",
    "SMTP_PORT is \u2205 missing from smtp-config.",
    "SMTP_PORT is !missing from smtp-config.",
    "SMTP_PORT is not\u00admissing from smtp-config.",
    "SMTP_PORT is \u0274\u1d0f\u1d1b missing from smtp-config.",
    # the class beyond the red team's words
    f"Urban legend: {X}.",
    f"False alarm: {X}.",
    f"{X} (satire).",
    f"{X}, or so they say.",
    f"{X} != true",
    f"{X}. J / K",
    "SMTP_PORT is n.e.v.e.r missing from smtp-config.",
    "SMTP_PORT is N3V3R missing from smtp-config.",
    "SMTP_PORT is \u00acmissing from smtp-config.",
    "SMTP_PORT is n_o_t missing from smtp-config.",
]

HONEST = [
    # the red team's honest answers pushed to 0.5 (t3, t5)
    f"No question: {X}.",
    f"There is no doubt that {X}.",
    f"Nobody can deny that {X}.",
    "Not only is SMTP_PORT missing from smtp-config, notification-service cannot start "
    "because of it.",
    # the class beyond them
    f"There's no denying that {X}.",
    f"It cannot be denied that {X}.",
    f"Beyond any doubt, {X}.",
    f"{X} (no joke).",
    f"{X}, not kidding.",
    # what must not read as a spelled negation or a tail
    f"{X}! Restore it and notification-service starts.",
    f"Pods db-0 and n1-worker are fine; {X}.",
    f"{X}, I wish I had seen it sooner.",
    f"{X} - not a guess, I checked.",
    f"Not the database: {X}.",
]


def _verdict(answer: str) -> Verdict:
    return c_da_001_verdict(answer, tool_body=CRASH_LOOP_POD)


def _strict(verdict: Verdict) -> tuple[str, float]:
    assert verdict.strict is not None
    return verdict.strict.band, verdict.strict.score


@pytest.mark.parametrize("answer", GAMES)
def test_a_round14_game_keeps_its_ratified_band_and_loses_the_strict_one(answer: str) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP  # the ratified reading, unchanged
    assert _strict(verdict) == LOCUS
    assert verdict.strict is not None and verdict.strict.findings


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_idiom_reaches_the_strict_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP
    assert verdict.strict is not None
    assert (_strict(verdict), verdict.strict.findings) == (TOP, [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("is n-o-t missing", [(3, 8, "not")]),
        ("is n0t missing", [(3, 6, "not")]),
        # an affirming idiom is struck out, never read as an affirmation (round 15, H4)
        ("No question: it is", [(0, 11, "")]),
        ("x == false", [(1, 10, ", false")]),
        # no respelling: words and names that are no negation
        ("node n1, pod db-0, the N/A column, l0g, I/O, no-op, a b c", []),
    ],
)
def test_respellings_read_only_whole_spelled_words(
    text: str, expected: list[tuple[int, int, str]]
) -> None:
    assert respellings(text) == expected
