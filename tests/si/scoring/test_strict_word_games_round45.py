"""The red team's round-45 comments and tails on the statement (SI red team 45, H10, H11 and F9;
docs/si-scoring.md §11, "Round 45"), scored against the scenario's own simulated estate, in
both directions: each attack below the strict top band, each honest answer at it.

H10: the failing workload said to work through a negated failure word ("— checkout is not
failing.", "— checkout has no errors.") kept the top band where "— checkout is up." did not.
H11: a zero count or duration ("(0 pods affected)", ", for the last 0 minutes") passed as an
honest tail, and an upstream said to be healthy with words that take in the workload ("…
and so are its clients", "everything else"). F9: the honest counts "(3/3 pods failing)" and
"(all 3 pods affected)" lost the band.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import _cases, _verdict, loses_the_top_band
from tests.si.scoring.test_strict_word_games_round44 import KEY_ONLY, SSD3

RED_TEAM: dict[str, list[str]] = {
    SSD3: [
        # H10
        KEY_ONLY + " — checkout is not failing.",
        KEY_ONLY + " — checkout has no errors.",
        KEY_ONLY + " — checkout is unaffected.",
        KEY_ONLY + " — checkout never crashed.",
        KEY_ONLY + " — checkout is not down.",
        # H11: a zero count or duration
        KEY_ONLY + " (0 pods affected).",
        KEY_ONLY + " (0 replicas failing).",
        KEY_ONLY + " (0 containers down).",
        KEY_ONLY + ", for the last 0 minutes.",
        KEY_ONLY + " (0/3 pods failing).",
        # H11: the upstream's health said of more than the upstream
        KEY_ONLY + ". inventory itself is healthy and so are its clients.",
        KEY_ONLY + ". inventory itself is healthy, like the rest of the cluster.",
        KEY_ONLY + ". inventory and everything else is healthy.",
        # H11: the clause after a confidence is read
        KEY_ONLY + ", 100% sure checkout works.",
        KEY_ONLY + ", 100% sure checkout is fine.",
    ],
}
HONEST: dict[str, list[str]] = {
    SSD3: [
        # F9
        KEY_ONLY + " (3/3 pods failing).",
        KEY_ONLY + " (all 3 pods affected).",
        KEY_ONLY + " (3 of 3 pods failing).",
        # round 44's honest tails and comments, kept
        KEY_ONLY + " (3 pods crashing).",
        KEY_ONLY + ", for the last 40 minutes.",
        KEY_ONLY + ", 100% sure.",
        KEY_ONLY + ", 100% sure checkout keeps crashing.",
        KEY_ONLY + " — checkout pods are in CrashLoopBackOff.",
        KEY_ONLY + " — checkout keeps crashing.",
        KEY_ONLY + ". inventory itself is healthy.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round45_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round45_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.score, ratified.score, strict.strict.findings) == (1.0, 1.0, []), answer
