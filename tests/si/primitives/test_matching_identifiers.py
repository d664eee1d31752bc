"""SI §3.1 identifier matching, §3.2 sentence splitting, §3.3 synonym matching."""

from __future__ import annotations

import random
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.si.primitives import (
    TOKEN_CHARACTERS,
    ChannelText,
    normalize,
    validate_identifier,
    validate_identifier_set,
)


def names(text: str, identifier: str) -> list[tuple[int, int, str]]:
    channel = ChannelText("agent_response", text)
    return [
        (span.line, span.column, text[span.start : span.end])
        for span in channel.identifier_matches([identifier])
    ]


def test_lower_case_identifier_matches_upper_case_text() -> None:
    assert names("the SMTP_PORT key", "smtp_port") == [(1, 5, "SMTP_PORT")]


def test_longer_token_does_not_match() -> None:
    assert names("SMTP_PORT_OLD is set", "SMTP_PORT") == []
    assert names("XSMTP_PORT", "SMTP_PORT") == []
    assert names("SMTP_PORT-2", "SMTP_PORT") == []
    assert names("9SMTP_PORT", "SMTP_PORT") == []


@pytest.mark.parametrize("text", ["SMTP_PORT", "(SMTP_PORT)", "`SMTP_PORT`.", "x:SMTP_PORT\n"])
def test_start_end_and_punctuation_delimit(text: str) -> None:
    assert [match[2] for match in names(text, "SMTP_PORT")] == ["SMTP_PORT"]


def test_dot_and_slash_are_delimiters() -> None:
    # Only [A-Za-z0-9_-] continues a token; `.` and `/` end it.
    assert len(names("configmap/smtp-config.data.SMTP_PORT", "smtp-config")) == 1
    assert len(names("configmap/smtp-config.data.SMTP_PORT", "SMTP_PORT")) == 1


def test_every_occurrence_is_found_with_its_line_and_column() -> None:
    text = "SMTP_PORT_OLD SMTP_PORT\nand smtp_port"
    assert names(text, "SMTP_PORT") == [(1, 15, "SMTP_PORT"), (2, 5, "smtp_port")]


def test_overlapping_candidate_after_a_rejected_one() -> None:
    # "a-a-b": the occurrence at 2 is preceded by "-", the one at 0 is inside "a-a-b".
    assert names("a-a-b", "a-b") == []
    assert names("x a-b", "a-b") == [(1, 3, "a-b")]


def test_nfc_composed_and_decomposed_forms_match_each_other() -> None:
    composed = "café_port"
    decomposed = unicodedata.normalize("NFD", composed)
    assert composed != decomposed
    assert names(f"the {decomposed} key", composed) == [(1, 5, decomposed)]
    assert names(f"the {composed} key", decomposed) == [(1, 5, composed)]


def test_case_folding_that_changes_length_maps_back_to_the_original() -> None:
    text = "Die STRASSE und die Straße: ß"
    found = names(text, "straße")
    assert [match[2] for match in found] == ["STRASSE", "Straße"]
    assert found[1][1] == text.index("Straße") + 1


def test_columns_after_non_ascii_text_are_code_points_of_the_original() -> None:
    text = "é\u0301ﬁ SMTP_PORT"
    assert names(text, "SMTP_PORT") == [(1, text.index("S") + 1, "SMTP_PORT")]


def test_kelvin_sign_is_a_token_character_after_normalisation() -> None:
    # U+212A KELVIN SIGN is canonically "K": under NFC it continues the token.
    assert names("SMTP_PORT\u212a", "SMTP_PORT") == []


def test_sentences_split_on_newline_and_terminator_followed_by_whitespace() -> None:
    channel = ChannelText("c", "One. Two!Three? Four\nv1.2.3 is here.\n\nLast")
    texts = [channel.text[s.start : s.end].strip() for s in channel.sentences]
    assert texts == ["One.", "Two!Three?", "Four", "v1.2.3 is here.", "Last"]
    assert [s.index for s in channel.sentences] == [0, 1, 2, 3, 4]
    assert [s.line for s in channel.sentences] == [1, 1, 1, 2, 4]


def test_synonyms_are_literal_phrases_without_delimiters() -> None:
    # SI §3.3 says "matched as literal phrases"; the delimiter rule of §3.1 is for identifiers.
    channel = ChannelText("c", "It was reunset and NOT SETTLED; Missing")
    found = [
        (s.needle, channel.text[s.start : s.end])
        for s in channel.synonym_matches(["unset", "not set", "missing"])
    ]
    assert found == [("unset", "unset"), ("not set", "NOT SET"), ("missing", "Missing")]


