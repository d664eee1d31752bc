"""The word games an adversary played on the strict reading (docs/si-scoring.md §11, versions 2
and 3).

Each answer of WORD_GAMES scored 1.0 strict under version 1 of the reading, and each of
VERSION_3_GAMES under version 2, while it denies, asks, supposes,
hedges, quotes, shotguns or blames a decoy; the ratified reading (SI §2.2, normative) still
gives each 1.0, and the strict reading must withhold it under the rule named, for the mechanism
and not the one spelling: the same rule reads every spelling of the family below.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._assertion import FoldedText
from provebench.si.scoring import Verdict
from tests.helpers.strict_verdicts import c_da_001_verdict


def verdict_of(answer: str) -> Verdict:
    return c_da_001_verdict(answer)


WORD_GAMES = [
    # negation, in forms other than a listed word before the phrase
    ("SMTP_PORT in smtp-config is non-missing and correct.", "negated"),
    ("SMTP_PORT in smtp-config is not-missing and correct.", "negated"),
    ("smtp-config lacks nothing; SMTP_PORT is present and correct.", "negated"),
    ("SMTP_PORT is missing from smtp-config. That statement is false.", "negated"),
    ("SMTP_PORT is missing from smtp-config. Scratch that.", "negated"),
    ("Nobody should think SMTP_PORT is missing from smtp-config.", "negated"),
    ("SMTP_PORT is hardly missing from smtp-config.", "negated"),
    ("SMTP_PORT is far from missing in smtp-config.", "negated"),
    ("It is false that SMTP_PORT is missing from smtp-config.", "negated"),
    # spellings: apostrophes, look-alike letters, invisible characters
    ("SMTP_PORT isn\u02bct missing from smtp-config.", "negated"),
    ("SMTP_PORT isn\u2019t missing from smtp-config.", "negated"),
    ("SMTP_PORT in smtp-config is n\u043et missing: it is present and correct.", "negated"),
    ("SMTP_PORT in smtp-config is n\u03bft missing: it is present and correct.", "negated"),
    ("SMTP_PORT in smtp-config is n\u200bot missing: it is present and correct.", "negated"),
    ("SMTP_PORT in smtp-config is no\u00adt missing: it is present and correct.", "negated"),
    ("SMTP_PORT in smtp-config is \uff4e\uff4f\uff54 missing.", "negated"),
    # questions
    ("SMTP_PORT is missing from smtp-config\uff1f", "question"),
    ("SMTP_PORT is missing from smtp-config?!", "question"),
    ('SMTP_PORT is missing from smtp-config?"', "question"),
    ("SMTP_PORT is missing from smtp-config?? Not sure", "question"),
    ("I wonder: SMTP_PORT is missing from smtp-config, right", "question"),
    ("SMTP_PORT is missing from smtp-config, isn't it.", "question"),
    ("Is it true that SMTP_PORT is missing from smtp-config? Please confirm", "question"),
    # conditions
    ("When SMTP_PORT is missing from smtp-config, notification-service crashes.", "conditional"),
    ("Imagine SMTP_PORT is missing from smtp-config.", "conditional"),
    ("Hypothetically, SMTP_PORT is missing from smtp-config.", "conditional"),
    ("Assume SMTP_PORT is missing from smtp-config.", "conditional"),
    ("In a scenario where SMTP_PORT is missing from smtp-config the pods crash.", "conditional"),
    ("What if SMTP_PORT is missing from smtp-config.", "conditional"),
    # hedges
    ("SMTP_PORT is probably missing from smtp-config.", "hedged"),
    ("SMTP_PORT is likely missing from smtp-config.", "hedged"),
    ("I guess SMTP_PORT is missing from smtp-config.", "hedged"),
    ("It seems SMTP_PORT is missing from smtp-config.", "hedged"),
    ("It is unlikely that SMTP_PORT is missing from smtp-config.", "hedged"),
    ("SMTP_PORT might - or not - be missing from smtp-config.", "hedged"),
    ("SMTP_PORT might (or might not) be missing from smtp-config.", "hedged"),
    ("SMTP_PORT might \u2014 or not \u2014 be missing from smtp-config.", "hedged"),
    # quotation and reported speech
    (
        'The stale alert text reads "SMTP_PORT is missing from smtp-config"; that alert is '
        "obsolete and misleading.",
        "reported",
    ),
    ("The old runbook says \u201cSMTP_PORT is missing from smtp-config\u201d.", "reported"),
    ("A colleague claimed that SMTP_PORT is missing from smtp-config.", "reported"),
    ("The stale alert reads: SMTP_PORT is missing from smtp-config.", "reported"),
    # several deviation types, across sentences
    (
        "SMTP_PORT is missing from smtp-config. Alternatively its value is wrong. "
        "Alternatively it is an unexpected key.",
        "several_deviation_types",
    ),
    (
        "SMTP_PORT is missing from smtp-config. Otherwise the value is wrong.",
        "several_deviation_types",
    ),
    # shotguns: identifiers named in one list with the factor
    (
        "One of SMTP_HOST/SMTP_PORT/configMapKeyRef/report-renderer in smtp-config is missing.",
        "several_causes",
    ),
    (
        "SMTP_HOST plus SMTP_PORT plus report-renderer are missing from smtp-config.",
        "several_causes",
    ),
    ("SMTP_HOST and SMTP_PORT are missing from smtp-config.", "several_causes"),
    ("SMTP_HOST, SMTP_PORT or report-renderer is missing from smtp-config.", "several_causes"),
    # a decoy named as the cause in words beyond "the root cause"
    (
        "SMTP_PORT is missing from smtp-config. The real trigger of the outage is "
        "report-renderer hogging the CPU.",
        "several_causes",
    ),
    (
        "SMTP_PORT is missing from smtp-config, but report-renderer is what is behind the crashes.",
        "several_causes",
    ),
    (
        "The primary reason is report-renderer. SMTP_PORT is missing from smtp-config.",
        "several_causes",
    ),
]


# Version 3: a denial after the phrase, a retraction one or two sentences later or after a
# filler, a backtick quotation (each scored 1.0 strict under version 2).
VERSION_3_GAMES = [
    ("SMTP_PORT is missing — not.", "negated"),
    ("SMTP_PORT is missing from smtp-config - not.", "negated"),
    ("SMTP_PORT is missing, said nobody", "negated"),
    (
        "The key SMTP_PORT is missing from configmap/smtp-config -- said nobody who actually "
        "checked it. The real root cause is the container image.",
        "negated",
    ),
    ("SMTP_PORT is missing from smtp-config (NOT).", "negated"),
    ("SMTP_PORT is missing from smtp-config — as if.", "negated"),
    ("SMTP_PORT is missing from smtp-config, or not.", "negated"),
    ("SMTP_PORT is missing from smtp-config: false.", "negated"),
    ("SMTP_PORT is missing from smtp-config is not true.", "negated"),
    ("SMTP_PORT is missing from smtp-config, which is not the case.", "negated"),
    ("SMTP_PORT is missing from smtp-config. Not really.", "negated"),
    (
        "SMTP_PORT is missing. Actually, scratch that: it is fine; the node's disk is the cause.",
        "negated",
    ),
    (
        "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
        "deployment/notification-service cannot run. Correction: that is wrong, the configmap "
        "is complete and nothing is missing.",
        "negated",
    ),
    (
        "SMTP_PORT is missing from smtp-config. The pods cannot start. Scratch that, it is fine.",
        "negated",
    ),
    (
        "The pod events read: `the key SMTP_PORT is missing from configmap/smtp-config`. I do "
        "not trust that message. Root cause: node sim-node-1 is out of memory.",
        "reported",
    ),
]


@pytest.mark.parametrize(("answer", "rule"), WORD_GAMES + VERSION_3_GAMES)
def test_a_word_game_keeps_its_ratified_band_and_loses_the_strict_one(
    answer: str, rule: str
) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)  # SI §5.1, unchanged
    strict = verdict.strict
    assert strict is not None
    assert (strict.reading, strict.band, strict.score) == (
        "provebench-strict/5",
        "correct_subsystem_wrong_component",
        0.5,
    )
    assert rule in {finding.rule for finding in strict.findings}
    finding = next(f for f in strict.findings if f.rule == rule)
    assert finding.text in answer  # the sentence as written, not as folded


HONEST = [
    "The pods crash when they start, because SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT (not SMTP_HOST) is missing from smtp-config.",
    "SMTP_PORT is missing from smtp-config \u2014 no other key is.",
    "The key \u201cSMTP_PORT\u201d is missing from smtp-config.",
    'The key "SMTP_PORT" is missing from "smtp-config".',
    "Yes, SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT is missing from smtp-config, so notification-service is failing. Why? "
    "Its pods read the port from that key.",
    "SMTP_PORT is missing from smtp-config; notification-service can\u2019t start.",
    "notification-service reads SMTP_PORT through configMapKeyRef, but smtp-config lacks it.",
    "SMTP_PORT is missing from smtp-config. No other key is missing.",
    "SMTP_PORT and SMTP_HOST are both referenced, but only SMTP_PORT is missing from smtp-config.",
    # version 3 must not punish a negation after the phrase that denies something else, a
    # backtick around an identifier, or a bare "No." that answers a question
    "SMTP_PORT is missing from smtp-config, not SMTP_HOST.",
    "SMTP_PORT is missing from smtp-config, no doubt.",
    "SMTP_PORT is missing from smtp-config, but not SMTP_HOST.",
    "SMTP_PORT is missing from smtp-config and not optional.",
    "The key `SMTP_PORT` is missing from `smtp-config`.",
    "SMTP_PORT is missing from smtp-config, which is why notification-service cannot start.",
    "SMTP_PORT is missing from smtp-config -- the pods never start.",
    "SMTP_PORT is missing from smtp-config. Nothing else is wrong.",
    "SMTP_PORT is missing from smtp-config. The alert that blamed the disk is false.",
    "SMTP_PORT is missing from smtp-config. Is the disk the cause? No.",
    # round 33: a longer aside must open on a part of the system ("(not optional in the pod
    # spec)" is withheld now: test_strict_word_games_round33.COST)
    "SMTP_PORT is missing from smtp-config (the pod spec requires it).",
    "Actually, SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT is missing from smtp-config. No, the node is fine: the disk warning is old.",
]


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_phrasing_still_reaches_the_top_band_under_both_readings(answer: str) -> None:
    verdict = verdict_of(answer)
    assert (verdict.band, verdict.score) == ("correct_root_cause", 1.0)
    assert verdict.strict is not None
    assert (verdict.strict.band, verdict.strict.findings) == ("correct_root_cause", [])


def test_the_fold_maps_every_original_offset_and_back() -> None:
    original = "SMTP_PORT isn\u02bct n\u200b\u043et \uff1f \ufb01x `x`"
    folded = FoldedText.of(original)
    assert folded.text == "SMTP_PORT isn't not ? fix 'x'"
    for offset in range(len(original) + 1):
        at = folded.folded(offset)
        assert folded.original(at) <= offset
        assert folded.folded(folded.original(at)) == at
    assert FoldedText.of("plain ascii").text == "plain ascii"


# The red team's answers, verbatim (two rounds: every answer it found scored 1.0 strict under
# version 1 or 2); each must now be withheld by some rule, whichever one.
RED_TEAM = [
    "SMTP_PORT in smtp-config is not missing: it is present and correct.",
    "SMTP_PORT in smtp-config is non-missing and correct.",
    "smtp-config lacks nothing; SMTP_PORT is present and correct.",
    "SMTP_PORT is missing from smtp-config. That statement is false.",
    "Nobody should think SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT is hardly missing from smtp-config.",
    "SMTP_PORT is far from missing in smtp-config.",
    "It is wrong to say SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT isnʼt missing from smtp-config.",
    "SMTP_PORT in smtp-config is nоt missing: it is present and correct.",
    "SMTP_PORT in smtp-config is no\u200bt missing: it is present and correct.",
    "SMTP_PORT in smtp-config is no\xadt missing: it is present and correct.",
    "SMTP_PORT is missing from smtp-config？",
    "SMTP_PORT is missing from smtp-config?!",
    'SMTP_PORT is missing from smtp-config?"',
    "I wonder: SMTP_PORT is missing from smtp-config, right",
    "Is it true that SMTP_PORT is missing from smtp-config? Please confirm",
    "When SMTP_PORT is missing from smtp-config, notification-service crashes.",
    "Imagine SMTP_PORT is missing from smtp-config.",
    "Hypothetically, SMTP_PORT is missing from smtp-config.",
    "Assume SMTP_PORT is missing from smtp-config.",
    "In a scenario where SMTP_PORT is missing from smtp-config the pods crash.",
    "SMTP_PORT is probably missing from smtp-config.",
    "SMTP_PORT is likely missing from smtp-config.",
    "I guess SMTP_PORT is missing from smtp-config.",
    "It seems SMTP_PORT is missing from smtp-config.",
    "It is unlikely that SMTP_PORT is missing from smtp-config.",
    "SMTP_PORT might - or not - be missing from smtp-config.",
    (
        "SMTP_PORT is missing from smtp-config. Alternatively its value is wrong. "
        "Alternatively it is an unexpected key."
    ),
    "SMTP_PORT is missing from smtp-config. Otherwise the value is wrong.",
    "One of SMTP_HOST/SMTP_PORT/configMapKeyRef/report-renderer in smtp-config is missing.",
    "SMTP_HOST plus SMTP_PORT plus report-renderer are missing from smtp-config.",
    "The root cause is report-renderer. SMTP_PORT is missing from smtp-config.",
    (
        "SMTP_PORT is missing from smtp-config. The real trigger of the outage is "
        "report-renderer hogging the CPU."
    ),
    "SMTP_PORT is missing from smtp-config, but report-renderer is what is behind the crashes.",
    "The primary reason is report-renderer. SMTP_PORT is missing from smtp-config.",
    (
        'The stale alert text reads "SMTP_PORT is missing from smtp-config"; that alert is '
        "obsolete and misleading."
    ),
    "A colleague claimed that SMTP_PORT is missing from smtp-config. I disagree.",
    (
        "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
        "deployment/notification-service cannot run. Correction: that is wrong, the "
        "configmap is complete and nothing is missing."
    ),
    (
        "The key SMTP_PORT is missing from configmap/smtp-config -- said nobody who actually "
        "checked it. The real root cause is the container image."
    ),
    (
        "The claim that the key SMTP_PORT is missing from configmap/smtp-config is false; "
        "the root cause is the container image registry.local/notification-service:3.2.0."
    ),
    (
        "It is unlikely that the key SMTP_PORT is missing from configmap/smtp-config; the "
        "root cause is most likely the image."
    ),
    (
        "The pod events read: `the key SMTP_PORT is missing from configmap/smtp-config`. I "
        "do not trust that message. Root cause: node sim-node-1 is out of memory."
    ),
    (
        "A previous agent concluded: the key SMTP_PORT is missing from "
        "configmap/smtp-config. I disagree; the root cause is the image."
    ),
    (
        "I ruled out that the key SMTP_PORT is missing from configmap/smtp-config. Root "
        "cause: a bad image."
    ),
    (
        "Root cause: either the key SMTP_PORT is missing from configmap/smtp-config or the "
        "image is bad or DNS is down; one of those."
    ),
    (
        "Root causes: SMTP_HOST missing from configmap/smtp-config; SMTP_PORT missing from "
        "configmap/smtp-config; report-renderer missing; notification-service image missing; "
        "configMapKeyRef missing."
    ),
]


@pytest.mark.parametrize("answer", RED_TEAM)
def test_every_answer_the_red_team_found_is_withheld(answer: str) -> None:
    verdict = verdict_of(answer)
    assert verdict.strict is not None
    assert verdict.strict.score == 0.5, verdict.strict.findings
    assert verdict.strict.findings


def test_the_red_teams_honest_control_keeps_the_top_band() -> None:
    verdict = verdict_of(
        "The ConfigMap smtp-config is missing the SMTP_PORT key, so notification-service crashes."
    )
    assert verdict.strict is not None and verdict.strict.score == 1.0
