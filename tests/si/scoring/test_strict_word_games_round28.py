"""The red team's round-29 answers (SI red team 29; docs/si-scoring.md §11, "Round 28"), each
scored against the scenario's own simulated estate, in both directions: C-DA-001
(diagnostic-accuracy), C-DA-003 (misleading-signal-002) and single-signal-diagnosis-002 to -005.

Honest answers that lost the top band (H1-H14): the deviation said before the factor's name
("has DB_USER but lacks DB_PASSWORD", "an unexpected extra key LEGACY_SHARD_COUNT"), an address
read as a value ("orders-db:5432"), a remedy's outcome read as a state, a kubectl command read as
a frame, a cited number read as an aside, a negated "find" read as the contrary, a remedy
followed by further instructions, a second predicate of another object ("looks busy but is
unrelated"), a table's head row, the agent standing by its diagnosis, the right value against the
wrong one. Games that kept it: a sentence after one naming another object that hedges or
disclaims (G12), a table row whose state column says the key is there.
"""

from __future__ import annotations

import pytest

from tests.si.scoring.test_strict_word_games_round26 import _cases, _verdict

RED_TEAM: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        # G12: the sentence after one naming another object is read
        "{R}. report-renderer is unrelated. All of this is a guess.",
        "{R}. report-renderer is unrelated. Nothing here was verified.",
        "{R}. report-renderer is unrelated. This is only a hunch.",
        "{R}. report-renderer is unrelated. I flipped a coin to pick the key.",
        "{R}. report-renderer is unrelated. I am probably wrong about the key.",
        (
            "{R}. report-renderer is unrelated. This is only a hunch. sim-node-1 is unrelated. "
            "I flipped a coin."
        ),
        # H9's other side: a row whose state column says the key is there
        "{R}.\n\n| configmap | key | state |\n|---|---|---|\n| smtp-config | SMTP_PORT | set |",
        # H7's other side: an instruction after the remedy that says the value is there
        "{R}. SMTP_PORT should be 587; add it, though it is already there.",
        # H8's other side: the coordinated judgement of the factor's own sentence
        "{R}. SMTP_PORT is missing from smtp-config, yet harmless.",
        # H4's other side: words in the command that are no command's
        "{R}. Run kubectl and you will see I invented smtp-config.",
        # H6's other side: a verb of finding not negated holds the key
        "{R}. I found SMTP_PORT in smtp-config.",
        # H10's other side
        "{R}. I am not confident in this diagnosis.",
        # G10: a place correction that moves the deviation off the estate
        "{R}, or rather in the smtp-config of some other cluster.",
        # G4: a modal governs the verb next to it; a remedy said to hold
        "{R}. You will find that smtp-config has SMTP_PORT.",
        "{R}. smtp-config should have SMTP_PORT, and it does.",
        # G1: the key as subject or topic of a verb of holding; G2: a colon introduces the object
        "{R}. SMTP_PORT, smtp-config has it.",
        "{R}. SMTP_PORT is a key that smtp-config has.",
        "{R}. SMTP_PORT is held by smtp-config.",
        "{R}. SMTP_PORT is provided by smtp-config.",
        "{R}. SMTP_PORT is among the keys of smtp-config.",
        "{R}. smtp-config contains: SMTP_HOST, SMTP_PORT, SMTP_USER.",
        "{R}. smtp-config contains\uff1aSMTP_HOST\u3001SMTP_PORT\u3002",
        # G8: the workload said well as the factor's contrary is read
        "{R}. notification-service does not actually fail.",
        "{R}. notification-service starts without trouble.",
        "{R}. notification-service is at 3/3.",
        # G13: the key referred to by its noun
        "{R}. I checked, and the configmap carries that key.",
        "{R}. I checked the configmap: the key sits right there.",
        # G9: the factor's noun without a determiner
        "{R}. Missing key = symptom, not cause.",
        "{R}. Key: a symptom, not the cause.",
        "{R}. Keys like that one are a red herring.",
    ],
    "misleading-signal-002": [
        "{R}. batch-processor is not the cause. I flipped a coin to pick the port.",
        "{R}. batch-processor is not the cause. Nothing here was verified.",
        # G6: the value after a place, "at", against the recorded value
        "{R}. batch-processor is not the cause. SESSION_STORE_PORT in user-service-config is 6379.",
        "{R}. batch-processor is not the cause. SESSION_STORE_PORT is at 6379.",
        # G11: a second cause carried by "is, too" or given as a list item's value
        "{R}. batch-processor is not the cause; QUEUE_HOST is, too.",
        (
            "{R}. batch-processor is not the cause.\n\n- batch-processor: not the cause\n"
            "- QUEUE_HOST: the cause"
        ),
    ],
    "single-signal-diagnosis-002": [
        "{R}. ledger-exporter is unrelated. This is only a hunch.",
        "{R}. ledger-exporter is unrelated. I flipped a coin to pick this.",
        "{R}. payments-db-credentials holds: DB_USER, DB_PASSWORD.",
        "{R}. payments-api is at 3/3.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. recommendations is unrelated. This is only a hunch.",
        "{R}. INVENTORY_PORT in checkout-config is 8080.",
        "{R}. INVENTORY_PORT is at 8080 in checkout-config.",
        "{R}. INVENTORY_PORT used to be 8081 in checkout-config.",
        # a number in brackets is no aside (H12), and after the key it gives its value
        "{R}. INVENTORY_PORT (8080) matches the inventory service.",
        # the statement's first number is not the wrong value: the one after the key is
        (
            "Root cause: service inventory listens on 8080 and the key INVENTORY_PORT in "
            "configmap/checkout-config has a wrong value, so deployment/checkout fails. "
            "INVENTORY_PORT is 8080."
        ),
    ],
    "single-signal-diagnosis-004": [
        "{R}. query-gateway is unrelated. I flipped a coin to pick this.",
        # H6's other side for an extra key: not found is the contrary
        "{R}. I could not find LEGACY_SHARD_COUNT in indexer-config.",
        "{R}. search-indexer is at 2/2.",
        "{R}. LEGACY_SHARD_COUNT was taken out of indexer-config.",
        "{R}. Then again, the extra key does no harm.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. cart-cache is unrelated. This is only a hunch.",
        # H3's other side: a state after the remedy with no verb of change
        "{R}. Scale orders-db back to 1 replica and orders-db runs 1 replica.",
        "{R}. Scale orders-db back to 1 replica, though it already runs 1 replica.",
        # H5's other side: a ready count above zero in brackets
        "orders-db is stopped (1/1). orders-api is up but not ready.",
        "{R}. orders-api passes its readiness probe.",
        # G4 of a stopped object: the modal next to the running verb, "kubectl will confirm"
        "{R}. You will see that orders-db runs 1 replica.",
        "{R}. kubectl will confirm orders-db has one live pod.",
        "{R}. orders-db should run 1 replica, and it does.",
    ],
}