@pytest.mark.parametrize("bad", ["", "   ", "\t", " SMTP_PORT", "SMTP\nPORT", 7])
def test_unusable_identifiers_are_configuration_errors(bad: object) -> None:
    with pytest.raises(ProvebenchError):
        validate_identifier(bad, field="identifier_set[0]")


def test_empty_identifier_set_is_a_configuration_error() -> None:
    with pytest.raises(ProvebenchError, match="empty"):
        validate_identifier_set([], field="identifier_set")
    with pytest.raises(ProvebenchError):
        validate_identifier_set("SMTP_PORT", field="identifier_set")


_token_char = st.sampled_from(sorted(TOKEN_CHARACTERS))


@given(
    before=_token_char, after=_token_char, prefix=st.text(max_size=5), suffix=st.text(max_size=5)
)
def test_token_characters_around_an_identifier_never_create_a_match(
    before: str, after: str, prefix: str, suffix: str
) -> None:
    text = f"{prefix} {before}SMTP_PORT{after} {suffix}"
    assert names(text, "SMTP_PORT") == [] or "smtp_port" in (prefix + suffix).casefold()


@given(
    before=st.sampled_from(" \t\n.,;:()[]{}'\"/=!?é"),
    after=st.sampled_from(" \t\n.,;:()[]{}'\"/=!?é"),
)
def test_non_token_characters_around_an_identifier_always_delimit(before: str, after: str) -> None:
    assert len(names(f"{before}SMTP_PORT{after}", "smtp_port")) == 1


@given(st.text(max_size=40))
def test_reported_span_always_normalises_to_the_identifier(text: str) -> None:
    channel = ChannelText("c", f"{text} SMTP_PORT {text}")
    for span in channel.identifier_matches(["smtp_port"]):
        written = channel.text[span.start : span.end]
        assert unicodedata.normalize("NFC", written.casefold()).casefold() == "smtp_port"


_pieces = st.sampled_from(["word", "a.b", ".", "!", "?", " ", "  ", "\t", "\n", "\r\n", "\r", "x"])


@given(st.lists(_pieces, max_size=30).map("".join))
def test_locating_a_sentence_agrees_with_splitting_the_whole_text(text: str) -> None:
    channel = ChannelText("c", text)
    for sentence in channel.sentences:
        for offset in range(sentence.start, sentence.end):
            if not text[offset].isspace():
                assert channel.sentence_containing(offset, offset + 1) == sentence


def test_crlf_lines_report_lines_and_columns_of_the_original() -> None:
    text = "first line\r\nthe SMTP_PORT is missing.\r\nlast SMTP_PORT"
    assert names(text, "SMTP_PORT") == [(2, 5, "SMTP_PORT"), (3, 6, "SMTP_PORT")]
    channel = ChannelText("c", text)
    assert [s.index for s in channel.sentences] == [0, 1, 2]


def test_sentence_location_in_long_texts_queried_out_of_order() -> None:
    # Sentence ends are scanned forward in batches; queries in random order must not matter.
    rng = random.Random(3)
    for _ in range(10):
        pieces = ["word", "a.b", ".", "!", " ", "\n", "\r\n", "\n\n", "x. "]
        text = "".join(rng.choices(pieces, k=rng.randint(500, 3000)))
        expected = {
            offset: sentence
            for sentence in ChannelText("c", text).sentences
            for offset in range(sentence.start, sentence.end)
        }
        channel = ChannelText("c", text)
        offsets = [offset for offset in range(len(text)) if not text[offset].isspace()]
        for offset in rng.sample(offsets, min(300, len(offsets))):
            assert channel.sentence_containing(offset, offset + 1) == expected[offset]


# Combining marks, Hangul jamo, Tibetan vowel signs that reorder, special case foldings.
_HARD = "aeiKs_ \n\u0301\u0308\u0323\u0345\u1100\u1161\u11a8\u0130\u00df\u1e9e\ufb01\u0149"
_HARD += "\u03a3\u0399\u0390\u1fb3\u212a\u2126\u0f73\u0f71\u0f72\u0e33\u0344\u0958"


def _fold_whole(text: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def test_comparison_text_equals_folding_the_whole_text() -> None:
    rng = random.Random(1)
    for _ in range(20_000):
        text = "".join(rng.choices(_HARD, k=rng.randint(1, 8)))
        assert normalize(text).key == _fold_whole(text), ascii(text)


@given(st.text(max_size=16))
def test_comparison_text_equals_folding_the_whole_text_for_any_text(text: str) -> None:
    assert normalize(text).key == _fold_whole(text)
