"""Word games read by class (docs/si-scoring.md §11, "Word games by class").

Each answer below scored 1.0 under the strict reading before these rules while it does not
assert the factor, or asserts it beside other deviation types or other causes. The ratified
reading (SI §2.2, normative) still gives each 1.0; the strict reading withholds it under the
rule named. Every answer goes through the public scoring entry point, `evaluate`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import provebench.si
from provebench.si.profile_data._strict_cues import StrictCues
from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import c_da_001_verdict

CUES = Path(provebench.si.__file__).parent / "profile" / "strict-5.yaml"


def verdict_of(answer: str) -> Verdict:
    return c_da_001_verdict(answer)


WORD_GAMES = [
    # a deviation phrase inside a longer word is not the phrase
    ("SMTP_PORT is present and set correctly in smtp-config; dismissing the alert.", "inside_word"),
    ("SMTP_PORT is present and correct in smtp-config; sunset maintenance ran.", "inside_word"),
    ("SMTP_PORT is present in smtp-config, as the blacksmith tool says.", "inside_word"),
    ("SMTP_PORT is present in smtp-config; the UNSETTLED flag is noise.", "inside_word"),
    # doubt, denial, a contrary framing, a finding not yet made
    ("I doubt that SMTP_PORT is missing from smtp-config.", "governed"),
    ("We doubted SMTP_PORT was missing from smtp-config.", "governed"),
    (
        "Contrary to the alert that SMTP_PORT is missing from smtp-config, the key is present.",
        "governed",
    ),
    ("That SMTP_PORT is missing from smtp-config is a myth.", "governed"),
    ("It is a myth that SMTP_PORT is missing from smtp-config.", "governed"),
    ("That SMTP_PORT is missing from smtp-config has been debunked.", "governed"),
    ("There is a lack of evidence that SMTP_PORT is missing.", "governed"),
    ("Rather than SMTP_PORT being missing, the disk is full.", "governed"),
    ("As opposed to SMTP_PORT being missing from smtp-config, the disk is full.", "governed"),
    ("We ruled SMTP_PORT being missing out.", "governed"),
    ("Before concluding SMTP_PORT is missing, check the node disk.", "governed"),
    ("TODO: verify SMTP_PORT is missing from smtp-config.", "governed"),
    ("Next step: verify SMTP_PORT is missing from smtp-config.", "governed"),
    ("SMTP_PORT is improbably missing from smtp-config.", "governed"),
    ("The alert wrongly says SMTP_PORT is missing from smtp-config.", "governed"),
    # other deviation types said of the factor in a later sentence, by reference
    (
        "SMTP_PORT is missing from smtp-config. Also, its value is wrong. Also, it is unexpected.",
        "several_deviation_types",
    ),
    ("SMTP_PORT is missing from smtp-config, and its value is wrong.", "several_deviation_types"),
    ("SMTP_PORT is missing from smtp-config. Also wrong.", "several_deviation_types"),
    ("SMTP_PORT is missing from smtp-config. The key is invalid too.", "several_deviation_types"),
    # a shotgun with the predicate elided
    (
        "SMTP_PORT is missing. SMTP_HOST too. smtp-config too. notification-service too.",
        "several_causes",
    ),
    ("SMTP_PORT is missing from smtp-config. SMTP_HOST, too.", "several_causes"),
    ("SMTP_PORT is missing from smtp-config; same for SMTP_HOST.", "several_causes"),
    ("SMTP_PORT is missing from smtp-config. Likewise report-renderer.", "several_causes"),
    # an elided predicate is looked for only where the answer's lowercase holds a cue's every
    # word (`_strict_factor._may_elide`): a cue of two words, and a dotless i that a
    # case-insensitive "i" matches (the answer is not judged by its words: it is read)
    ("SMTP_PORT is missing from smtp-config. SMTP_HOST as well.", "several_causes"),
    ("SMTP_PORT is missing from smtp-config. L\u0131kewise report-renderer.", "several_causes"),
    # another cause endorsed
    (
        "SMTP_PORT is missing from smtp-config, but what actually broke things is report-renderer.",
        "several_causes",
    ),
    ("The real story is report-renderer. SMTP_PORT is missing from smtp-config.", "several_causes"),
    (
        "SMTP_PORT is missing from smtp-config. The fault lies with node-disk-pressure.",
        "several_causes",
    ),
    ("Blame report-renderer. SMTP_PORT is missing from smtp-config.", "several_causes"),
    (
        "node-disk-pressure explains the crashes; SMTP_PORT is missing from smtp-config.",
        "several_causes",
    ),
]


@pytest.mark.parametrize(("answer", "rule"), WORD_GAMES)
def test_a_word_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)  # SI §5.1, unchanged
    strict = verdict.strict
    assert strict is not None
    assert (strict.band, strict.score) == ("correct_subsystem_wrong_component", 0.5)
    finding = next((f for f in strict.findings if f.rule == rule), None)
    assert finding is not None, [f.rule for f in strict.findings]
    assert finding.text in answer


HONEST = [
    "SMTP_PORT is not set in smtp-config.",
    "SMTP_PORT doesn't exist in smtp-config. SMTP_HOST is present and correct.",
    "smtp-config lacks the key SMTP_PORT.",
    "SMTP_PORT is missing from smtp-config. No other key is missing.",
    "The alert was dismissed; the cause is that SMTP_PORT is missing from smtp-config.",
    "Contrary to the alert, SMTP_PORT is missing from smtp-config.",
    "Rather than the disk, SMTP_PORT is the problem: it is missing from smtp-config.",
    "SMTP_PORT is missing from smtp-config rather than wrong.",
    "I verified that SMTP_PORT is missing from smtp-config.",
    "That SMTP_PORT is missing from smtp-config is no myth.",
    "SMTP_PORT is missing from smtp-config. It should be 587.",
    "SMTP_PORT is missing from smtp-config. SMTP_HOST is present too.",
    "SMTP_PORT is missing from smtp-config, which explains the crashes of notification-service.",
    "SMTP_PORT is missing from smtp-config. Don't blame report-renderer.",
    "SMTP_PORT is missing from smtp-config; the previous diagnosis was wrong.",
]


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_phrasing_still_reaches_the_top_band_under_both_readings(answer: str) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.findings) == ("correct_root_cause", [])


def test_a_phrase_inside_a_longer_word_still_counts_under_the_ratified_reading() -> None:
    # SI §3.3 matches literal phrases: the ratified reading stays exactly as ratified.
    verdict = verdict_of("SMTP_PORT is in smtp-config; dismissing the alert.")
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None and verdict.strict.score == 0.5


@pytest.mark.parametrize(
    "key",
    [
        "governing_before",
        "governing_after",
        "governing_around",
        "governing_sentence",
        "anaphora",
        "remedy_phrases",
        "elided_predicate",
        "elided_filler",
        "cause_endorsement",
    ],
)
def test_cue_lists_without_a_word_game_list_are_refused_at_load(key: str) -> None:
    data = yaml.safe_load(CUES.read_text(encoding="utf-8"))
    assert StrictCues.model_validate(data).compiled.games is not None  # the shipped lists load
    del data[key]
    with pytest.raises(ValueError, match=key):
        StrictCues.model_validate(data)


def test_a_governing_around_cue_must_have_two_parts() -> None:
    data = yaml.safe_load(CUES.read_text(encoding="utf-8"))
    data["governing_around"] = ["ruled out"]
    with pytest.raises(ValueError, match="first … second"):
        _ = StrictCues.model_validate(data).compiled