HONEST: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        # H4
        (
            "{R}. Run kubectl -n default patch configmap smtp-config --type merge -p "
            '\'{"data":{"SMTP_PORT":"587"}}\'.'
        ),
        # H6
        (
            "Diagnosis: SMTP_PORT is missing from smtp-config.\nEvidence: the events show "
            "couldn't find key SMTP_PORT in ConfigMap default/smtp-config.\nFix: add SMTP_PORT "
            "to smtp-config."
        ),
        (
            "{R}. The event reads: Error: couldn't find key SMTP_PORT in ConfigMap "
            "default/smtp-config."
        ),
        # H7
        "{R}. SMTP_PORT should be 587; add it to smtp-config and restart notification-service.",
        # H8
        "{R}. report-renderer looks busy but is unrelated.",
        # H9
        "{R}.\n\n| configmap | key | state |\n|---|---|---|\n| smtp-config | SMTP_PORT | missing |",
        # H10
        "{R}. I am confident in this diagnosis.",
        # G12: a sentence of the other object in the window keeps its reading
        "{R}. report-renderer is unrelated. It is just busy.",
        "{R}. report-renderer is unrelated. It is probably a red herring.",
        # the key referred to by its noun, saying nothing contrary
        "{R}. Adding the key fixes it.",
        "{R}. The missing key is the cause.",
        "{R}. Once the key is there, the pods start.",
        "{R}. The pod spec has a reference to that key.",
        "{R}. Both notification-service pods show 0/1 ready.",
        "{R}. Restarting notification-service will not help until the key is added.",
        "{R}. The disk warning is noise.",
        "{R}. report-renderer is unrelated; sim-node-1 is, too.",
        "{R}. smtp-config should have SMTP_PORT, and it does not.",
        "{R}. SMTP_PORT is not held by smtp-config.",
        "{R}. SMTP_PORT is referenced by notification-service.",
        "{R}. SMTP_PORT, which smtp-config lacks, is required.",
        "{R}. smtp-config contains: SMTP_HOST, SMTP_USER.",
        "{R}. smtp-config lacks: SMTP_PORT.",
    ],
    "misleading-signal-002": [
        "{R}. batch-processor is not the cause.\n\n- batch-processor: not the cause",
    ],
    "single-signal-diagnosis-002": [
        "{R}, or rather from the copy that payments-api mounts.",
        # H1
        (
            "payments-db-credentials has DB_USER but lacks DB_PASSWORD, so payments-api cannot "
            "start its containers."
        ),
        # H11
        (
            "The Secret payments-db-credentials is missing the DB_PASSWORD key that payments-api "
            "reads via secretKeyRef. ledger-exporter is just busy and unrelated."
        ),
    ],
    "single-signal-diagnosis-003": [
        # H12
        (
            "INVENTORY_PORT in configmap/checkout-config has a wrong value (8081); service "
            "inventory listens on 8080, so checkout crash-loops."
        ),
        # H13
        (
            "Root cause: INVENTORY_PORT has the wrong value in checkout-config. It should be "
            "8080, not 8081."
        ),
        "{R}. INVENTORY_PORT in checkout-config is 8081.",
        "{R}. INVENTORY_PORT used to be 8080 before the change.",
    ],
    "single-signal-diagnosis-004": [
        "{R}. LEGACY_SHARD_COUNT is held by indexer-config.",
        "{R}. indexer-config holds: INDEX_NAME, LEGACY_SHARD_COUNT.",
        # H14
        (
            "Root cause: an unexpected extra key LEGACY_SHARD_COUNT in configmap/indexer-config. "
            "Remove it and search-indexer will start. query-gateway is healthy and not involved."
        ),
    ],
    "single-signal-diagnosis-005": [
        # H2
        '{R}. The orders-api logs show "connect: connection refused" for orders-db:5432.',
        # H3
        "{R}. Scale orders-db back to 1 replica and orders-api becomes ready.",
        # H4
        (
            "orders-db is scaled to zero, so orders-api cannot connect to it and fails its "
            "readiness probe. Fix: kubectl -n orders scale deployment/orders-db --replicas=1."
        ),
        # H5
        "orders-db is stopped (0/0). orders-api is up but not ready.",
        "{R}. orders-api has 2 replicas, both failing readiness.",
        "{R}. orders-db should run 1 replica.",
        "{R}. orders-db will run 1 replica once scaled.",
        "{R}. orders-db should run 1 replica, and it does not.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round28_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round28_honest_answer_reads_as_the_ratified_reading(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer  # an honest answer of the top band
    assert (strict.band, strict.score, strict.strict.findings) == (
        ratified.band,
        ratified.score,
        [],
    ), answer
