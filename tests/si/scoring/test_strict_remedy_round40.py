"""The red team's round-40 remedies (SI red team 40, H5, L1, H1; docs/si-scoring.md §11, "Round
40: a remedy's value is the declared baseline"), scored against the scenario's own estate.

H5: a value of the factor's type that is neither the injected one nor the declared baseline
("Set INVENTORY_PORT to 443." of a baseline 8080) kept the strict top band. L1: "kubectl scale
deployment orders-db --replicas=1" (KIND NAME) or with "-n orders" lost it. H1: a kubectl
scale keeping the fault ("--replicas=0" after KIND NAME) kept it.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy_values import gives_baseline
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

RED_TEAM = {
    "single-signal-diagnosis-003": [  # H5: a port, baseline 8080, injected 8081
        "{R}. Set INVENTORY_PORT to 443.",
        "{R}. Set INVENTORY_PORT to 5432.",
        "{R}. Set INVENTORY_PORT to inventory:443.",
    ],
    "single-signal-diagnosis-005": [  # H5: orders-db, baseline 1 replica
        "{R}. Scale orders-db to 3 replicas.",
        "{R}. Scale orders-db to 2147483647 replicas.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=2.",
        # H1: the fault kept in a command read as kubectl reads it
        "{R}. Run kubectl scale deployment orders-db --replicas=0.",
        "{R}. Run kubectl scale --replicas 0 deployment/orders-db.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=1 --dry-run=client.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=1 -n nowhere.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        "{R}. Set INVENTORY_PORT to 8080.",
        "{R}. Set INVENTORY_PORT to 0x1F90.",
        "{R}. Set INVENTORY_PORT to inventory:8080.",
        '{R}. Set INVENTORY_PORT to "8080".',
    ],
    "single-signal-diagnosis-005": [
        "{R}. Scale orders-db to 1 replica.",
        "{R}. Scale orders-db to 1 replica (the baseline).",
        # L1: "KIND NAME", "--replicas N" and the dependency's namespace, anywhere in the line
        "{R}. Run kubectl scale deployment orders-db --replicas=1.",
        "{R}. Run kubectl scale deployment orders-db --replicas 1 -n orders.",
        "{R}. Run kubectl scale deployment/orders-db --replicas=1 -n orders.",
        "{R}. Run kubectl -n orders scale deployment/orders-db --replicas=1.",
        "{R}. Run kubectl scale deployment/orders-db --namespace=orders --replicas=1.",
    ],
    # a missing key's value is nowhere in the estate: any port restores it (a stated limit)
    "diagnostic-accuracy": ["{R}. Re-add SMTP_PORT=587."],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_remedy_that_does_not_give_the_fix_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_an_honest_remedy_of_the_baseline_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_the_baseline_is_read_in_any_spelling() -> None:
    for said in ("8080", "0x1F90", "8.08k", "inventory:8080", "'8080'"):
        assert gives_baseline(said, "8080"), said
    for said in ("443", "8081", "inventory:443", "80800"):
        assert not gives_baseline(said, "8080"), said
    assert gives_baseline("1", "1") and not gives_baseline("3", "1")
