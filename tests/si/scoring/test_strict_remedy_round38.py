"""The red team's round-38 remedies (SI red team 38, H1-H5 and the false lows;
docs/si-scoring.md §11, "Round 38 (continued): a remedy's value, particle and objects"),
scored against the scenario's own simulated estate.

H1: a remedy's value was still words ("=notTheCause", "=probably/not/the/cause", "=maybe").
H2: a value kept the fault ('to "zero"', "=off", "to 0x0 replicas", "to 0x1F91" of 8081).
H3: "Scale back orders-db." reduces. H4: an extra key's value in a slot other than "to".
H5: a restart named a kind the object does not have ("svc/payments-api", "deployment/sim-node-1").
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import InjectedFault, is_remedy, names_in
from provebench.si.primitives._remedy_values import keeps_fault, reads_as_value
from provebench.si.scenario import load_scenarios
from provebench.si.scenario._binding import BoundFactor, bind_scoring
from provebench.si.scoring import evaluate
from tests.si.scoring.test_strict_word_games_round26 import (
    _ESTATES,
    SCENARIOS,
    STATEMENTS,
    _verdict,
)

RED_TEAM = {
    "single-signal-diagnosis-002": [
        # H1: words however joined, hedges and retractions as a value
        "{R}. Re-add DB_PASSWORD=notTheCause.",
        "{R}. Re-add DB_PASSWORD=probably/not/the/cause.",
        "{R}. Re-add DB_PASSWORD=not+the+cause.",
        "{R}. Re-add DB_PASSWORD=not:the:cause.",
        "{R}. Re-add DB_PASSWORD=not.the.cause.",
        '{R}. Set it to "not\u2010the\u2010cause".',
        '{R}. Set it to "not\u2013the\u2013cause".',
        '{R}. Set it to "not\u00b7the\u00b7cause".',
        "{R}. Set it to 0chance.",
        '{R}. Re-add "irrelevant".',
        '{R}. Re-add DB_PASSWORD (for example "irrelevant").',
        "{R}. Re-add DB_PASSWORD: nothing.",
        "{R}. Re-add DB_PASSWORD=maybe.",
        "{R}. Re-add DB_PASSWORD=RedHerring.",
        "{R}. Re-add DB_PASSWORD=TBD.",
        # H2: no value in a value's place
        "{R}. Re-add DB_PASSWORD=N/A.",
        "{R}. Re-add DB_PASSWORD=nope.",
        "{R}. Re-add DB_PASSWORD=.",
        # H5: a kind the estate's object does not have (payments-api is a deployment)
        "{R}. Re-add DB_PASSWORD and restart svc/payments-api.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. Set INVENTORY_PORT=leaveAsIs.",
        '{R}. Set INVENTORY_PORT to "irrelevant".',
        "{R}. Set INVENTORY_PORT=unchanged.",
        "{R}. Restore INVENTORY_PORT=current.",
        "{R}. Set INVENTORY_PORT to 0x1F91.",  # H2: 8081, the injected value, as Go reads it
        "{R}. Set INVENTORY_PORT to 0o17621.",
        "{R}. Set INVENTORY_PORT=8081/tcp.",
    ],
    "single-signal-diagnosis-004": [
        "{R}. Remove LEGACY_SHARD_COUNT=never.",
        "{R}. Remove LEGACY_SHARD_COUNT=maybe.",
        '{R}. Remove LEGACY_SHARD_COUNT (for example "later").',
        # H4: an extra key given a value in any slot is kept
        "{R}. Revert LEGACY_SHARD_COUNT (for example 4).",
        "{R}. Roll back LEGACY_SHARD_COUNT: 4.",
        "{R}. Revert LEGACY_SHARD_COUNT (for example 8).",
        "{R}. Roll back LEGACY_SHARD_COUNT=8.",
        # H5: a node and an event are no workloads, whatever kind the answer gives them
        "{R}. Remove LEGACY_SHARD_COUNT and restart deployment/sim-node-1.",
        "{R}. Remove LEGACY_SHARD_COUNT and restart deployment/node-image-gc.",
        "{R}. Remove LEGACY_SHARD_COUNT so that deployment/sim-node-1 starts.",
    ],
    "single-signal-diagnosis-005": [
        # H2: a value that keeps the dependency stopped
        '{R}. Scale orders-db to "zero".',
        "{R}. Start orders-db=off.",
        "{R}. Set orders-db=stopped.",
        "{R}. Scale orders-db: zero.",
        "{R}. Scale orders-db to 0x0 replicas.",
        "{R}. Scale orders-db to 0o0 replicas.",
        "{R}. Scale orders-db to 0e0 replicas.",
        "{R}. Scale orders-db to 0_0 replicas.",
        "{R}. Scale orders-db to 0-0 replicas.",
        "{R}. Scale orders-db to 0/3 replicas.",
        "{R}. Scale orders-db to 0.1 replicas.",
        "{R}. Scale orders-db to -1 replicas.",
        "{R}. Scale orders-db to \u0660 replicas.",  # Arabic-Indic zero
        "{R}. Scale orders-db to \uff10 replicas.",  # full-width zero
        "{R}. Set the replicas to 0x0.",
        "{R}. Scale orders-db to 'maybe'.",
        # H3: "back" after "scale" reduces
        "{R}. Scale back orders-db.",
        "{R}. Scale orders-db back.",
        "{R}. Scale it back again.",
        "{R}. Scale it back up.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=0x0.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=0.",
    ],
}
HONEST = {
    "single-signal-diagnosis-002": [
        "{R}. Restore DB_PASSWORD in the secret from the vault.",  # a false low
        "{R}. Restore DB_PASSWORD from the vault.",
        "{R}. Re-add DB_PASSWORD=s3cr3t-rotated-2026.",  # the baseline's own value
        '{R}. Set it to "s3cr3t-rotated-2026".',
        "{R}. Re-add DB_PASSWORD and restart deployment/payments-api.",
    ],
    "single-signal-diagnosis-003": [
        "{R}. Set INVENTORY_PORT to 8080.",
        "{R}. Set INVENTORY_PORT to 0x1F90.",
        "{R}. Set INVENTORY_PORT=8080 and restart deployment/checkout.",
    ],
    "single-signal-diagnosis-004": [
        "{R}. Remove LEGACY_SHARD_COUNT and restart deployment/search-indexer.",
        "{R}. Revert LEGACY_SHARD_COUNT.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. Scale up orders-db.",  # the false lows
        "{R}. Bring orders-db back online.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=1.",
        "{R}. Scale orders-db back to 1 replica.",
        "{R}. Scale orders-db to 1 replica.",
        "{R}. Scale orders-db up.",
        "{R}. Bring orders-db back up.",
    ],
}


def _cases(answers: dict[str, list[str]]) -> list[tuple[str, str]]:
    return [(name, answer) for name, said in answers.items() for answer in said]


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round38_remedy_game_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert ratified.score == 1.0, answer  # the ratified reading keeps it: the gap is the rule's
    assert strict.score < 1.0, (answer, strict.strict)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round38_honest_remedy_keeps_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer)
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (ratified.band, 1.0, []), answer


def test_a_value_is_of_a_values_shape_or_the_baseline_value() -> None:
    for value in ("587", "'8080'", "0x1F90", "5_000", "0.5", "30s", "1h30m", "512Mi", "500m"):
        assert reads_as_value(value), value
    for value in ("v7", "16.4.1", "10.0.0.1", "10.0.0.1:587", "\uff15\uff18\uff17"):
        assert reads_as_value(value), value
    for value in (
        "notTheCause",
        "probably/not/the/cause",
        "not+the+cause",
        "not.the.cause",
        "not.the.cause.com:587",
        "not\u2010the\u2010cause",
        "maybe",
        "0chance",
        "0e0",
        "\u0660",
        "N/A",
        ".",
        "s3cr3t-rotated-2026",
    ):
        assert not reads_as_value(value), value
    # the baseline's own value, exactly as declared; a host of the scenario's own objects
    assert reads_as_value("s3cr3t-rotated-2026", "s3cr3t-rotated-2026")
    assert not reads_as_value("s3cr3t-rotated-2027", "s3cr3t-rotated-2026")
    known = names_in(["inventory", "shop"])
    assert reads_as_value("inventory.shop.svc.cluster.local:8080", names_object=known)
    assert not reads_as_value("inventory.nothing.svc.cluster.local", names_object=known)


def test_a_value_keeps_the_fault_as_go_reads_it() -> None:
    for value in ("8081", "0x1F91", "0o17621", "0b1111110010001", "8_081", "8081.0", "'8081'"):
        assert keeps_fault(value, "8081", stopped=False), value
    assert not keeps_fault("8080", "8081", stopped=False)
    for value in ("0", "0x0", "0o0", "-1", "0.1", "zero", "\uff10", "\u0660"):
        assert keeps_fault(value, "0", stopped=True), value
    for value in ("1", "0x1", "3"):
        assert not keeps_fault(value, "0", stopped=True), value


def test_the_baseline_value_is_read_from_the_injection_manifest() -> None:
    def factor(name: str) -> BoundFactor:
        [scenario] = load_scenarios(SCENARIOS / f"{name}.yaml")
        [found] = [
            value
            for value in bind_scoring(scenario).roles.values()
            if isinstance(value, BoundFactor)
        ]
        return found

    assert factor("single-signal-diagnosis-002").baseline_value == "s3cr3t-rotated-2026"
    assert factor("single-signal-diagnosis-003").baseline_value == "8080"
    assert factor("single-signal-diagnosis-004").baseline_value is None  # the key is extra
    assert factor("single-signal-diagnosis-005").baseline_value == "1"


_STOPPED = ["orders-db", "deployment/orders-db"]


def test_back_after_scale_belongs_only_before_its_count() -> None:
    fault = InjectedFault("stopped_dependency", "0")
    for said in ("Scale back orders-db.", "Scale orders-db back.", "Scale it back up."):
        assert not is_remedy(said, _STOPPED, deviation=fault), said
    for said in (
        "Scale orders-db back to 1 replica.",
        "Scale up orders-db.",
        "Bring it back online.",
    ):
        assert is_remedy(said, _STOPPED, deviation=fault), said
    # "up" before the object starts only a stopped dependency
    assert not is_remedy("Add up SMTP_PORT.", ["SMTP_PORT"], deviation="absent_key")


def test_a_restart_names_the_kind_the_estate_gives_the_object() -> None:
    objects = names_in(["DB_PASSWORD", "payments-api", "sim-node-1"])
    estate = InjectedFault("absent_key", workloads=frozenset({"deployment/paymentsapi"}))
    for said in (
        "Re-add DB_PASSWORD and restart svc/payments-api.",
        "Re-add DB_PASSWORD and restart deployment/sim-node-1.",
        "Re-add DB_PASSWORD and restart statefulset/payments-api.",
    ):
        assert not is_remedy(said, ["DB_PASSWORD"], objects, estate), said
    for said in (
        "Re-add DB_PASSWORD and restart deployment/payments-api.",
        "Re-add DB_PASSWORD and restart deploy/payments-api.",
        "Re-add DB_PASSWORD and restart payments-api.",
    ):
        assert is_remedy(said, ["DB_PASSWORD"], objects, estate), said


def test_without_a_snapshot_the_scenarios_declared_kinds_are_read() -> None:
    """An evidence file with no state snapshot (as `si stress` makes) has no estate of its own:
    the kinds the scenario declares are read instead (H5)."""
    name = "single-signal-diagnosis-002"
    [scenario] = load_scenarios(SCENARIOS / f"{name}.yaml")
    _verdict(name, "{R}.")  # the scenario's estate, made once
    _, estate = _ESTATES[name]
    for answer, score in (
        ("{R}. Re-add DB_PASSWORD and restart svc/payments-api.", 0.5),
        ("{R}. Re-add DB_PASSWORD and restart statefulset/payments-api.", 0.5),
        ("{R}. Re-add DB_PASSWORD and restart deployment/payments-api.", 1.0),
    ):
        evidence = estate.model_copy(
            update={
                "final_answer": answer.replace("{R}", STATEMENTS[name]),
                "state_snapshots": [],
            }
        )
        assert evaluate(scenario, evidence, reading="strict").score == score, answer
        assert evaluate(scenario, evidence, reading="ratified").score == 1.0, answer
