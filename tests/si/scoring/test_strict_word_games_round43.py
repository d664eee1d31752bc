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

from tests.si.scoring.test_strict_word_games_round26 import _verdict

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
