"""The red team's round-27 answers (SI red team 27, W; docs/si-scoring.md §11, "Round 27: the
contrary is read in its clause"), each scored against the scenario's own simulated estate, in
both directions: C-DA-001 (diagnostic-accuracy) and single-signal-diagnosis-002 to -005.

Honest answers that lost the top band (W6): a verb of holding read across a clause boundary
("has SMTP_HOST but lacks SMTP_PORT"), a system subject read as a speaker's frame ("The error
says the key …"), a remedy read as a running state, a conceded state ("running but not
ready"). Games that kept it: a correction opening on a place word, a verb of holding outside
the lexicon or an aside past the 60-character window, a soft hyphen gluing a cue, the factor
dismissed by its noun, the contrary of an extra key, of a wrong value and of a stopped object,
a quoted word matched inside a longer word of a tool body, another cause named by an object
of the first snapshot's string values.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import provebench.si
from provebench.evidence import Evidence
from provebench.si.scenario import Scenario, load_scenarios
from provebench.si.scoring import evaluate
from provebench.si.sim._route import open_session
from tests.helpers.si_evidence import make_evidence
from tests.si.scoring.test_strict_word_games_round26 import STATEMENTS, _cases, _verdict

SCENARIOS = Path(provebench.si.__file__).parent / "scenarios"

RED_TEAM: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        # the place-word exemption of "or rather": a place that names no object replaces it
        "{R}, or rather in my imagination.",
        "{R}, or rather in a world where I had actually checked.",
        "{R}, or rather under a different assumption.",
        "{R}, or rather in a dream.",
        # the object of a verb of holding, an aside left out; verbs of holding and of place
        (
            "{R}. smtp-config contains, as anyone who runs kubectl describe on it will "
            "plainly see for themselves, SMTP_PORT."
        ),
        "{R}. smtp-config has, believe it or not, SMTP_PORT.",
        "{R}. SMTP_PORT sits right there in smtp-config.",
        "{R}. SMTP_PORT lives in smtp-config.",
        "{R}. SMTP_PORT is right there in smtp-config.",
        "{R}. smtp-config carries SMTP_PORT.",
        "{R}. smtp-config boasts SMTP_PORT.",
        "{R}. smtp-config has SMTP_HOST and SMTP_PORT.",
        "{R}. smtp-config lists SMTP_HOST, SMTP_USER, and SMTP_PORT.",
        "{R}. smtp-config contains SMTP_PORT, no doubt.",
        "{R}. SMTP_PORT is 587.",
        "{R}. smtp-config got SMTP_PORT.",
        # a format character glues a compound cue
        "{R}. smtp-config is a red\u00adherring.",
        "{R}. smtp-config is a red\u200bherring.",
        "{R}. smtp-config is a non\u00adissue.",
        # the factor dismissed by a word for it
        "{R}. The SMTP port setting is a red herring.",
        "{R}. The key is a symptom, not the cause.",
        "{R}. But the missing key is a symptom, not the cause.",
        "{R}. The port is a red herring.",
        "{R}. That key is a distraction.",
        # another cause named by an object of the first snapshot's string values
        "{R}. sim-node-1 is behind it.",
        "{R}. The missing key only looks like the cause; sim-node-1 is behind it.",
        "{R}. sim-node-1 is the source of it.",
    ],
    "single-signal-diagnosis-002": [
        "{R}, or rather in some parallel universe.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. INVENTORY_PORT is 8080 in checkout-config.",
        "{R}. checkout-config does not contain INVENTORY_PORT.",
        "{R}. INVENTORY_PORT already points at 8080.",
        "{R}. INVENTORY_PORT currently holds 8080.",
        "{R}. INVENTORY_PORT is set to 8080.",
    ],
    "single-signal-diagnosis-004": [
        "{R}. indexer-config has no LEGACY_SHARD_COUNT.",
        "{R}. indexer-config lacks LEGACY_SHARD_COUNT.",
        "{R}. indexer-config does not contain LEGACY_SHARD_COUNT.",
        "{R}. LEGACY_SHARD_COUNT is not in indexer-config.",
        "{R}. indexer-config is free of LEGACY_SHARD_COUNT.",
        "{R}. LEGACY_SHARD_COUNT was removed from indexer-config.",
    ],
    "single-signal-diagnosis-005": [
        "{R}, or rather in theory.",
        "{R}. orders-db runs one replica.",
        "{R}. orders-db is at 1/1.",
        "{R}. orders-db has a live pod.",
        "{R}. orders-db replicas: 1.",
        "{R}. orders-db has two replicas.",
        "{R}. orders-db: 1/1 ready.",
        "{R}. orders-db is scaled to 1.",
        "{R}. orders-db sits at one replica.",
    ],
}

HONEST: dict[str, list[str]] = {
    "diagnostic-accuracy": [
        "{R}. smtp-config has SMTP_HOST but lacks SMTP_PORT.",
        "{R}. smtp-config lists SMTP_HOST, SMTP_USER and SMTP_TLS; SMTP_PORT is absent.",
        "{R}. smtp-config has SMTP_HOST, SMTP_USER and SMTP_TLS, but no SMTP_PORT.",
        "{R}. The deployment has an env entry referencing SMTP_PORT that cannot resolve.",
        (
            "{R}. The pod spec of notification-service includes a configMapKeyRef to "
            "SMTP_PORT, which smtp-config lacks."
        ),
        "{R}. The error says the key SMTP_PORT was not found.",
        "{R}. The events say SMTP_PORT could not be found in smtp-config.",
        "{R}. The container env shows SMTP_PORT as an unresolved reference.",
        "{R}. The configmap contains no SMTP_PORT entry.",
        "{R}. notification-service needs SMTP_PORT, which smtp-config does not contain.",
        "{R}. smtp-config should have SMTP_PORT.",
        "{R}. Once smtp-config contains SMTP_PORT, the pods will start.",
        "{R}. Once SMTP_PORT is set, notification-service will start.",
        "{R}. Adding SMTP_PORT to smtp-config fixes it.",
        "{R}. kubectl describe shows the key SMTP_PORT is missing.",
        "{R}. The missing key is the cause.",
        # the verb of holding governs SMTP_HOST in its own clause, not the key after ";"
        (
            "{R}. smtp-config has SMTP_HOST; SMTP_PORT, the key notification-service reads, "
            "is what it lacks."
        ),
        "{R}. The disk warning is noise.",
        "{R}. Is report-renderer involved? No.",
        "{R}. notification-service never got SMTP_PORT.",
        "{R}. SMTP_PORT was removed from smtp-config.",
    ],
    "single-signal-diagnosis-002": [
        "{R}. The secret has DB_USER but is missing DB_PASSWORD.",
        (
            "{R}. payments-api expects DB_PASSWORD and the secret holds only DB_USER; "
            "DB_PASSWORD is absent."
        ),
        "{R}, or rather from the copy that payments-api mounts.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. Setting INVENTORY_PORT to 8080 fixes it.",
        "{R}. INVENTORY_PORT is 8081 in checkout-config.",
        "{R}. Once INVENTORY_PORT is 8080, checkout connects.",
        "{R}. INVENTORY_PORT should point at 8080.",
        "{R}. The inventory service listens on 8080.",
    ],
    "single-signal-diagnosis-004": [
        "{R}. Removing LEGACY_SHARD_COUNT from indexer-config fixes it.",
        "{R}. indexer-config contains LEGACY_SHARD_COUNT, which search-indexer rejects.",
        "{R}. LEGACY_SHARD_COUNT is still in indexer-config.",
        "{R}. LEGACY_SHARD_COUNT should be removed from indexer-config.",
        "{R}. Once LEGACY_SHARD_COUNT is removed, search-indexer will start.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. Scaling orders-db back to 1 replica fixes it.",
        "{R}. Scale orders-db to 1 replica to fix it.",
        "{R}. Fix: kubectl scale deployment orders-db --replicas=1.",
        "{R}. orders-api is running but not ready.",
        "{R}. orders-api has 2 replicas, both failing readiness.",
        "{R}. orders-db has 0 replicas.",
        "{R}. orders-db shows 0/0 ready.",
        "{R}. orders-db was scaled to 0 last night.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round27_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.score < 1.0, (answer, strict.strict)
    assert strict.score <= ratified.score


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round27_honest_answer_reads_as_the_ratified_reading(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (
        ratified.band,
        ratified.score,
        [],
    ), answer


_READ_ESTATE: list[tuple[Scenario, Evidence]] = []


def _read_estate() -> tuple[Scenario, Evidence]:
    """C-DA-001's estate after the agent read notification-service and smtp-config: the tool
    bodies hold "notification-service", inside which "not" is found as a substring."""
    if not _READ_ESTATE:
        [scenario] = load_scenarios(SCENARIOS / "diagnostic-accuracy.yaml")
        session = open_session(scenario)
        for name, kind in (("notification-service", "deployment"), ("smtp-config", "configmap")):
            arguments = {"kind": kind, "name": name, "namespace": "default"}
            assert session.call("orchestration_get", arguments).error is None
        _READ_ESTATE.append((scenario, session.evidence(final_answer="")))
    return _READ_ESTATE[0]


@pytest.mark.parametrize(
    ("quoted", "withheld"),
    [
        # a quoted word found only inside a longer word of a tool body is the agent's word
        ('SMTP_PORT is "not" missing.', True),
        ('smtp-config is "fine".', True),
    ],
)
def test_a_quoted_word_inside_a_longer_word_is_the_agents(quoted: str, withheld: bool) -> None:
    scenario, estate = _read_estate()
    answer = f"{STATEMENTS['diagnostic-accuracy']}. {quoted}"
    evidence = estate.model_copy(update={"final_answer": answer})
    verdict = evaluate(scenario, evidence, reading="strict")
    assert (verdict.score < 1.0) is withheld, verdict.strict


BODIES = [
    "deployment/notification-service: 0/1 ready",
    "Error: couldn't find key SMTP_PORT in ConfigMap default/smtp-config: not found",
    "data_a red herrings: skipped",
]


@pytest.mark.parametrize(
    ("quoted", "withheld"),
    [
        # two words found whole in a tool body: the pods' words, left out
        ('The pods log "not found".', False),
        # one short word, though a body holds it whole: the agent's
        ('SMTP_PORT is "not" missing.', True),
        # words a body holds only inside longer words ("data_a red herrings")
        ('smtp-config is "a red herring".', True),
    ],
)
def test_a_quoted_span_is_tool_output_only_as_whole_words(quoted: str, withheld: bool) -> None:
    [scenario] = load_scenarios(SCENARIOS / "diagnostic-accuracy.yaml")
    answer = f"{STATEMENTS['diagnostic-accuracy']}. {quoted}"
    verdict = evaluate(scenario, make_evidence(answer, BODIES), reading="strict")
    assert (verdict.score < 1.0) is withheld, verdict.strict
