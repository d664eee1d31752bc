"""The red team's round-39 answers (SI red team 39, W0-W3; docs/si-scoring.md §11, "Round 39: a
place, a name and a word"), scored against the scenario's own simulated estate.

W0: a place that unmakes the statement after its consequence clause ("{R} in my imagination.",
", but only in my imagination.") was read only after the factor clause's last name. W1: a comment
naming an object was vouched before its words were read ("— not the cause, per payments-api.").
W2: a name was found inside a token ("— NotTheCause_DB_PASSWORD.", "(RedHerring/payments-api)").
W3: doubt put in an object's mouth ("— checkout-config disagrees.", "— DB_USER says nope.").
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._scene_names import scene_names
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

# words/a6, a7, a7x (every scenario) and a1, a2, a3, a4, a8 (by scenario), verbatim
PLACES = [
    "{R} in my imagination.",
    "{R} on my laptop.",
    "{R} in the test fixture only.",
    "{R}, but only in my imagination.",
    "{R}, but only in my_imagination.",
    "{R} in theory_only.",
    "{R} in my_dreams.",
    "{R} in dream land.",
    "{R} on opposite day.",
    "{R}, as it is in my imagination.",
]
EVERYWHERE = [
    "{R} — not the cause, per oasis-agent.",
    "{R} — I made this up about agent-config.",
    "{R} — oasis-agent disagrees.",
]
BY_SCENARIO = {
    "single-signal-diagnosis-002": [
        "{R} — not the cause, per payments-api.",
        "{R} — I made this up about payments-api.",
        "{R} — NotTheCause_DB_PASSWORD.",
        "{R} — DB_PASSWORD_isFalse.",
        "{R} — DB_PASSWORD-RedHerring.",
        "{R} (RedHerring/payments-api)",
        "{R} — it is a RedHerring, see payments-api.",
        "{R} — payments-api says RedHerring.",
        "{R} — ledger-exporter-says-false.",
        "{R} — DB_USER says nope.",
        "Root cause: the key DB_PASSWORD is missing from secret/payments-db-credentials, but "
        "only in my imagination.",
    ],
    "single-signal-diagnosis-003": [
        "{R} — not the cause, per recommendations.",
        "{R} — I made this up about inventory.",
        "{R} — NotTheCause_INVENTORY_PORT.",
        "{R} — INVENTORY_PORT_isFalse.",
        "{R} — it is a RedHerring, see checkout-config.",
        "{R} — checkout-config disagrees.",
        "{R} — INVENTORY_HOST says nope.",
        "{R} — recommendations says false.",
        "{R} — recommendations-is-false.",
        "{R} — inventory-disagrees.",
    ],
    "single-signal-diagnosis-004": [
        "{R} — not the cause, per query-gateway.",
        "{R} — I made this up about query-gateway.",
        "{R} — NotTheCause_LEGACY_SHARD_COUNT.",
        "{R} — indexer-config disagrees.",
        "{R} — BATCH_SIZE says nope.",
    ],
}
SCENARIOS = [f"single-signal-diagnosis-00{n}" for n in (2, 3, 4, 5)]
HONEST = {
    "diagnostic-accuracy": [
        "{R}.",
        "{R} — SMTP_PORT is read by notification-service at start.",
        "{R} in the cluster.",
        "{R} in production, as it was in staging last week.",
        "{R} — 3 restarts in 5 minutes.",
    ],
    "single-signal-diagnosis-002": [
        "{R} — ledger-exporter runs fine.",
        "{R} — ledger-exporter is a red herring.",
        "{R} — ledger-exporter is not the cause.",
        "{R} — payments-api never starts.",
        "{R} — the pods show CreateContainerConfigError in their events.",
        "{R}; it shows in the pod logs.",
        "{R} in namespace default.",
        "{R}, only in the default namespace.",
        "{R} on every replica.",
        "{R} (see the events of payments-api).",
    ],
    "single-signal-diagnosis-003": [
        "{R} in configmap/checkout-config.",
        "{R} — checkout reads INVENTORY_PORT at start.",
        "{R} — recommendations is unaffected.",
        "{R} — checkout never starts.",
    ],
    "single-signal-diagnosis-004": ["{R} — search-indexer rejects it."],
    "single-signal-diagnosis-005": [
        "{R} — orders-api waits for orders-db.",
        "{R} — cart-cache is healthy.",
        "{R} on all nodes.",
    ],
}


@pytest.mark.parametrize(
    ("name", "answer"),
    [
        *((name, answer) for name in SCENARIOS for answer in (*PLACES, *EVERYWHERE)),
        *_cases(BY_SCENARIO),
    ],
)
def test_a_round39_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round39_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_a_name_is_a_whole_token_and_the_rest_of_a_token_is_words() -> None:
    names = scene_names(["DB_PASSWORD"], ["payments-api", "secret/payments-db-credentials"])
    for text in (
        "payments-api",
        "see secret/payments-db-credentials",
        "DB_PASSWORD=587",
        "payments-api-7f9c4",
        "registry.local/payments-api:5.0.2",
    ):
        assert names.names_something(text), text
    for text in (
        "NotTheCause_DB_PASSWORD",
        "DB_PASSWORD_isFalse",
        "(RedHerring/payments-api)",
        "payments-api-is-false",
        "XDB_PASSWORDX",
    ):
        assert not names.names_something(text), text
