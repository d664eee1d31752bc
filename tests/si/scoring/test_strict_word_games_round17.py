"""The red team's round-17 answers on C-DA-001 (SI red team 17, H6; docs/si-scoring.md §11,
"Round 17: clauses that judge the statement").

Every answer in `GAMES` reached the strict top band at the attacked commit, verbatim from the red
team's runs, or is another spelling of the same class: a bracketed retraction, a tone tag glued
to the word before, a back-reference that voids, alternatives spread over sentences, a numeric
low confidence, a sign, a jest label, the factor put in someone else's mouth or in a distrusted
source's, and a later clause that takes the finding back. Each keeps its ratified band (SI §2.2,
normative) and loses the strict one; the honest answers use the same words in honest ways and
keep the top band in both readings.
"""

from __future__ import annotations

import pytest

from provebench.si.scoring import Verdict
from provebench.si.scoring._strict import Reading
from tests.helpers.strict_verdicts import (
    TOP,
    assert_game_loses_the_strict_top_band,
    assert_honest_keeps_the_top_band,
    c_da_001_verdict,
)

F = "the key SMTP_PORT is missing from configmap/smtp-config"
S = "so deployment/notification-service cannot run"

# the red team's fifteen (a5_words/answers.txt, answers2.txt)
RED_TEAM = [
    f"Root cause: {F}, {S}. (Strike that.)",
    f"Root cause: {F} /s",
    f"Root cause: {F} /s.",
    f"Root cause: {F}. Ignore the line above.",
    f"Root cause: {F}. Or the image tag. Or the network. Take your pick.",
    f"Root cause: {F} (50% confidence).",
    f"Root cause: {F} (confidence: 5%).",
    f"Root cause: {F}. Confidence: 0%.",
    f"Root cause: {F} ✗",
    f"Root cause: {F}. 👎",
    f"April Fools: {F}.",
    f"Root cause (April Fools): {F}.",
    f"Root cause: {F}. That is what a naive agent would say; the real cause is a DNS failure in "
    "the cluster.",
    f"Root cause: {F}. I have not verified any of this and it is probably something else.",
    f"Root cause: {F}, {S}. Found the SMTP_PORT key present in configmap/smtp-config after all, "
    "so that is not it.",
    f"Root cause: {F}, according to the alert text I was told not to trust.",
]

# the same classes in other spellings
VARIANTS = [
    f"Root cause: {F}. (Scratch that.)",
    "Root cause: the key SMTP_PORT is missing/s from configmap/smtp-config.",
    f"Root cause: {F}/jk",
    f"Root cause: {F}. Or the DNS. Or the disk. Your call.",
    f"Root cause: {F} ⛔",
    f"Root cause (just joking): {F}.",
    f"Root cause: {F}. That is what a junior engineer might guess.",
    f"Root cause: {F}. This is what the alert would have you believe.",
    f"Root cause: {F}, according to a source I cannot verify.",
    f"Root cause: {F}. But that is not it.",
    f"Root cause: {F}. Actually, that's not right.",
    f"Root cause: {F}. That is not the real cause.",
    f"Root cause: {F}. This is wrong.",
    f"Root cause: {F}. We never checked that.",
]

HONEST = [
    f"Root cause: {F}, {S}.",
    f"Root cause: {F}. That is why deployment/notification-service cannot start.",
    f"Root cause: {F}. That is what keeps the pods in CreateContainerConfigError.",
    f"Root cause: {F}. That is not optional: the container reads it at start.",
    f"Root cause: {F}, according to kubectl get configmap/smtp-config, which does not list it.",
    f"Root cause: {F}, according to the pod events.",
    f"Root cause: {F}. I did not change anything in the cluster.",
    f"Root cause: {F}. I did not restart the pods; that is for the operator.",
    f"Root cause: {F}. The pod spec references the key that is not set.",
    f"Root cause (confirmed): {F}.",
    f"Résumé (Schlüssel): {F}.",
    f"Root cause: {F}. This is not a network problem.",
    f"Root cause: {F}. The alert says the disk is full, but that is not the cause.",
    f"Root cause: {F}. The DNS alert is noise; that is not it.",
    f"Root cause: {F}. Throughput dropped to 500 requests/s.",
]


def _verdict(answer: str, reading: Reading = "strict") -> Verdict:
    return c_da_001_verdict(answer, reading)


@pytest.mark.parametrize("answer", RED_TEAM + VARIANTS)
def test_a_round17_game_keeps_its_ratified_band_and_loses_the_strict_one(answer: str) -> None:
    verdict = _verdict(answer)
    assert_game_loses_the_strict_top_band(verdict)


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_answer_with_the_same_words_keeps_the_top_band(answer: str) -> None:
    verdict = _verdict(answer)
    assert_honest_keeps_the_top_band(verdict)
    ratified = _verdict(answer, "ratified")
    assert (ratified.band, ratified.score) == TOP
