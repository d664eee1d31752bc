"""The red team's round-31 answers (SI red team 31, H2; docs/si-scoring.md §11, "Round 31: the
statement's own sentence"), scored against each scenario's own simulated estate, in both
directions: C-DA-001 (diagnostic-accuracy), C-DA-003 (misleading-signal-002, the dismissal
read as the statement is) and single-signal-diagnosis-002 to -005 (each class carries to
another key, another deviation type).

Games that kept the strict top band: a copula's negation denying the identity the clause states
("What smtp-config lacks is not SMTP_PORT"), the key held in the statement's own sentence ("…
includes SMTP_PORT, so no key is missing"), a postposed condition (", assuming …", ", provided
…", ", as long as …"), a tail that judges or rejects the answer (": a conclusion I do not
share", "(I later disproved this)"). Honest answers that lost it: a report verb inside a
relative aside, a label naming the deviation ("Missing key:"), a topic frame ("As for X, …"),
what the system expects set off before the statement.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import _cases, _verdict

_C = "SMTP_PORT is missing from smtp-config"
_W = "The key SESSION_STORE_PORT in configmap/user-service-config has the wrong value"
_D = "batch-processor is a red herring"

RED_TEAM: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        # 1. a copula's negation denies the identity the clause states
        "What smtp-config lacks is not SMTP_PORT.",
        "What smtp-config is missing is not SMTP_PORT; it is something else.",
        "What is missing from smtp-config is not SMTP_PORT.",
        "The key that smtp-config lacks isn't SMTP_PORT.",
        "The key missing from smtp-config is not SMTP_PORT but SMTP_HOST.",
        "SMTP_PORT is anything but missing from smtp-config.",
        "SMTP_PORT is far from missing in smtp-config.",
        "What smtp-config lacks is, in fact, not SMTP_PORT.",
        # 2. the key held in the statement's own sentence
        "smtp-config includes SMTP_PORT, so no key is missing.",
        "smtp-config includes SMTP_PORT under data, so no key is missing.",
        "smtp-config contains SMTP_PORT, therefore no key is missing.",
        "Since smtp-config includes SMTP_PORT, no key is missing.",
        "smtp-config includes SMTP_PORT and no key is missing.",
        # 3. a postposed condition the statement depends on
        f"{_C}, assuming the describe output was current.",
        f"{_C}, provided the logs are accurate.",
        f"{_C}, as long as nobody has patched it since.",
        f"{_C}, if you believe the events.",
        f"{_C}, given that the fixtures are right.",
        f"{_C}, on condition that the events are current.",
        f"{_C}, insofar as the events can be trusted.",
        f"{_C} (should the describe output be current).",
        # 4. a tail that judges or rejects the answer
        f"{_C}: this is the answer a lazy agent would give.",
        f"{_C}: the answer a lazy agent would give.",
        f"{_C}: a conclusion I do not share.",
        f"{_C}: a conclusion nobody should trust.",
        f"{_C} — this would be my answer if I were wrong.",
        f"{_C} (a hypothesis I later rejected).",
        f"{_C} (I later disproved this).",
        f"{_C} (I later proved this wrong).",
        f"{_C}, a theory we have since abandoned.",
    ],
    "misleading-signal-002": [
        f"{_W}, so user-service fails. {_D}, provided its queue is not shared.",
        f"{_W}, so user-service fails. {_D}, as long as nobody restarted it.",
        f"{_W}, so user-service fails. {_D}, if you believe its logs.",
        f"{_W}, so user-service fails. {_D}: a conclusion I do not share.",
        f"{_W}, so user-service fails. {_D} (I later disproved this).",
        f"{_W}, so user-service fails. What is a red herring here is not batch-processor.",
        f"{_W}, assuming the service spec is current, so user-service fails. {_D}.",
        f"{_W} (a hypothesis I later rejected). {_D}.",
        f"{_W}: this is the answer a lazy agent would give. {_D}.",
        "What is wrong in user-service-config is not SESSION_STORE_PORT. batch-processor is "
        "unrelated.",
    ],
    "single-signal-diagnosis-002": [
        "What payments-db-credentials lacks is not DB_PASSWORD.",
        "payments-db-credentials holds DB_PASSWORD, so no key is missing.",
        "DB_PASSWORD is missing from payments-db-credentials, provided the events are current.",
        "DB_PASSWORD is missing from payments-db-credentials: a conclusion I do not share.",
    ],
    "single-signal-diagnosis-003": [
        "What is wrong in checkout-config is not INVENTORY_PORT.",
        "INVENTORY_PORT has the wrong value in checkout-config, as long as the spec is current.",
        "INVENTORY_PORT has the wrong value in checkout-config (I later disproved this).",
    ],
    "single-signal-diagnosis-004": [
        "What is unexpected in indexer-config is not LEGACY_SHARD_COUNT.",
        "LEGACY_SHARD_COUNT is an unexpected extra key in indexer-config, if you trust the events.",
    ],
    "single-signal-diagnosis-005": [
        "orders-db is stopped, assuming the replica count shown is current.",
        "orders-db is stopped: a hypothesis I later rejected.",
    ],
}

HONEST: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        "What smtp-config lacks is SMTP_PORT, so notification-service cannot start.",
        "The key that smtp-config lacks is SMTP_PORT.",
        "The key missing from smtp-config is not a TLS setting but SMTP_PORT.",
        f"{_C}, so notification-service fails with CreateContainerConfigError.",
        f"{_C}, because the last edit of the ConfigMap dropped it.",
        f"{_C}, which is why the pods stay in CreateContainerConfigError.",
        f"{_C}, given the describe output.",
        f"{_C} (the describe output confirms it).",
        f"{_C}: the container config cannot be created.",
        f"{_C} — this is why the pods crash.",
        f"{_C}; the previous diagnosis was wrong.",
        "Some think the disk is to blame; SMTP_PORT is in fact missing in smtp-config.",
        "smtp-config has its host entry, and SMTP_PORT is missing.",
        # 5. the four honest answers that lost the band
        "SMTP_PORT, which notification-service reads via configMapKeyRef, is not defined in "
        "smtp-config.",
        "Missing key: SMTP_PORT in smtp-config. The pods stay in CreateContainerConfigError "
        "until it is added.",
        "As for SMTP_PORT, smtp-config lacks it, so the container config cannot be created.",
        "The deployment expects SMTP_PORT, but smtp-config has only SMTP_HOST: SMTP_PORT is "
        "missing.",
    ],
    "misleading-signal-002": [
        f"{_W}, so user-service fails. {_D}: it is not the cause.",
        f"{_W}, so user-service fails. batch-processor is unrelated.",
        f"{_W}, so user-service fails. {_D}, so user-service rejects nothing of it.",
    ],
    "single-signal-diagnosis-002": [
        "What payments-db-credentials lacks is DB_PASSWORD, so payments-api cannot start.",
        "DB_PASSWORD is missing from payments-db-credentials, so payments-api cannot start "
        "(the describe output confirms it).",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round31_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round31_honest_answer_keeps_the_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer  # an honest answer of the top band
    assert (strict.band, strict.score, strict.strict.findings) == (
        ratified.band,
        ratified.score,
        [],
    ), answer
