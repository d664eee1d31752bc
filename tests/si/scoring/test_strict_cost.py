"""The strict reading is linear in the answer's size, by operation counts (issue 41,
"Performance"): ten times the answer costs less than fifteen times the calls.

Calls — every Python function and every built-in or pattern method called while a verdict is
made, counted with `sys.setprofile` — are the same on a loaded machine and a quiet one, so the
bound cannot flake. Work that stays inside one call (a pattern scanning more text) is not
counted here; the CPU-time tests in test_strict_reading.py and test_strict_word_games_v5.py
bound it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scoring import evaluate
from tests.helpers.si_evidence import make_evidence

SCENARIO = load_scenarios(
    Path(provebench.si.__file__).parent / "scenarios" / "diagnostic-accuracy.yaml"
)[0]
TOOL_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"


def calls_made(action: Callable[[], object]) -> int:
    count = 0

    def counted(_frame: FrameType, event: str, _argument: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(counted)
    try:
        action()
    finally:
        sys.setprofile(None)
    return count


PIECES = {
    # every phrase withheld: the pair rule reads each one (no asserted pair ends its search)
    "every-phrase-withheld": (
        "SMTP_PORT is not missing. Is SMTP_PORT missing? If SMTP_PORT were missing, "
        "notification-service would crash. SMTP_PORT might be missing, I guess. "
    ),
    # an asserted factor, then denials, questions, conditions, hedges and other identifiers
    "asserted-then-withheld": (
        "SMTP_PORT is missing from smtp-config. SMTP_HOST is not wrong or unexpected? "
        "If smtp-config lacks it, maybe report-renderer is the root cause. "
    ),
    # the word-game rules: governing cues, a retraction, an ellipsis, an antonym, a non-answer
    "word-games": (
        "I doubt SMTP_PORT is missing; whether or not it is missing, it is what brings the "
        "pods down. Actually, scratch that. SMTP_HOST too. Correction: it is present. "
        "I could not determine the root cause. "
    ),
    # the commitment rules (round 12): alternatives after "or", reversals, counterfactuals
    "commitment-games": (
        "SMTP_PORT, or SMTP_HOST, is missing from smtp-config. Or report-renderer is. "
        "SMTP_PORT is missing — unless SMTP_HOST is, except that it is not. "
        "SMTP_PORT is missing, or so I would say if I had checked. "
    ),
    # markup and text beyond ASCII (the cue tests do not judge "ı"), on one line
    "markup-one-line": (
        "**SMTP_PORT** is missing — not, said nobody; <!-- SMTP_HOST is missing --> "
        "`smtp-config` lacks it, ıt seems, or so the alert claims, "
    ),
}


@pytest.mark.parametrize("piece", list(PIECES.values()), ids=list(PIECES))
def test_ten_times_the_answer_costs_less_than_fifteen_times_the_calls(piece: str) -> None:
    def verdict_calls(repeats: int) -> int:
        evidence = make_evidence(piece * repeats, [TOOL_BODY])
        evaluate(SCENARIO, evidence)  # warm: the cue lists compiled, the patterns cached
        return calls_made(lambda: evaluate(SCENARIO, evidence))

    small, large = verdict_calls(12), verdict_calls(120)
    assert large < 15 * small, (small, large)


def test_the_count_sees_a_reading_that_is_not_linear() -> None:
    # the bound above can fail: a reading that reads every sentence once per phrase is caught
    def quadratic(repeats: int) -> int:
        text = "SMTP_PORT is missing. " * repeats

        def read() -> None:
            for _phrase in range(repeats):
                for sentence in text.split(". "):
                    sentence.strip()

        return calls_made(read)

    assert quadratic(120) > 15 * quadratic(12)


def test_a_strict_decision_leaves_no_cyclic_garbage() -> None:
    # a batch decides a hundred thousand lines: readings that referred back to their reader
    # would each wait for the cyclic collector, whose runs then cost more than the reading
    import gc

    from provebench.si.scenario._binding import bind_scoring
    from provebench.si.scoring._evaluate import Prepared, decide_both

    prepared = Prepared(bind_scoring(SCENARIO))
    answers = [piece * 3 for piece in PIECES.values()]
    answers.append("The ConfigMap smtp-config is missing the SMTP_PORT key. It is not set.")
    evidence = [make_evidence(answer, [TOOL_BODY]) for answer in answers]
    for each in evidence:
        decide_both(prepared, SCENARIO, each)  # warm: the profile's lists loaded once
    gc.collect()
    gc.disable()
    try:
        for each in evidence:
            decide_both(prepared, SCENARIO, each)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_withdrawal_word_checks_are_made_once_per_answer() -> None:
    # two rules read the answer's withdrawals (the pair's withdrawal test and the joined
    # alternatives); the words their scans need are looked for once per answer text, not per rule
    from provebench.si.primitives import _withdrawals
    from provebench.si.scenario._binding import bind_scoring
    from provebench.si.scoring._evaluate import Prepared, decide_both

    prepared = Prepared(bind_scoring(SCENARIO))
    answer = "The ConfigMap smtp-config is missing the SMTP_PORT key, so the pods crash."
    evidence = make_evidence(answer, [TOOL_BODY])
    decide_both(prepared, SCENARIO, make_evidence("SMTP_PORT is missing.", [TOOL_BODY]))
    _withdrawals._may_hold.cache_clear()
    decide_both(prepared, SCENARIO, evidence)
    checks = _withdrawals._may_hold.cache_info()
    assert (checks.misses, checks.hits) == (1, 1), checks
