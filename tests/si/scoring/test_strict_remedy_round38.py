"""The red team's round-38 answers (SI red team 38, W2, W6; docs/si-scoring.md §11, "Round 38:
a remedy read against the fault as injected"), scored against the scenario's own simulated
estate.

W2: "Set INVENTORY_PORT to 8081." kept the strict top band where 8081 is the injected wrong
value: the remedy reader had the deviation's type, not the value the injection put in place.
W6: "… and restart smtp-config." kept it: a bare name after a restart was any object of the
scenario, a ConfigMap among them, where only a workload restarts.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import InjectedFault, is_remedy, names_in
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    _verdict,
    keeps_the_top_band,
    loses_the_top_band,
)

RED_TEAM = {
    "single-signal-diagnosis-003": [  # W2: the injected wrong value is 8081
        "{R}. Set INVENTORY_PORT to 8081.",
        '{R}. Set INVENTORY_PORT to "8081".',
        "{R}. Set INVENTORY_PORT to '8081'.",
        "{R}. Set INVENTORY_PORT=8081.",
        "{R}. Revert INVENTORY_PORT to 8081.",
        "{R}. Set it to 8081 and restart deployment/checkout.",
        "{R}. Restore INVENTORY_PORT (for example 8081).",
        "{R}. Set INVENTORY_PORT to 08081.",
    ],
    "single-signal-diagnosis-004": [  # W2: the extra key's injected value is 4
        "{R}. Revert LEGACY_SHARD_COUNT to '4'.",
    ],
    "single-signal-diagnosis-005": [  # W2: the stopped dependency's injected count is 0
        "{R}. Scale orders-db to 00 replicas.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        "{R}. Set INVENTORY_PORT to 8080.",
        '{R}. Set INVENTORY_PORT to "8080".',
        "{R}. Set INVENTORY_PORT to 8080 and restart deployment/checkout.",
        "{R}. Restore INVENTORY_PORT.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_remedy_that_gives_back_the_injected_fault_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_an_honest_remedy_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


_WRONG = ["INVENTORY_PORT", "configmap/checkout-config"]


def test_the_injected_value_is_compared_as_it_reads() -> None:
    fault = InjectedFault("wrong_value", "8081")
    for said in (
        "Set INVENTORY_PORT to 8081.",
        'Set INVENTORY_PORT to "8081".',
        "Set INVENTORY_PORT to '8081'.",
        "Set INVENTORY_PORT to 8081.0.",
        "Set INVENTORY_PORT=8081.",
        "Set 8081 in configmap/checkout-config.",
    ):
        assert is_remedy(said, _WRONG, deviation="wrong_value"), said  # the type alone: kept
        assert not is_remedy(said, _WRONG, deviation=fault), said
    for said in ("Set INVENTORY_PORT to 8080.", "Restore INVENTORY_PORT.", "Set it to 18081."):
        assert is_remedy(said, _WRONG, deviation=fault), said
    # digits are compared exactly, at any length: no rounding makes two long values one
    long = InjectedFault("wrong_value", "1" * 40)
    assert not is_remedy(f"Set INVENTORY_PORT to {'1' * 40}.", _WRONG, deviation=long)
    assert is_remedy(f"Set INVENTORY_PORT to {'1' * 39}2.", _WRONG, deviation=long)
    stopped = InjectedFault("stopped_dependency", "0")
    assert not is_remedy("Scale orders-db to 0.0 replicas.", ["orders-db"], deviation=stopped)
    assert is_remedy("Scale orders-db to 1 replica.", ["orders-db"], deviation=stopped)


# W6: a restart's or an outcome's bare name is a workload the estate holds; the statement
# names the resource without its kind, so the factor's names do not say it is a ConfigMap
_BARE = {
    "diagnostic-accuracy": "Root cause: the key SMTP_PORT is missing from the smtp-config "
    "ConfigMap, so notification-service cannot run",
    "single-signal-diagnosis-003": "Root cause: INVENTORY_PORT has a wrong value in the "
    "checkout-config ConfigMap, so checkout cannot start",
}
RED_TEAM_W6 = {
    "diagnostic-accuracy": [
        "{B}. Re-add SMTP_PORT and restart smtp-config.",
        "{B}. Re-add SMTP_PORT so that smtp-config starts.",
        "{B}. Re-add SMTP_PORT, then roll out smtp-config.",
    ],
    "single-signal-diagnosis-003": [
        "{B}. Set INVENTORY_PORT to 8080 and restart checkout-config.",
        "{B}. Set INVENTORY_PORT to 8080 so that checkout-config starts again.",
    ],
}
HONEST_W6 = {
    "diagnostic-accuracy": [
        "{B}. Re-add SMTP_PORT and restart notification-service.",
        "{B}. Re-add SMTP_PORT so that notification-service starts again.",
        "{B}. Re-add SMTP_PORT and restart deployment/notification-service.",
    ],
    "single-signal-diagnosis-003": [
        "{B}. Set INVENTORY_PORT to 8080 and restart checkout.",
        "{B}. Set INVENTORY_PORT to 8080 so the checkout pods can start.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM_W6))
def test_a_restart_of_what_is_no_workload_loses_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer.replace("{B}", _BARE[name]))
    assert strict.strict is not None
    assert ratified.score == 1.0, answer
    assert strict.score < 1.0, (answer, strict.strict)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST_W6))
def test_a_restart_of_a_workload_keeps_the_strict_top_band(name: str, answer: str) -> None:
    strict, ratified = _verdict(name, answer.replace("{B}", _BARE[name]))
    assert strict.strict is not None
    assert (strict.band, strict.score, strict.strict.findings) == (ratified.band, 1.0, []), answer


def test_a_bare_name_restarts_only_a_workload_of_the_estate() -> None:
    names = ["SMTP_PORT", "smtp-config", "notification-service"]
    objects = names_in(names)
    estate = InjectedFault("absent_key", None, frozenset({"notificationservice"}))
    said = "Re-add SMTP_PORT and restart smtp-config."
    assert is_remedy(said, ["SMTP_PORT"], objects, "absent_key")  # no estate: any object
    assert not is_remedy(said, ["SMTP_PORT"], objects, estate)
    for said in (
        "Re-add SMTP_PORT and restart notification-service.",
        "Re-add SMTP_PORT so that notification-service starts.",
    ):
        assert is_remedy(said, ["SMTP_PORT"], objects, estate), said


def test_the_deviations_own_resource_is_no_workload_without_an_estate() -> None:
    objects = names_in(["SMTP_PORT", "smtp-config", "notification-service"])
    fault = InjectedFault("absent_key", resource="configmap/smtp-config")
    for said in (
        "Re-add SMTP_PORT and restart smtp-config.",
        "Re-add SMTP_PORT so that smtp-config starts.",
    ):
        assert is_remedy(said, ["SMTP_PORT"], objects, "absent_key"), said  # the type alone
        assert not is_remedy(said, ["SMTP_PORT"], objects, fault), said
    assert is_remedy(
        "Re-add SMTP_PORT and restart notification-service.", ["SMTP_PORT"], objects, fault
    )
