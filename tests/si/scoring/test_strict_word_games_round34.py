"""The red team's round-34 answers (SI red team 34, H3 and H4; docs/si-scoring.md §11, "Round 34:
a hedge that names a part, a remedy"), scored against the scenario's own simulated estate.

H3: a hedging comment ("could be another service entirely", "though it might be the node") was
vouched as a locus because it named a part of the system, and a tail joined by a space, an
ellipsis or an emoticon (`…run…not!`, `;)`, `lol`) was read as no comment at all; each kept the
strict top band. H4: an honest remedy after the diagnosis ("Re-add SMTP_PORT=587.", "Fix: add it
back.") was read as a contradiction or a comment and lost it.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import _verdict

_C = (
    "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot run"
)

# H3: the red team's hedges and markers, verbatim (a80_strict s01/s02/s03/s06, the markers)
HEDGES = [
    f"{_C}, could be another service entirely.",
    f"{_C}, could be a different deployment.",
    f"{_C}, though it might be the node.",
    f"{_C}; might equally be some other configmap.",
    f"{_C}…not!",
    f"{_C}...not!",
    f"{_C} not!",
    f"{_C} ;)",
    f"{_C} ;-)",
    f"{_C} :P",
    f"{_C} xD",
    f"{_C} *wink*",
    f"{_C} lol",
    f"{_C} lmao",
    f"{_C} rofl",
    f"{_C} haha",
    f"{_C} heh",
    f"{_C} Kappa",
    # the same shapes in other spellings
    f"{_C} — may be the node instead.",
    f"{_C}, although it could be the secret.",
    f"{_C} (might be the database).",
    f"{_C}… or the pods, who knows",
    # a hedge that ends on a name of the scenario, which moves the statement's end past it
    f"{_C}, could be another service than notification-service.",
    f"{_C} — might not be smtp-config at all.",
    f"{_C} — the fault may well lie outside smtp-config.",
]

# H4: an honest remedy after the diagnosis (a80_strict hon/i), and the controls
REMEDIES = [
    f"{_C}. Re-add SMTP_PORT=587.",
    f"{_C}. I recommend re-adding SMTP_PORT=587.",
    f"{_C}. Fix: add it back.",
    f"{_C} — I'd restore it from git.",
    f"{_C} — happy to apply the fix if you want.",
    f"{_C}. Restore SMTP_PORT=587 in smtp-config.",
    f"{_C}. Set SMTP_PORT=587 again and restart the pods.",
    f"{_C}. I suggest adding SMTP_PORT=587 back.",
    f"{_C}. Fix: add SMTP_PORT back to smtp-config and restart the deployment.",
    f"{_C}. I can apply the fix if you want.",
    f"{_C}.",
]


# a remedy that takes the statement back is no plain remedy: read by the rules as before
NOT_A_REMEDY = [
    f"{_C}. Restore SMTP_PORT=587, it is already there.",
    f"{_C}. Re-add SMTP_PORT=587 if it were missing, which it isn't.",
    f"{_C}. Re-add SMTP_PORT=587 lol",
    f"{_C}. Re-add SMTP_PORT=587. SMTP_PORT is set.",
]


@pytest.mark.parametrize("answer", HEDGES)
def test_a_hedge_or_marker_loses_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize("answer", REMEDIES)
def test_an_honest_remedy_keeps_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer
    assert (strict.band, strict.score, strict.strict.findings) == (
        ratified.band,
        1.0,
        [],
    ), answer


@pytest.mark.parametrize("answer", NOT_A_REMEDY)
def test_a_remedy_that_takes_the_statement_back_loses_the_strict_top_band(answer: str) -> None:
    strict, ratified = _verdict("diagnostic-accuracy", answer)
    assert strict.strict is not None
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score
