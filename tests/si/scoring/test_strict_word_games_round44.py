"""The red team's round-44 answers on the misleading signal and the comments on the statement
(SI red team 44, F2, H5, H8 and F10; docs/si-scoring.md §11, "Round 44"), scored against the
scenario's own simulated estate, in both directions: each attack below the top band, each
honest answer at it.

F2: on misleading-signal-002 (C-DA-003) the signal's name written apart ("Batch Processor is not
the cause. It is a red herring.") scored 0.0 in the strict reading, "batch_processor" 0.5 in
both. H5: after the dismissal, a pronoun affirmation whose words after the verb were not on
round 43's list ("Wait, it's guilty.", "On second thought it does matter.") kept the top band.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import _cases, _verdict, loses_the_top_band

MS = "misleading-signal-002"
TOP = "identified_misleading_plus_actual_cause"
DISMISSED = "{R}. batch-processor is not the cause."

# F2: the signal's name in another spelling dismisses it, in both readings
SIGNAL_HONEST = [
    "{R}. Batch Processor is not the cause. It is a red herring.",
    "{R}. batch_processor is not the cause. It is a red herring.",
    "{R}. Batch processor is not the cause.",
    # H5's honest controls: a pronoun verdict of harmlessness keeps the dismissal
    DISMISSED + " It is a red herring.",
    DISMISSED + " It's a red herring.",
    DISMISSED + " It is just noise.",
    DISMISSED + " It is only a distraction.",
    DISMISSED + " It is a symptom of contention, not the cause.",
    DISMISSED + " That one is a red herring.",
    DISMISSED + " Its CPU usage is harmless.",
    DISMISSED + " Its errors are unrelated.",
    DISMISSED + " It is noisy but irrelevant.",
    DISMISSED + " Yes, it is busy, but it is harmless.",
    DISMISSED + " It does not affect user-service.",
    DISMISSED + " Leave it as it is.",
]
# H5: the dismissal taken back by a pronoun affirmation; F2's spellings that name the signal as
# the cause
SIGNAL_REOPENED = [
    DISMISSED + " Wait, it's guilty.",
    DISMISSED + " That said, it is at fault too.",
    DISMISSED + " On second thought it does matter.",
    DISMISSED + " It is though, to be honest.",
    DISMISSED + " Hmm, I think it does, honestly.",
    DISMISSED + " It is not harmless.",
    DISMISSED + " It isn't a red herring after all.",
    DISMISSED + " Its CPU spike matters.",
    DISMISSED + " It is harmless, but it is at fault too.",
    "{R}. Batch Processor is not the cause. Wait, it's guilty.",
    "{R}. Batch Processor is the root cause.",
]


@pytest.mark.parametrize("answer", SIGNAL_HONEST)
def test_a_round44_honest_dismissal_keeps_the_top_band_in_both_readings(answer: str) -> None:
    strict, ratified = _verdict(MS, answer)
    assert strict.strict is not None
    for verdict in (strict, ratified):
        assert (verdict.band, verdict.score) == (TOP, 1.0), (answer, verdict.strict)
    assert strict.strict.findings == [], answer


@pytest.mark.parametrize("answer", SIGNAL_REOPENED)
def test_a_round44_signal_taken_back_loses_the_top_band_in_both_readings(answer: str) -> None:
    for verdict in _verdict(MS, answer):
        assert verdict.score < 1.0, (answer, verdict.band)
        assert verdict.band != TOP, answer


# H8: the failing workload said to work in a comment, when the statement names only the key and
# the configmap; F10: honest tails of a duration, a confidence of 90% or more and a count of the
# failing pods. The statement without its consequence ("…, so deployment/checkout fails")
SSD3 = "single-signal-diagnosis-003"
KEY_ONLY = (
    "Root cause: the key INVENTORY_PORT in configmap/checkout-config has a wrong value: it is "
    "'8081' but service inventory listens on 8080"
)
RED_TEAM: dict[str, list[str]] = {
    SSD3: [
        KEY_ONLY + " — checkout is up.",
        KEY_ONLY + " — checkout works.",
        KEY_ONLY + " — checkout is Running.",
        KEY_ONLY + " — the checkout deployment is healthy.",
        KEY_ONLY + " — checkout is fine.",
        # F10's bounds: a lower confidence, a hedge after the count
        KEY_ONLY + ", 50% sure.",
        KEY_ONLY + ", 95% sure.",  # odds below certainty (the factor reading's rule)
        KEY_ONLY + ", for the last 40 minutes, maybe.",
        # F10's bounds: the upstream given another value, the factor's own objects said to work
        KEY_ONLY + ". inventory is up on 8081.",
        KEY_ONLY + ". checkout-config is fine.",
        "{R}. checkout is up.",
    ],
    "single-signal-diagnosis-005": ["{R}. orders-db is healthy."],
}
HONEST: dict[str, list[str]] = {
    SSD3: [
        KEY_ONLY + ", for the last 40 minutes.",
        KEY_ONLY + ", 100% sure.",
        KEY_ONLY + " (2 pods affected).",
        KEY_ONLY + " — checkout pods are in CrashLoopBackOff.",
        KEY_ONLY + " (checkout-config).",
        KEY_ONLY + ". The inventory pods are Running.",
        # the healthy upstream the statement names, said to work (F10)
        KEY_ONLY + ". inventory itself is healthy.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round44_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round44_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.score, ratified.score, strict.strict.findings) == (1.0, 1.0, []), answer
