"""The cue tests that skip a strict-reading scan (`_cue_presence`): they may say "could" of a
scan that finds nothing, never "cannot" of one that finds something; and the patterns they
choose find what the full patterns find."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from provebench.si.primitives._assertion import AssertionCues, SentenceReading
from provebench.si.primitives._cue_presence import (
    _ASCII_LOOK_ALIKES,
    CueTest,
    Vocabulary,
    could_match,
)
from provebench.si.primitives._markup import _may_hold_markup, read_markup
from provebench.si.profile_data._strict_cues import strict_cues

CUES = strict_cues()
COMPILED = CUES.compiled


def _phrases() -> list[str]:
    """Every cue phrase of the lists, each side of a `first … second` pair on its own."""
    found: list[str] = []
    for value in CUES.model_dump().values():
        lists = value.values() if isinstance(value, dict) else [value]
        for words in lists:
            if isinstance(words, (list, tuple)):
                found += [piece.strip() for word in words for piece in str(word).split("…")]
    return sorted(set(found))


PHRASES = _phrases()
# what sits around cue words in an answer, and what a cue's letters may look like: case,
# a word cut by `--`, characters beyond ASCII that do and do not match an ASCII letter
GLUE = [" ", "  ", "\n", ". ", ", ", "? ", "--", "-", "'", "’", "_", "é", "ı", "İ", "ſ", "K"]
GLUE += ["SMTP_PORT", "missing", "x", "7", ":", "(", ")", '"', "`"]
PIECE = st.one_of(
    st.sampled_from(PHRASES),
    st.sampled_from(PHRASES).map(str.upper),
    st.sampled_from(PHRASES).map(str.title),
    # a cue spelled with look-alikes that match its letters case-insensitively
    st.sampled_from(PHRASES).map(lambda phrase: phrase.replace("i", "ı").replace("s", "ſ")),
    st.sampled_from(GLUE),
)
TEXT = st.lists(PIECE, max_size=24).map("".join)


def _tested(cues: AssertionCues) -> Iterator[tuple[str, re.Pattern[str], CueTest]]:
    """Each scanned pattern of the reading with the test that may skip its scan."""
    tests, games = cues.tests, cues.games
    assert tests is not None and games is not None and games.tests is not None
    yield "cause", cues.cause, tests.cause
    yield "hedge_preface", cues.hedge_preface, tests.hedge_preface
    yield "scope_only", cues.scope_only, tests.scope_only
    yield "framing_preface", cues.framing_preface, tests.framing_preface
    yield "denial_report", cues.denial_report, tests.denial_report
    yield "truth_denial_at_end", cues.truth_denial_at_end, tests.truth_denials
    yield "contrastive_cause", cues.contrastive_cause, tests.contrastive_cause
    yield "cause_reference", cues.cause_reference, tests.cause_reference
    for name in (
        "governing_before",
        "governing_after",
        "governing_sentence",
        "anaphora",
        "contradiction_subjects",
        "contradiction_modals",
    ):
        yield name, getattr(games, name), getattr(games.tests, name)
    for at, (opening, closing) in enumerate(games.governing_around):
        pair = games.tests.governing_around[at]
        yield f"around {at} opening", opening, pair[0]
        yield f"around {at} opening (any pair)", opening, games.tests.around_openings
        yield f"around {at} closing", closing, pair[1]
    for kind, pattern in games.antonyms.items():
        yield f"antonyms {kind}", pattern, games.tests.antonyms[kind]
    assert cues.non_answer is not None and cues.non_answer.test is not None
    yield "non_answer", cues.non_answer.pattern, cues.non_answer.test


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_a_test_never_rules_out_a_scan_that_finds_something(text: str) -> None:
    vocabulary = Vocabulary.of(text)
    for name, pattern, test in _tested(COMPILED):
        if pattern.search(text) is not None:
            assert could_match(vocabulary, test), (name, text)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_the_chosen_sentence_pattern_finds_what_the_full_one_finds(text: str) -> None:
    vocabulary = Vocabulary.of(text)
    if vocabulary is None:
        return
    chosen = COMPILED.sentence_pattern(vocabulary)
    full = [(found.span(), found.lastgroup) for found in COMPILED.sentence.finditer(text)]
    assert [(found.span(), found.lastgroup) for found in chosen.finditer(text)] == full


def test_the_tests_skip_scans_of_an_answer_that_holds_no_cue() -> None:
    # the reason they exist: a plain diagnosis holds none of most lists
    vocabulary = Vocabulary.of("The ConfigMap smtp-config is missing the SMTP_PORT key.")
    skipped = [name for name, _, test in _tested(COMPILED) if not could_match(vocabulary, test)]
    assert {"cause", "hedge_preface", "governing_before", "non_answer"} <= set(skipped)
    assert COMPILED.sentence_pattern(vocabulary) is not COMPILED.sentence


def test_a_test_says_could_where_it_cannot_decide() -> None:
    dotless = "Is SMTP_PORT mıssing? ıt might be."  # "ı" matches "i" case-insensitively
    assert Vocabulary.of(dotless) is None
    assert could_match(None, CueTest(["never seen"]))
    assert CueTest([]).decide(Vocabulary("anything"))  # an empty list is left to its pattern
    wide = Vocabulary("Résumé: the key doesn’t exist")
    assert wide.could_match(CueTest(["doesn’t"]))
    assert not wide.could_match(CueTest(["does not"]))
    assert wide.could_match(CueTest(["naïve"]))  # a cue beyond ASCII: undecided there
    assert not Vocabulary("plain").could_match(CueTest(["naïve"]))  # never matches ASCII


def test_a_scan_of_a_clause_cut_inside_a_word_is_not_judged() -> None:
    # "--" is a clause boundary: "if--maybe" makes clauses ending and starting inside a word,
    # whose pieces ("if", "maybe") are no words of the answer
    text = "SMTP_PORT is missing if--maybe."
    reading = SentenceReading(text, 0, len(text), COMPILED)
    assert reading.clauses[0].end == text.index("--")
    assert reading._judging() is None
    whole = "SMTP_PORT is missing if, maybe."
    assert SentenceReading(whole, 0, len(whole), COMPILED)._judging() is not None


def test_the_look_alikes_are_every_character_that_matches_or_maps_to_ascii() -> None:
    letters = re.compile("[a-z0-9_]", re.IGNORECASE)
    found = set()
    for code in range(128, 0x30000):
        character = chr(code)
        if letters.fullmatch(character) or any(
            ord(mapped) < 128 for mapped in character.lower() + character.upper()
        ):
            found.add(character)
    assert found == _ASCII_LOOK_ALIKES


def test_without_tests_the_reading_scans_as_before() -> None:
    # cues compiled by hand (no tests) are always scanned: nothing is skipped on a guess
    bare = dataclasses.replace(COMPILED, tests=None)
    assert bare.sentence_pattern(Vocabulary("plain words")) is COMPILED.sentence
    reading = SentenceReading("SMTP_PORT is missing.", 0, 21, bare)
    assert reading._could_match("cause")


MARKUP_ALPHABET = st.sampled_from([*"ab1 _\t\n\r-+.)9<*é_Ω#>[`~", "    ", "SMTP_PORT"])


@settings(max_examples=500, deadline=None)
@given(st.lists(MARKUP_ALPHABET, max_size=16).map("".join))
def test_the_markup_check_finds_what_one_pattern_found(text: str) -> None:
    # `_may_hold_markup` splits the former single pattern so that each part skips ahead
    former = re.compile(
        r"[<~*`\[#>]|(?<![^\W_])_|_(?![^\W_])|^[ \t]*(?:[-+]|\d{1,9}[.)])[ \t]|^(?: {4}|\t)", re.M
    )
    if former.search(text) is None:
        assert read_markup(text).text == text and read_markup(text).dropped == ()
    assert _may_hold_markup(text) == (former.search(text) is not None)
