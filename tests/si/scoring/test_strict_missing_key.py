"""The strict reading's own spelling of an absent key, "R has no K key" (SI red team 33; docs/
si-scoring.md §11, "Round 33: 'has no K key'").

The honest "…because secret/payments-db-credentials has no DB_PASSWORD key" scored 0.5 in both
readings: SI §3.3's `absent_key` list reads "no key" only as two adjacent words. The ratified
reading keeps the normative list (its verdict does not change); the strict reading reads the
shape as the deviation's phrase, and reads it as it reads every phrase — negated, hedged,
questioned or disowned, it does not commit.
"""

from __future__ import annotations

import pytest

from provebench.si.scenario._binding import bind_scoring
from provebench.si.scoring._evaluate import Prepared, decide_both
from tests.si.scoring.test_strict_word_games_round26 import _ESTATES, _verdict

_R = "secret/payments-db-credentials"

SPELT = [
    f"payments-api cannot start because {_R} has no DB_PASSWORD key.",
    f"{_R} has no DB_PASSWORD key.",
    f"Root cause: {_R} contains no `DB_PASSWORD` entry, so payments-api cannot start.",
    f"The Secret {_R} holds no such DB_PASSWORD value; payments-api needs it.",
]

# the same shape that does not commit, and shapes that are no absent key of the factor
NOT_COMMITTED = [
    f"It is not true that {_R} has no DB_PASSWORD key.",
    f"Maybe {_R} has no DB_PASSWORD key.",
    f"Does {_R} have no DB_PASSWORD key?",
    f"{_R} has no DB_PASSWORD key — a hypothesis I could not confirm.",
    f"{_R} has no DB_USER key.",  # another key
    f"{_R} has no problem with DB_PASSWORD.",  # no key noun after the name
    f"{_R} has DB_PASSWORD.",
]


@pytest.mark.parametrize("answer", SPELT)
def test_has_no_key_reaches_the_strict_top_band_and_leaves_the_ratified_verdict(
    answer: str,
) -> None:
    strict, ratified = _verdict("single-signal-diagnosis-002", answer)
    assert strict.strict is not None
    assert (ratified.band, ratified.score) == ("correct_subsystem_wrong_component", 0.5)
    assert (strict.band, strict.score, strict.strict.findings) == ("correct_root_cause", 1.0, [])
    assert strict.strict.same_as_ratified is False


@pytest.mark.parametrize("answer", NOT_COMMITTED)
def test_the_shape_that_does_not_commit_stays_below_the_top_band(answer: str) -> None:
    strict, ratified = _verdict("single-signal-diagnosis-002", answer)
    assert strict.score < 1.0, (answer, strict.strict)
    assert ratified.score < 1.0


@pytest.mark.parametrize("answer", [*SPELT, *NOT_COMMITTED])
def test_a_batch_decides_the_row_the_full_reading_does(answer: str) -> None:
    # `decide_both` skips the strict pass where no ratified factor call held: the strict
    # reading's own spelling must not be skipped there
    strict, ratified = _verdict("single-signal-diagnosis-002", answer)
    scenario, estate = _ESTATES["single-signal-diagnosis-002"]
    evidence = estate.model_copy(update={"final_answer": answer})
    rows = decide_both(Prepared(bind_scoring(scenario)), scenario, evidence)
    assert (rows[0].band, rows[1].band) == (ratified.band, strict.band)


def test_only_an_absent_key_is_read_in_this_spelling() -> None:
    # a wrong value said with "has no … value" is no absent key (single-signal-diagnosis-003)
    answer = "checkout-config has no INVENTORY_PORT value."
    strict, ratified = _verdict("single-signal-diagnosis-003", answer)
    assert strict.score == ratified.score
