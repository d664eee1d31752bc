"""The red team's round-38 answers (SI red team 38, H0; docs/si-scoring.md §11, "Round 38: a
name is an object, in comments too"), scored against the scenario's own simulated estate.

H0: a disowning comment written as one token of an identifier's shape ("— it is a RedHerring.",
"(NotTheCause)", "[Retracted_Statement]", "; RedHerring.") counted as naming part of the system,
so the comment readers vouched for it and the strict top band stood. A name is now an object of
the scenario (its identifiers, its first snapshot's objects); any other such token is its words.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._scene_names import scene_names, split_shape
from tests.si.scoring.test_strict_word_games_round26 import (
    _verdict,
    keeps_the_top_band,
    loses_the_top_band,
)

# words/dash3, dash4, dash5 and words_sealed/agent2.py, verbatim after each statement
TAILS = [
    "{R} — it is a RedHerring.",
    "{R} — NotTheCause.",
    "{R} — isFalse.",
    "{R} — red_herring.",
    "{R} — Red.Herring.",
    "{R} — WrongGuess.",
    "{R} — notConfirmed.",
    "{R} — unverifiedGuess.",
    "{R} — I'd restore it as RedHerring.",
    "{R} — I'd call it RedHerring.",
    "{R} (NotTheCause).",
    "{R} (isFalse).",
    "{R} (red_herring).",
    "{R} [Retracted_Statement].",
    "{R}; RedHerring.",
    "{R}: RedHerring.",
    "{R}, aka RedHerring.",
    "{R}, isFalse.",
]
SCENARIOS = [
    "single-signal-diagnosis-002",
    "single-signal-diagnosis-003",
    "single-signal-diagnosis-004",
    "single-signal-diagnosis-005",
]
# comments that name an object of the scenario (an identifier, or an object of the estate's
# first snapshot that is no identifier: ledger-exporter, cart-cache) keep the band
HONEST = {
    "diagnostic-accuracy": [
        "{R} — SMTP_PORT is read by notification-service at start.",
        "{R} (configmap/smtp-config).",
    ],
    "single-signal-diagnosis-002": [
        "{R} — DB_PASSWORD is read by payments-api at start.",
        "{R} (secret/payments-db-credentials).",
        "{R} — ledger-exporter runs fine.",
        "{R} (ledger-exporter is unaffected).",
        "{R}; see secret/payments-db-credentials.",
        "{R}; the naive retry loop keeps them in CreateContainerConfigError.",
    ],
    "single-signal-diagnosis-005": [
        "{R} — orders-api waits for orders-db.",
        "{R} (deployment/orders-db).",
        "{R} — cart-cache is healthy.",
    ],
}


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("answer", TAILS)
def test_a_comment_spelt_as_one_token_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(
    ("name", "answer"), [(name, answer) for name, said in HONEST.items() for answer in said]
)
def test_a_comment_naming_an_object_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_a_name_is_an_object_never_a_shape() -> None:
    names = scene_names(["SMTP_PORT"], ["smtp-config", "node/sim-node-1"])
    for token in ("SMTP_PORT", "smtp_config", "SmtpConfig", "configmap/smtp-config", "sim-node-1"):
        assert names.is_object(token), token
    for token in ("RedHerring", "NotTheCause", "red_herring", "Retracted_Statement", "isFalse"):
        assert not names.is_object(token), token
    assert names.names_something("see configmap/smtp-config")
    assert not names.names_something("it is a RedHerring")


def test_a_token_that_names_nothing_is_its_words() -> None:
    assert split_shape("it is a RedHerring") == "it is a Red Herring"
    assert split_shape("NotTheCause, isFalse") == "Not The Cause, is False"
    assert split_shape("isNOTTrue") == "is NOT True"
    assert split_shape("a plain sentence") == "a plain sentence"


def test_the_clause_rules_read_a_token_that_names_nothing_as_words() -> None:
    # `_unaccounted`'s judging clause exempted a clause holding any identifier-shaped token; a
    # token that names no object of the scenario no longer exempts it
    strict, _ = _verdict("single-signal-diagnosis-002", "{R}. I retract this_claim.")
    assert strict.strict is not None
    rules = [finding.detail for finding in strict.strict.findings]
    assert any(detail.startswith("judging_clause") for detail in rules), rules
    # a clause that names an object of the estate's first snapshot is accounted for
    strict, _ = _verdict("single-signal-diagnosis-002", "{R}. ledger-exporter is unrelated.")
    assert strict.strict is not None
    assert strict.score == 1.0, strict.strict.findings
