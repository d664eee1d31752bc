"""Word games on C-DA-003 (misleading-signal-002) that an independent red team tried: the
diagnoser's evidence (the misleading signal read, the factor read) with the answer replaced. A
dismissal of the misleading signal that is taken back, turned into its endorsement, or said of
the wrong thing must not reach the top band under the strict reading; the honest dismissal
does. A doubted dismissal ("I doubt batch-processor is a red herring") and a finding rejected by
its own sentence ("…, dismissing that as the reason") reached it until `provebench-strict/5` read
them by class; the honest counterparts beside them must keep it.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_v4 import _misleading_verdict

CAUSE_CLAUSE = "The key SESSION_STORE_PORT in configmap/user-service-config has the wrong value"
CAUSE = CAUSE_CLAUSE + ", so user-service fails."
HONEST = CAUSE + " batch-processor is a red herring: it is not the cause."

GAMES = [
    "batch-processor is the problem. " + CAUSE,  # the misleading signal endorsed outright
    CAUSE + " batch-processor is the real cause; its unrelatedness is a myth.",
    CAUSE + " batch-processor is a red herring. Just kidding, it is what actually broke things.",
    CAUSE + " Contrary to appearances batch-processor is not a distraction at all.",
    CAUSE + " batch-processor is a red herring. Also, session-store has the wrong value too.",
    # a doubt or denial verb governing the dismissal phrase, as it governs a deviation phrase
    CAUSE + " I doubt batch-processor is a red herring.",
    CAUSE + " I dispute that batch-processor is unrelated.",
    CAUSE + " I doubt that batch-processor is not the cause.",
    # a verb of rejection aimed back at the finding in its own sentence withholds the finding
    CAUSE_CLAUSE + ", dismissing that as the reason. batch-processor is a red herring.",
    CAUSE_CLAUSE + ", ruling that out. batch-processor is a red herring.",
    CAUSE_CLAUSE + ", which I reject. batch-processor is a red herring.",
    CAUSE_CLAUSE + ", and we have since set that aside. batch-processor is a red herring.",
    CAUSE_CLAUSE + ", so user-service fails, which we ruled out. batch-processor is a red herring.",
]


# Honest counterparts of the games: the same cue words beside the dismissal, not governing it.
HONEST_ANSWERS = [
    HONEST,
    # the doubt is about something else, in a clause of its own
    "I doubt the CPU matters: batch-processor is a red herring, " + CAUSE[0].lower() + CAUSE[1:],
    # the verb of rejection has an object of its own, or a subject that is not the agent
    CAUSE_CLAUSE + ", ruling out the CPU spike. batch-processor is a red herring.",
    CAUSE_CLAUSE + ", ruling out that the CPU is involved. batch-processor is a red herring.",
    CAUSE_CLAUSE + ", so user-service rejects it. batch-processor is a red herring.",
]


@pytest.mark.parametrize("answer", HONEST_ANSWERS)
def test_the_honest_dismissal_keeps_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert verdict.strict is not None
    assert (verdict.band, verdict.strict.band, verdict.strict.score) == (
        "identified_misleading_plus_actual_cause",
        "identified_misleading_plus_actual_cause",
        1.0,
    )


@pytest.mark.parametrize("answer", GAMES)
def test_a_dismissal_taken_back_or_misplaced_does_not_reach_the_top_band(answer: str) -> None:
    verdict = _misleading_verdict(answer)
    assert verdict.strict is not None
    assert verdict.strict.score <= 0.5, (verdict.strict.band, verdict.strict.findings)
