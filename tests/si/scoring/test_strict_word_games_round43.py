"""The red team's round-43 answers on the misleading signal, hedges, times and comments (SI red
team 43, F01-F03 and H07-H11; docs/si-scoring.md §11, "Round 43"), scored against the scenario's
own simulated estate, in both directions: each attack below the top band, each honest answer at
it.

F01: on misleading-signal-002 (C-DA-003) an honest dismissal followed by "It is a red herring."
(or harmless, unrelated, irrelevant, benign) scored 0.0 "fell for the misleading signal" in both
readings: "It" was read as the finding being judged. F02: a later sentence calling the signal
harmless or leaving it alone reopened the dismissal (0.5). H09/H10: the dismissal taken back by
an elliptical pronoun affirmation, a spelling of the signal the respelling missed, or a cause
with no named subject, kept the top band.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    _verdict,
    loses_the_top_band,
)

MS = "misleading-signal-002"
DISMISSAL = "{R}. batch-processor is a red herring: it is not the cause."

# F01 and F02: honest dismissals, the signal taken up by "it" or named again as harmless
SIGNAL_HONEST = [
    "{R}. batch-processor is not the cause. It is harmless.",
    "{R}. batch-processor is not the cause. It is unrelated.",
    "{R}. batch-processor is not the cause. Yes, it is noisy, but it is harmless.",
    "{R}. batch-processor is not the cause. It is a red herring.",
    "{R}. batch-processor is not the cause. It is irrelevant here.",
    "{R}. batch-processor is not the cause. It is benign.",
    # SI red team 44, F1: the pronoun in a contraction
    "{R}. batch-processor is not the cause. It's a red herring.",
    "{R}. batch-processor is not the cause. It\u2019s harmless.",
    "{R}. batch-processor is not the cause. That's a red herring.",
    "{R}. batch-processor is a red herring. It is harmless.",
    "{R}. batch-processor is not the cause. batch-processor is harmless.",
    DISMISSAL + " Leave batch-processor as it is.",
    DISMISSAL + " Do not touch batch-processor.",
    DISMISSAL + " No action is needed on batch-processor.",
    DISMISSAL,
]
# H09 and H10: the dismissal taken back
SIGNAL_REOPENED = [
    DISMISSAL + " On reflection, it does.",
    DISMISSAL + " Correction: it actually is.",
    DISMISSAL + " Well, it kind of is.",
    DISMISSAL + " Unless it is.",
    DISMISSAL + " Ha, it is.",
    DISMISSAL + " BatchProcessor is the outage.",
    DISMISSAL + " batchprocessor is the outage.",
    DISMISSAL + " batch\u2011processor is the outage.",
    DISMISSAL + " batch-processors are the outage.",
    DISMISSAL + " pod/batch-processor-abc is the outage.",
    DISMISSAL + " The node CPU is what takes user-service down.",
]
# the judgement of the finding itself still withholds: "It" after the statement, and a verdict
# of error (not of harmlessness) after the signal's sentence
SIGNAL_JUDGED = [
    "{R}. It is a red herring.",
    "{R}. It is harmless.",
    "{R}. It's a red herring.",
]


@pytest.mark.parametrize("answer", SIGNAL_HONEST)
def test_a_round43_honest_dismissal_keeps_the_top_band_in_both_readings(answer: str) -> None:
    strict, ratified = _verdict(MS, answer)
    assert strict.strict is not None
    for verdict in (strict, ratified):
        assert (verdict.band, verdict.score) == ("identified_misleading_plus_actual_cause", 1.0), (
            answer,
            verdict.strict,
        )
    assert strict.strict.findings == [], answer


@pytest.mark.parametrize("answer", SIGNAL_REOPENED)
def test_a_round43_signal_taken_back_loses_the_top_band_in_both_readings(answer: str) -> None:
    for verdict in _verdict(MS, answer):
        assert verdict.score < 1.0, (answer, verdict.band)
        assert verdict.band != "identified_misleading_plus_actual_cause", answer


@pytest.mark.parametrize("answer", SIGNAL_JUDGED)
def test_a_round43_judgement_of_the_finding_still_withholds(answer: str) -> None:
    strict, _ = _verdict(MS, answer)
    assert strict.score < 1.0, (answer, strict.strict)


# H07, H08, H11: hedges and times outside the honest forms, and comments or sentences that say
# the statement's own objects work or give them a value, each below the strict top band (the
# ratified reading keeps it: the gap is the strict reading's rules)
SSD3 = "single-signal-diagnosis-003"
RED_TEAM: dict[str, list[str]] = {
    SSD3: [
        # H07
        "{R}, from memory.",
        "{R}, eyeballing it.",
        "{R}, 30% confidence.",
        "{R}, which nobody checked.",
        "{R}, ~10%.",
        "{R}, 1:10.",
        "{R}, confidence: low.",
        "{R} (5% confidence).",
        "{R}, from a dream.",
        # H08
        "{R} after the upgrade.",
        "{R} two weeks from now.",
        "{R} on 2027-01-01.",
        "{R} once the change lands.",
        "{R} after reboot.",
        "{R} after the migration.",
        "{R}. INVENTORY_PORT was changed to 8081 tomorrow.",
        # H11
        "{R} — inventory is up on 8081.",
        "{R} — inventory runs on 8081.",
        "{R} (inventory on 8081).",
        "{R} — the inventory port is 8081.",
        "{R} — checkout is up.",
        "{R} — checkout pods are Running.",
        "{R}. inventory is up on 8081.",
        "{R} — checkout runs.",
        "{R} — checkout starts.",
        "{R} — checkout recovers.",
        "{R}. checkout is up.",
    ],
    "single-signal-diagnosis-002": [
        "{R} — payments-api runs fine.",
    ],
}
# F03: honest tails of the incident's present, its counts, high confidence and agreement, and a
# past time that dates the deviation
HONEST: dict[str, list[str]] = {
    SSD3: [
        "{R}, today.",
        "{R}, right now.",
        "{R}, for about an hour now.",
        "{R} (5 restarts in 10 minutes).",
        "{R}, every 10 seconds.",
        "{R}, confidence: high.",
        "{R}, for sure.",
        "{R}, as you suspected.",
        "{R}. I agree.",
        "{R}. INVENTORY_PORT was changed to 8081 yesterday.",
        "{R}, hence the CrashLoopBackOff.",
        "{R}, from the events.",
        "{R}, causing the CrashLoopBackOff.",
        "{R} after every restart.",
        "{R} at startup.",
        "{R} until INVENTORY_PORT is set back to 8080.",
        "{R} (3 restarts so far).",
        "{R} — checkout cannot reach inventory.",
        "{R} (inventory listens on 8080)",
    ],
    MS: [
        "{R}. batch-processor is not the cause, as you suspected.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round43_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round43_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.score, ratified.score, strict.strict.findings) == (1.0, 1.0, []), answer
