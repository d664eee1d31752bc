"""The red team's round-33 answers (SI red team 33, A8; docs/si-scoring.md §11, "Round 33: an
attached comment"), scored against each scenario's own simulated estate, in both directions.

The honest statement followed by a longer comment that disowns it — a dash tail, a parenthesis,
an appositive — kept the strict top band wherever no word list named its words (10 of the red
team's 80 variants). Under the strict reading an attached comment now commits only where it is
recognisably neutral or supportive (`_attached_comment._vouched`); the test is its shape, so the
red team's ten and new spellings of the same shape are withheld alike, and honest comments that
name, cite, count or speak of a part of the system keep the band.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import _cases, _verdict

_S = "Root cause: the key DB_PASSWORD is missing from secret/payments-db-credentials"
_C = "SMTP_PORT is missing from smtp-config"
_O = "orders-db is stopped in the cluster"

# the red team's ten, verbatim (a8/v3.json, a8/v4.json)
RED_TEAM = [
    f"{_S} — a hypothesis I could not confirm.",
    f"{_S} — speculation on my part.",
    f"{_S} — a claim I cannot back up.",
    f"{_S} — evidence for this is nil.",
    f"{_S} — not something I can confirm.",
    f"{_S} — a placeholder until someone checks.",
    f"{_S} (per a Slack rumour).",
    f"{_S} — the opposite of what I found.",
    f"{_S} — this needs confirmation from someone with access.",
    f"{_S} — low confidence, could easily be wrong.",
]

# the same shapes in other spellings, joints and scenarios
VARIANTS: dict[str, list[str]] = {
    "single-signal-diagnosis-002": [
        f"{_S}, a hypothesis I could not confirm.",
        f"{_S}; speculation on my part.",
        f"{_S}, evidence for this is nil.",
        f"{_S}; a placeholder until someone checks.",
        f"{_S}: not something I can confirm.",
        f"{_S} — speculation about the config.",
        f"{_S} — evidence for this in the pods is nil.",
        f"{_S} — not a guess, I checked nothing.",
        f"{_S} — 0 sources for this.",
        f"{_S} (probability 0.05 at most, honestly).",
        f"{_S}, so payments-api cannot start — a theory nobody tested.",
        f"{_S} -> a figment of the imagination.",
    ],
    "diagnostic-accuracy": [
        f"{_C} — a reading nobody has reproduced.",
        f"{_C} (as heard in the hallway today).",
        f"{_C}, a figment of the imagination.",
    ],
    "single-signal-diagnosis-005": [
        f"{_O} — a hypothesis I could not confirm.",
        f"{_O}, speculation on my part.",
    ],
}

# honest comments attached to the statement: a locus, the evidence, a quantity, a part of the
# system, a consequence, a check, an example, a clause of its own
HONEST: dict[str, list[str]] = {
    "single-signal-diagnosis-002": [
        f"{_S} — so the container cannot start.",
        f"{_S} — 3 restarts in 5 minutes.",
        f"{_S} (the describe output shows it).",
        f"{_S} — the pods never start.",
        f"{_S} — no other key is.",
        f"{_S} — not a guess, I checked.",
        f"{_S} — this is why the pods crash.",
        f"{_S} (the pod spec requires it).",
        f"{_S} — payments-api reads it at start-up.",
        f"{_S} (see `kubectl get secret payments-db-credentials -o yaml`).",
        f"{_S}; the previous diagnosis was wrong.",
        f"{_S}, ruling out the CPU spike.",
        f"{_S}; it should be present.",
        f"{_S}: dropped in the last rotation.",
        f"{_S} (for example after the last deploy).",
    ],
    "single-signal-diagnosis-005": [
        f"{_O} — not a guess: I read the cluster.",
        "orders-db — the database of the shop — is stopped.",
    ],
}

# what the rule costs: honest comments that name, cite and count nothing and open on no part
# of the system lose the strict top band (docs/si-scoring.md §11, "Round 33", limits)
COST = [
    f"{_C} (not optional in the pod spec).",
    f"{_C} — a common slip after a rotation.",
]


@pytest.mark.parametrize("answer", RED_TEAM)
def test_the_red_teams_attached_comment_loses_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("single-signal-diagnosis-002", answer)
    assert strict.strict is not None
    assert (ratified.band, ratified.score) == ("correct_root_cause", 1.0)  # ratified unchanged
    assert strict.score < 1.0, answer
    assert any("attached comment" in finding.detail for finding in strict.strict.findings)


@pytest.mark.parametrize(("name", "answer"), _cases(VARIANTS))
def test_an_attached_comment_of_the_same_shape_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_an_honest_attached_comment_keeps_the_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer
    assert (strict.band, strict.score, strict.strict.findings) == (
        ratified.band,
        1.0,
        [],
    ), answer


@pytest.mark.parametrize("answer", COST)
def test_an_unrecognised_honest_comment_is_withheld(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert ratified.score == 1.0
    assert strict.score < 1.0
    assert any("attached comment" in finding.detail for finding in strict.strict.findings)
