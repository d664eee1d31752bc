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

from tests.si.scoring.test_strict_word_games_round26 import _verdict

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
