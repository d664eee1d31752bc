"""What the strict reading shares with the ratified one, or keeps from one question to the
next, answers as a fresh computation would, whatever was asked before (issue 41,
"Performance"): over generated answers built from the cue lists, the scenario's identifiers
and deviation phrases.

* A channel locates each span's sentence once (`ChannelText.sentence_containing`): asked in
  any order, and again, it gives what a fresh channel gives for that span alone.
* `ChannelText.holds_any` is a substring test per needle: it says what one alternation of
  every needle said, and False only where neither kind of match finds anything.
* A sentence reads its denial clauses and its clauses' trailing reports from its end, only as
  far back as a phrase asks (`SentenceReading._last_denial_from`, `_reported_after`): every
  phrase's blocking rule is the one a fresh reading gives it alone, and the last denial clause
  and the last trailing report are the ones a reading of every clause finds.
* The strict reading is the same whether the ratified one ran first over the same evidence
  view (the batch's road, `decide_both`) or not, and the batch's row is the full reading's.

The bytes of the strict reading over every stress answer are held by test_strict_snapshot.py;
these properties reach answers no family generates.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import provebench.si
from provebench.si.primitives._assertion import FoldedText, SentenceReading
from provebench.si.primitives._matching import ChannelText
from provebench.si.primitives._normalize import comparison_key
from provebench.si.primitives._scope import EvidenceView
from provebench.si.profile_data._strict_cues import strict_cues
from provebench.si.scenario._binding import bind_scoring
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring._evaluate import Prepared, decide_both, evaluate_bound
from tests.helpers.si_evidence import make_evidence

SCENARIO = load_scenarios(
    str(Path(provebench.si.__file__).parent / "scenarios" / "diagnostic-accuracy.yaml")
)[0]
PREPARED = Prepared(bind_scoring(SCENARIO))
CUES = strict_cues()
COMPILED = CUES.compiled
TOOL_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"


def _cue_phrases() -> list[str]:
    found: set[str] = set()
    for value in CUES.model_dump().values():
        lists = value.values() if isinstance(value, dict) else [value]
        for words in lists:
            if isinstance(words, (list, tuple)):
                found.update(piece.strip() for word in words for piece in str(word).split("…"))
    return sorted(found)


NAMES = ["SMTP_PORT", "smtp_port", "smtp-config", "SMTP_HOST", "report-renderer"]
NAMES += ["notification-service", "node-disk-pressure"]
DEVIATIONS = ["missing", "not set", "absent", "lacks", "wrong value", "extra key", "unset"]
GLUE = [" ", " ", " ", ", ", ". ", "? ", "! ", "\n", " -- ", " - ", ": ", "; ", "(", ")"]
GLUE += ['"', "`", "’", "é", "ı", "is", "the", "key", "Fix: add SMTP_PORT."]
# clause endings the rules read back from a phrase: reports, beliefs, denials, rejections
GLUE += [", I thought,", ", or so the alert claims", " — not,", ", which is false", ", said nobody"]
GLUE += [", dismissing that", ", but I was wrong", "; ruled out"]
WORD = st.one_of(
    st.sampled_from(_cue_phrases()),
    st.sampled_from(_cue_phrases()).map(str.title),
    st.sampled_from(NAMES),
    st.sampled_from(DEVIATIONS),
    st.sampled_from(DEVIATIONS).map(str.upper),
    st.sampled_from(GLUE),
)
ANSWER = st.lists(WORD, min_size=1, max_size=40).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(ANSWER, st.randoms(use_true_random=False))
def test_a_span_is_located_as_a_fresh_channel_locates_it(text: str, order: random.Random) -> None:
    shared = ChannelText("final_answer", text)
    spans = [(start, end) for start in range(len(text)) for end in (start, start + 3)]
    spans = [(start, min(end, len(text))) for start, end in spans]
    order.shuffle(spans)
    for start, end in spans + spans[: len(spans) // 3]:
        fresh = ChannelText("final_answer", text).sentence_containing(start, end)
        assert shared.sentence_containing(start, end) == fresh, (text, start, end)


@settings(max_examples=150, deadline=None)
@given(ANSWER, st.lists(st.sampled_from([*NAMES, *DEVIATIONS, "", "é", "SS"]), max_size=8))
def test_holds_any_says_what_one_alternation_of_the_needles_said(
    text: str, needles: list[str]
) -> None:
    channel = ChannelText("final_answer", text)
    alternation = "|".join(re.escape(comparison_key(needle)) for needle in dict.fromkeys(needles))
    said = re.compile(alternation).search(channel.normalized.key) is not None
    assert channel.holds_any(needles) is said
    if not said:
        assert not channel.synonym_matches(needles)
        assert not [needle for needle in needles if needle] or not channel.identifier_matches(
            [needle for needle in needles if needle]
        )


def _readings(text: str) -> list[tuple[ChannelText, FoldedText, int, int]]:
    channel = ChannelText("final_answer", text)
    folded = FoldedText.of(text)
    return [(channel, folded, s.start, s.end) for s in channel.sentences]


@settings(max_examples=200, deadline=None)
@given(ANSWER, st.randoms(use_true_random=False))
def test_each_phrase_is_blocked_as_a_fresh_reading_blocks_it(
    text: str, order: random.Random
) -> None:
    for _channel, folded, start, end in _readings(text):
        shared = SentenceReading(text, start, end, COMPILED, folded)
        phrases = [(at, min(at + 7, end)) for at in range(start, end, 3)]
        order.shuffle(phrases)
        for phrase_start, phrase_end in phrases:
            fresh = SentenceReading(text, start, end, COMPILED, folded)
            expected = fresh.blocking_rule(phrase_start, phrase_end)
            assert shared.blocking_rule(phrase_start, phrase_end) == expected, (
                text[start:end],
                phrase_start,
            )
        # the last denial clause, read from the end, is the last of every clause read
        every = SentenceReading(text, start, end, COMPILED, folded)
        last = max(
            (
                index
                for index, clause in enumerate(every.clauses)
                if every._aims_back(clause)
                or (every._is_denial(clause) and not every._negates_next(index))
            ),
            default=-1,
        )
        for index in order.sample(range(len(every.clauses)), len(every.clauses)):
            found = SentenceReading(text, start, end, COMPILED, folded)._last_denial_from(index)
            assert found == (last if last >= index else -1), (text[start:end], index)
        # the last report or belief ending a clause, read from the end: the last of every clause
        verbs = [
            found.start()
            for clause in every.clauses
            if (
                found := COMPILED.trailing_report.search(
                    folded.text, max(clause.start, clause.end - 48), clause.end
                )
            )
        ]
        ends = list(range(folded.folded(start), folded.folded(end) + 1))
        order.shuffle(ends)
        for phrase_end in ends:
            assert every._reported_after(phrase_end) is (bool(verbs) and verbs[-1] >= phrase_end)


@settings(max_examples=120, deadline=None)
@given(ANSWER)
def test_the_strict_reading_is_the_same_after_the_ratified_one_or_alone(text: str) -> None:
    evidence = make_evidence(text, [TOOL_BODY])
    verdict = evaluate_bound(PREPARED, SCENARIO, evidence)
    assert verdict.strict is not None
    ratified, strict = decide_both(PREPARED, SCENARIO, evidence)
    assert (ratified.id, strict.id) == (verdict.matched_row.id, verdict.strict.matched_row)
    # over a fresh view, with no call decided before it (it decides what it needs itself)
    row = next(row for row in PREPARED.bound.rows if row.id == verdict.matched_row.id)
    assert PREPARED.strict(SCENARIO, EvidenceView(evidence), row) == verdict.strict
