"""A cue of a governing clause frames the cause its subordinate clause gives (SI red team 19,
H1; docs/si-scoring.md §11, "Round 19: a main clause's cue covers its subordinate clauses").

The strict reading looked for a negation, hedge or belief only in the factor's own clause, so
"It is not true that the pods crash because X is missing" reached the top band: the negation
is in the main clause, the factor in the `because` clause. Each answer in `RED_TEAM` reached
the strict top band at the attacked commit (a5_words); `VARIANTS` are the same class in other
shapes. Each keeps its ratified band (SI §2.2, normative) and loses the strict one. `HONEST`
answers put a negation, an affirming idiom or a verb of having checked in the same places and
keep the top band in both readings.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._assertion import SentenceReading
from provebench.si.profile_data._strict_cues import strict_cues
from provebench.si.scoring import Verdict
from provebench.si.scoring._strict import Reading
from tests.helpers.strict_verdicts import (
    TOP,
    assert_game_loses_the_strict_top_band,
    assert_honest_keeps_the_top_band,
    c_da_001_verdict,
)

X = "the ConfigMap smtp-config is missing the SMTP_PORT key"
F = f"the notification-service pods crash because {X}"

RED_TEAM = [
    f"It is not true that {F}.",
    f"It is false that {F}.",
    f"Nobody should conclude that {F}.",
    f"Nobody believes that {F}.",
    f"It would be wrong to say that {F}.",
    f"It is far from certain that {F}.",
    f"I doubt that {F}.",
    f"I deny that {F}.",
    f"I cannot confirm that {F}.",
    f"It is unlikely that {F}.",
    f"There is no evidence that {F}.",
    f"The logs disproved the idea that {F}.",
    f"Maybe {F}.",
    f"Perhaps {F}.",
    f"The notification-service pods crash, but not because {X}.",
]

VARIANTS = [
    # no complementiser, a report or a belief after the negation
    f"Nobody says {F}.",
    f"I would not say {F}.",
    f"I don't think {F}.",
    # a comma before the clause word, `since` and `as`, a chain of causes
    f"It is not true that the notification-service pods crash, because {X}.",
    f"Perhaps the notification-service pods crash since {X}.",
    f"Possibly the notification-service pods crash as {X}.",
    f"Maybe the notification-service pods crash because the app exits since {X}.",
    # a parenthetical between the governing clause and the cause
    f"Maybe the notification-service pods crash (see the events) because {X}.",
    # a sibling cause under the same negation
    f"It is not true that the notification-service pods crash because of the disk and because {X}.",
    # the clause that "not because" negates, wherever it stands
    f"The notification-service pods crash, although not because {X}.",
    f"It's not because {X} that the notification-service pods crash.",
    f"Not because {X} do the notification-service pods crash.",
]

HONEST = [
    f"{F[0].upper()}{F[1:]}.",
    f"It is true that {F}.",
    f"There is no doubt that {F}.",
    f"Not the disk: {F}.",
    f"The disk is not the cause; {F}.",
    f"I verified that {F}.",
    f"Nobody says the disk is full; because {X}, the notification-service pods crash.",
    # a negation of the effect the cause explains, a past modal negated
    f"The notification-service pods cannot start because {X}.",
    f"The notification-service pods could not start because {X}.",
    f"The notification-service pods do not become ready, since {X}.",
    f"The logs show that the notification-service pods do not start because {X}.",
    # "not because" negates only the clause right after it
    f"The notification-service pods crash not because of the disk but because {X}.",
    f"The notification-service pods crash, not because of the disk, but because {X}.",
    f"It's not because of the disk that the notification-service pods crash; it's because {X}.",
    f"The notification-service pods crash because the app exits since {X}.",
]


def _verdict(answer: str, reading: Reading = "strict") -> Verdict:
    return c_da_001_verdict(answer, reading)


@pytest.mark.parametrize("answer", RED_TEAM + VARIANTS)
def test_a_cue_of_the_governing_clause_withholds_the_cause(answer: str) -> None:
    verdict = _verdict(answer)
    assert_game_loses_the_strict_top_band(verdict)


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_governing_clause_keeps_the_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert_honest_keeps_the_top_band(verdict)
    ratified = _verdict(answer, "ratified")
    assert (ratified.band, ratified.score) == TOP


def _reading(sentence: str) -> SentenceReading:
    return SentenceReading(sentence, 0, len(sentence), strict_cues().compiled)


@pytest.mark.parametrize(
    ("sentence", "rule"),
    [
        (f"It is not true that {F}.", "negated"),
        (f"Maybe {F}.", "hedged"),
        (f"I think {F}.", "attributed"),
        (f"The pods crash, but not because {X}.", "negated"),
        (f"The pods cannot start because {X}.", None),
        (f"The pods crash not because of the disk but because {X}.", None),
        (f"Not the disk: {F}.", None),
    ],
)
def test_the_rule_names_the_governing_cue(sentence: str, rule: str | None) -> None:
    reading = _reading(sentence)
    assert reading.blocking_rule(sentence.index("missing"), sentence.index("missing") + 7) == rule


def _governing(sentence: str, word: str = "missing") -> list[str]:
    reading = _reading(sentence)
    found: list[str] = []
    governor = reading.governor(reading.clause_index(sentence.index(word)))
    while governor is not None:
        clause = reading.clauses[governor]
        found.append(sentence[clause.start : clause.end].strip())
        governor = reading.governor(governor)
    return found


def test_the_governing_clauses_are_read_by_clause_structure() -> None:
    chained = f"Maybe the pods crash (see the events) because the app exits since {X}."
    assert _governing(chained) == ["the app exits", "Maybe the pods crash"]
    # a statement mark ends what the clause before governs
    assert _governing(f"Maybe not: {F}.") == ["the notification-service pods crash"]
    assert _governing(f"Maybe not; because {X}, the pods crash.") == []
    # a coordinated `because` is the sibling of the one before it, governed by the same clause
    sibling = f"The pods crash not because of the disk but because {X}."
    assert _governing(sibling) == ["The pods crash not"]


def test_a_long_chain_of_causes_is_read_without_recursion() -> None:
    # each clause governs the next: a recursive walk would pass Python's recursion limit
    chain = " because ".join(["the pods crash"] * 3000)
    sentence = f"Maybe {chain} because {X}."
    reading = _reading(sentence)
    start = sentence.index("missing")
    assert reading.blocking_rule(start, start + 7) == "hedged"


def test_a_doubt_over_a_long_chain_of_causes_withholds_the_last() -> None:
    chain = " because ".join(["the notification-service pods crash"] * 3000)
    verdict = _verdict(f"I doubt that {chain} because {X}.")
    assert (verdict.band, verdict.score) != TOP
