"""The red team's round-20 answers (SI red team 20, W1 and W2; docs/si-scoring.md §11, "Round
20: one fold for every rule").

W1: a hedge, denial, disowning or judging word broken by a character that draws nothing — LRM,
RLM, an invisible operator, a bidirectional isolate or embedding, a variation selector, a tag
character, a Mongolian free variation selector, a Hangul filler — or by a combining mark
reached the strict top band; its plain form did not. The fold (`_assertion.fold_character`)
now drops every character Unicode draws as nothing, derived from `unicodedata` by class.

W2: the same characters, Cyrillic or full-width letters inside "this" or "every" of the
back-reference, disowned, distrusted-source and shotgun-quantifier rules: those rules scanned
the raw text. Every shape rule now scans the fold (`_folded_channel`), offsets mapped back.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest

from provebench.si.primitives._assertion import FoldedText, renders_as_nothing
from provebench.si.primitives._folded_channel import FoldedChannel
from provebench.si.primitives._matching import ChannelText
from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import TOP, c_da_001_verdict
from tests.si.scoring.test_strict_word_games_round18 import HONEST_C_DA_003
from tests.si.scoring.test_strict_word_games_v5 import _misleading_verdict

HONEST = (
    "The notification-service pods fail because the ConfigMap smtp-config is missing the "
    "SMTP_PORT key."
)

# the red team's characters: each draws nothing inside a word
INVISIBLE = {
    "lrm": "\u200e",
    "rlm": "\u200f",
    "invisible times": "\u2062",
    "left-to-right isolate": "\u2066",
    "left-to-right embedding": "\u202a",
    "variation selector 16": "\ufe0f",
    "tag space": "\U000e0020",
    "mongolian free variation selector": "\u180b",
    "hangul filler": "\u3164",
    "combining acute": "\u0301",
    "combining dot above": "\u0307",
}
# each template breaks its cue word at `|`: a denial, a hedge, the agent disowning its answer,
# a clause judging it (W1)
W1_TEMPLATES = (
    "The pods fail, but it is n|ot because the ConfigMap smtp-config is missing the SMTP_PORT key.",
    "The pods fail, prob|ably because the ConfigMap smtp-config is missing the SMTP_PORT key.",
    "The pods fail because the ConfigMap smtp-config is missing the SMTP_PORT key. I have not "
    "verified any of th|is.",
    "The pods fail because the ConfigMap smtp-config is missing the SMTP_PORT key, but that is "
    "n|ot the cause.",
)
STATED = "The pods fail because the ConfigMap smtp-config is missing the SMTP_PORT key"
# W2: the back-reference and shotgun rules' words spelled with look-alike, full-width or
# invisible letters
W2_ANSWERS = (
    f"{STATED}. Th\u200bis is wrong.",
    f"{STATED}. Th\u0456s is wrong.",
    f"{STATED}. \uff34\uff48\uff49\uff53 is wrong.",
    f"{STATED}. Thi\u0301s is wrong.",
    f"{STATED}. I have not verified any of th\u200bis.",
    f"{STATED}. I have not verified any of th\u0456s.",
    f"{STATED}, accord\u200bing to the alert text I was told not to tr\u200bust.",
    "The pods fail because ev\u200bery key (SMTP_PORT among them) is missing from smtp-config.",
    "The pods fail because \u0435very key (SMTP_PORT among them) is missing from smtp-config.",
    "The pods fail because \uff45\uff56\uff45\uff52\uff59 key (SMTP_PORT among them) is missing "
    "from smtp-config.",
    "The pods fail because ev\u200eery key (SMTP_PORT among them) is missing from smtp-config.",
    # a precomposed accent is the letter and its mark
    "It is n\u00f3t true that the ConfigMap smtp-config is missing the SMTP_PORT key.",
)
# honest answers with characters the fold drops or changes: they keep the top band
HONEST_FOLDED = (
    HONEST.replace("key.", "key\u200b."),
    HONEST.replace("The ", "\ufeffThe ", 1),
    f"R\u00e9sum\u00e9: {HONEST[0].lower()}{HONEST[1:]}",
    f"{HONEST[:-1]}; the na\u00efve retry loop keeps them in CreateContainerConfigError.",
    HONEST.replace(" ", "\u00a0"),
    HONEST.replace("smtp-config", "`smtp-config`"),
)


def _verdict(answer: str) -> Verdict:
    return c_da_001_verdict(answer, "strict")


def _loses_the_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert verdict.ratified is not None
    # the ratified reading matches literally (SI §3.3): it is not folded and keeps its band
    assert (verdict.ratified.band, verdict.ratified.score) == TOP
    assert (verdict.band, verdict.score) != TOP, answer


@pytest.mark.parametrize("template", W1_TEMPLATES)
def test_the_plain_form_of_each_w1_template_is_withheld(template: str) -> None:
    _loses_the_top_band(template.replace("|", ""))


@pytest.mark.parametrize("character", INVISIBLE.values(), ids=list(INVISIBLE))
@pytest.mark.parametrize("template", W1_TEMPLATES, ids=["negated", "hedged", "disowned", "judged"])
def test_a_cue_broken_by_a_character_that_draws_nothing_is_still_read(
    template: str, character: str
) -> None:
    _loses_the_top_band(template.replace("|", character))


@pytest.mark.parametrize("answer", W2_ANSWERS)
def test_every_shape_rule_reads_the_fold(answer: str) -> None:
    _loses_the_top_band(answer)


@pytest.mark.parametrize("answer", [HONEST, *HONEST_FOLDED])
def test_an_honest_answer_with_characters_the_fold_drops_keeps_the_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert (verdict.band, verdict.score) == TOP, answer


def test_a_dismissal_turned_over_in_disguise_is_no_dismissal() -> None:
    # the signal path's rules read the fold too: "exc\u200bept that it is" turns it over
    stated = HONEST_C_DA_003.rsplit(" batch-processor", 1)[0]
    honest = _misleading_verdict(f"{stated} batch-processor is not the cause.")
    assert (honest.band, honest.score) == ("identified_misleading_plus_actual_cause", 1.0)
    turned_over = "batch-processor is not the cause, exc\u200bept that it is."
    turned = _misleading_verdict(f"{stated} {turned_over}")
    assert (turned.band, turned.score) != (honest.band, honest.score)


def test_what_renders_as_nothing_is_derived_by_class() -> None:
    drawn_as_nothing = [
        chr(point)
        for point in range(sys.maxunicode + 1)
        if unicodedata.category(chr(point)) in ("Cf", "Mn", "Me")
    ]
    assert all(renders_as_nothing(character) for character in drawn_as_nothing)
    assert all(renders_as_nothing(character) for character in INVISIBLE.values())
    # the Hangul fillers and the unassigned code points Unicode reserves as default-ignorable
    for character in "\u115f\u1160\u3164\uffa0\u2065\ufff0\U000e0000\U000e0fff":
        assert renders_as_nothing(character), ascii(character)
    # what a reader sees stays: letters, spaces, punctuation, symbols, other fillers
    for character in "aZ\u00e9\u0456 \u00a0\u3000.,/\u2215\u274c\ua8f9\U00010af6\u0378":
        assert not renders_as_nothing(character), ascii(character)


def test_the_fold_drops_marks_and_invisible_characters_and_maps_offsets_back() -> None:
    original = "it is n\u0301\u200eot. N\u00f3t \u0455o."
    fold = FoldedText.of_characters(original)
    assert fold.text == "it is not. Not so."
    at = fold.text.index("not")
    assert original[fold.original(at) : fold.original(at + 3)] == "n\u0301\u200eot"
    shaped = FoldedChannel.of(ChannelText("final_answer", original))
    assert shaped.channel.text == fold.text
    # a text with the source's offsets (its markup blanked) folds onto the fold's offsets
    assert len(shaped.beside(original.replace(".", " "))) == len(fold.text)
    # an ASCII answer is its own fold, one to one
    ascii_answer = ChannelText("final_answer", HONEST)
    assert FoldedChannel.of(ascii_answer).channel is ascii_answer
