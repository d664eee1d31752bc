"""The red team's round-15 word games on C-DA-001 (SI red team 15, H4; docs/si-scoring.md §11,
"Round 15: labels, tails and retractions that disown").

Each game below reached the strict top band on single-signal-diagnosis-001 before round 15 (the
review's words first, then the class beyond them): a label that disowns the finding hidden
behind an idiom that affirms ("No doubt a wrong guess:" was respelled "indeed a wrong guess:"),
a label or a tail built from the class's grammar rather than a listed word, a sentence after the
finding that disowns it. Each keeps its ratified band (SI §2.2, normative) and loses the strict
one. The honest answers hold the same words said of something else, a quoted log line with a
code operator, an idiom that affirms: each keeps the top band in both readings.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._disowning import (
    disowning_label,
    disowning_sentence,
    disowning_tails,
    tail_over,
)
from provebench.si.primitives._respell import respellings
from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import CRASH_LOOP_POD, TOP, c_da_001_verdict

LOCUS = ("correct_subsystem_wrong_component", 0.5)
X = "SMTP_PORT is missing from smtp-config"
Y = "SMTP_PORT is missing in smtp-config"

# (answer, the rule that withholds it): struck out, an affirming idiom leaves its label to the
# older `framed` rule; the new grammar (`negating_context`, `retracted_after`) reads the rest
# where no older rule does
GAMES = [
    # the review's words: a label behind an idiom that affirms
    (f"Not only is that false, {X}.", "negating_context"),
    (f"No doubt a wrong guess: {X}.", "framed"),
    # labels of the class (a head, a claim noun, words with no content)
    (f"Rejected hypothesis: {Y}.", "governed"),
    (f"Ruled-out theory: {Y}.", "negating_context"),
    (f"Discarded lead: {Y}.", "negating_context"),
    (f"Unrelated: {Y}.", "negating_context"),
    (f"Decoy — {Y}.", "negating_context"),
    (f"Hypothesis (rejected): {Y}.", "governed"),
    (f"Without a doubt false: {Y}.", "framed"),
    (f"Undeniably a myth: {Y}.", "framed"),
    # tails
    (f"{Y} (not the case).", "retracted_after"),
    (f"{Y} — a myth.", "retracted_after"),
    (f"{Y} (rejected).", "retracted_after"),
    (f"{Y}: debunked.", "negated"),
    (f"{Y}, a red herring.", "retracted_after"),
    (f"{Y} [disproven]", "negated"),
    # the next sentence, and the one after it when it names what was said
    (f"{Y}. It isn't.", "retracted_after"),
    (f"{Y}. Actually no, it is not.", "retracted_after"),
    (f"{Y}. None of that is true.", "retracted_after"),
    (f"{Y}. That's a lie.", "retracted_after"),
    (f"{Y}. Verdict: rejected.", "retracted_after"),
    (f"{Y}. Logs are noisy. None of the above is true.", "retracted_after"),
    (f"{Y}. Restart the pod. Everything I said is false.", "negated"),
]

HONEST = [
    # a quoted log line whose operator is code, not the answer's denial (the review's case)
    f"{X}: the log says `smtp_ready != true`.",
    f'{X}, and the pod log shows "configured != true".',
    f"{X} (log: `healthy == false`).",
    # the class's words said of something else
    f"The disk alert is a red herring: {X}.",
    f"{X} — not a guess: I read smtp-config.",
    f"{X} (confirmed).",
    f"{X}. The CPU spike is unrelated.",
    f"{X}. It is not optional.",
    f"{X}. My first guess, the disk, was wrong.",
    f"Wrong value or missing key? {X}.",
    # idioms that affirm, struck out: what is left is the statement
    "Not only is SMTP_PORT missing from smtp-config, notification-service cannot start "
    "because of it.",
    f"No doubt: {X}.",
    f"There is no doubt that {X}.",
]


def _verdict(answer: str) -> Verdict:
    return c_da_001_verdict(answer, tool_body=CRASH_LOOP_POD)


@pytest.mark.parametrize(("answer", "rule"), GAMES)
def test_a_round15_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP  # the ratified reading, unchanged
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.score) == LOCUS
    assert rule in [finding.rule for finding in verdict.strict.findings], verdict.strict.findings


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_answer_with_the_class_words_reaches_the_strict_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP
    assert verdict.strict is not None
    assert ((verdict.strict.band, verdict.strict.score), verdict.strict.findings) == (TOP, [])


def test_an_affirming_idiom_is_struck_out_not_respelled_as_an_affirmation() -> None:
    assert respellings("No doubt a wrong guess: x") == [(0, 8, "")]
    assert respellings("Not only is that false, x") == [(0, 11, "")]


@pytest.mark.parametrize(
    ("text", "respelled"),
    [
        # the operator with its operand inside a quotation or code span: code, not a denial
        ("x is missing: `ready != true`.", False),
        ('x is missing: "ready == false".', False),
        ("x is missing: \u201cready != true\u201d.", False),
        # a span that holds nothing but the operator denies what precedes it
        ("x is missing `!= true`", True),
        ("x is missing != true", True),
        # an unclosed quote is no span
        ("x is missing: `ready != true", True),
    ],
)
def test_a_code_tail_is_read_as_a_denial_only_outside_a_quoted_expression(
    text: str, respelled: bool
) -> None:
    assert any(word == ", false" for _start, _end, word in respellings(text)) is respelled


def test_a_verdict_is_read_only_as_a_whole_label_tail_or_sentence() -> None:
    said = "X is missing in c"
    # a label must be nothing but the verdict: a deviation or a subject of its own is not one
    for label, disowns in [
        ("Myth: ", True),
        ("Wrong value: ", False),
        ("The disk alert is a red herring: ", False),
        ("Root cause: ", False),
        ("Not the database: ", False),
    ]:
        text = label + said + "."
        assert (disowning_label(text, 0, len(text)) is not None) is disowns
    # a label governs up to a clause boundary of its own
    text = "Myth: the disk is full; X is missing in c."
    governed = disowning_label(text, 0, len(text))
    assert governed is not None and governed[0] == text.index(";")
    # a tail must end the sentence
    for tail, disowns in [(" — false.", True), (", which is unrelated to the disk.", False)]:
        text = said + tail
        start = text.index("missing")
        tails = disowning_tails(text, 0, len(text))
        assert (tail_over(text, 0, tails, start, start + 7) is not None) is disowns
    # a later sentence must name what was said; the next one may be a bare denial of "it"
    assert disowning_sentence("It isn't.", 0, 9, next_one=True) is not None
    assert disowning_sentence("It isn't.", 0, 9, next_one=False) is None
    assert disowning_sentence("It isn't optional.", 0, 18, next_one=True) is None


def test_a_long_sentence_of_labelled_and_tailed_phrases_is_read_in_linear_time() -> None:
    # each sentence's label, tails and verdicts are read once, whatever its phrases: the count
    # of tail matches grows with the boundaries, not with boundaries times phrases
    from provebench.si.primitives import _disowning

    calls = 0
    real = _disowning._TAIL

    class Counting:
        def match(self, *args: object) -> object:
            nonlocal calls
            calls += 1
            return real.match(*args)  # type: ignore[arg-type]

    answer = ", ".join([Y] * 200) + " (not the case)."
    _disowning._TAIL = Counting()  # type: ignore[assignment]
    try:
        verdict = _verdict(answer)
    finally:
        _disowning._TAIL = real
    assert verdict.strict is not None and verdict.strict.score == LOCUS[1]
    assert 0 < calls <= 2 * 201
