"""C-DA-003 (misleading-signal-002) after SI red team 45: the diagnoser's evidence with the answer
replaced. An honest sentence on the dismissed signal with "It" for subject ("It only hurts
itself.", "It can be ignored.") keeps the top band in both readings and never drops the answer
to the lowest band (F1, F2); a dismissal withdrawn by "Or so I thought" (H12) leaves it.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_v4 import _misleading_verdict

B = (
    "Root cause: the key SESSION_STORE_PORT in configmap/user-service-config has a wrong value: "
    "it is '6380' but service session-store listens on 6379, so deployment/user-service fails."
)
M = B + " batch-processor is not the cause."
TOP = "identified_misleading_plus_actual_cause"

HONEST = [
    M,
    M + " It is a red herring.",
    # F2: read as a comment on the finding, or as words governing the workload's name (0.0)
    M + " It only hurts itself.",
    M + " It just looks scary.",
    M + " It runs every night.",
    M + " It has no effect on user-service.",
    # F1: read as taking the dismissal back (0.5)
    M + " It can be ignored.",
    M + " It only coincides in time.",
    M + " It just happens to run at the same time.",
    M + " It is a nightly job and is unrelated.",
    M + " It is simply a busy neighbour.",
]

TAKEN_BACK = [
    # H12: the dismissal withdrawn with "I" for subject
    M + " Or so I thought.",
    M + " Or so I assumed.",
    M + " Or so I hoped, until I saw its CPU.",
    B + " batch-processor is not the cause, or so I thought.",
    M + " So I thought, anyway.",
    M + " That was my first guess.",
    # the harmless predicates, with more said after them
    M + " But it is the cause.",
    M + " It happens to run at the same time and is the cause.",
]


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_sentence_on_the_dismissed_signal_keeps_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert verdict.strict is not None
    assert (verdict.band, verdict.strict.band) == (TOP, TOP), verdict.strict.findings


@pytest.mark.parametrize("answer", TAKEN_BACK)
def test_a_dismissal_taken_back_leaves_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert verdict.strict is not None
    assert verdict.strict.score <= 0.5, (verdict.strict.band, verdict.strict.findings)
    assert verdict.score <= 0.5, verdict.band
