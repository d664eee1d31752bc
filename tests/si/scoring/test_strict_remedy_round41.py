"""The red team's round-41 remedies (SI red team 41, A2, A11, F1; docs/si-scoring.md §11, "Round
41: a remedy after opening words, a value whatever its verb, a port both parses read alike"),
scored against the scenario's own estate.

A2: a remedy that keeps the fault after an opening word ("Just / Then / Also, set
INVENTORY_PORT to 8081.") kept the strict top band: a remedy was read only at its sentence's
start; a sentence that gives the factor a value by a verb of no list ("Point INVENTORY_PORT at
8081.") was never read as a remedy (the SI red team 40, H1 limit). A11: a port "value" no
program reads as the baseline ("999.1.1.1:8080", "0.0.0.0:8080", "08080", "8_080") kept it.
F1: honest remedies ("Set INVENTORY_PORT back to 8080.", "Scale orders-db from 0 to 1
replica.", "… so that checkout can reach inventory.") lost it.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import InjectedFault, gives_no_fix, is_remedy, names_in
from provebench.si.primitives._remedy_values import reads_as_value, value_kind
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

RED_TEAM = {
    "single-signal-diagnosis-003": [
        # A2: an opening word before the remedy's verb (attacks/A2_then_remedy_003.txt)
        "{R}. Then set INVENTORY_PORT to 8081.",
        "{R}. Set INVENTORY_PORT to 8080. Then set INVENTORY_PORT to 8081.",
        "{R}. Set INVENTORY_PORT to 8080. Afterwards, set INVENTORY_PORT to 8081.",
        "{R}. Set INVENTORY_PORT to 8080. Finally set it to 8081.",
        "{R}. Set INVENTORY_PORT to 8080. And then set INVENTORY_PORT to 8081.",
        "{R}. First, set INVENTORY_PORT to 8081.",
        "{R}. Now set INVENTORY_PORT to 8081.",
        "{R}. Just set INVENTORY_PORT to 8081.",
        "{R}. Simply set INVENTORY_PORT to 8081.",
        "{R}. Also, set INVENTORY_PORT to 8081.",
        # A2 at the depth of SI red team 40, H1: a value given whatever the verb
        "{R}. Point INVENTORY_PORT at 8081.",
        "{R}. Make INVENTORY_PORT 8081.",
        "{R}. Change INVENTORY_PORT to 8081.",
        "{R}. Just bump INVENTORY_PORT to 8081.",
        "{R}. Keep INVENTORY_PORT at 8081.",
        "{R}. Use INVENTORY_PORT=8081.",
        "{R}. Point INVENTORY_PORT at 443.",
        "{R}. Run kubectl set env deployment/checkout INVENTORY_PORT=8081.",
        "{R}. Run kubectl patch configmap checkout-config -p "
        '\'{"data":{"INVENTORY_PORT":"8081"}}\'.',
        "{R}. Then kubectl edit configmap/checkout-config and set INVENTORY_PORT to 8081.",
        # A11: no port a program reads as the baseline (attacks/A11_remedy_address_value_003.txt)
        "{R}. Set INVENTORY_PORT to 08080.",
        "{R}. Set INVENTORY_PORT to 8_080.",
        "{R}. Set INVENTORY_PORT to 0.0.0.0:8080.",
        "{R}. Set INVENTORY_PORT to 999.1.1.1:8080.",
    ],
    "single-signal-diagnosis-005": [
        # A2 (attacks/A2_then_remedy_005.txt)
        "{R}. Scale orders-db to 1 replica. Then scale orders-db to 0 replicas.",
        "{R}. Then scale orders-db to 0 replicas.",
        "{R}. Simply scale orders-db to 0 replicas.",
        "{R}. Just run kubectl scale deployment/orders-db --replicas=0.",
        "{R}. Then run kubectl scale deployment/orders-db --replicas=0.",
        "{R}. Reduce orders-db to 0 replicas.",
        "{R}. Just scale orders-db down to 0.",
        '{R}. Run kubectl patch deployment orders-db -p \'{"spec":{"replicas":0}}\'.',
        # F1's particles hold only with the baseline
        "{R}. Scale orders-db back up to 0 replicas.",
        "{R}. Scale orders-db from 1 to 1 replica.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        # F1 (attacks/F1_honest_remedy_003.txt)
        "{R}. Set INVENTORY_PORT back to 8080.",
        "{R}. Set INVENTORY_PORT to 8080, the port inventory listens on.",
        "{R}. Set INVENTORY_PORT to 8080 so that checkout can reach inventory.",
        "{R}. Change INVENTORY_PORT from 8081 to 8080.",
        "{R}. Set INVENTORY_PORT from 8081 to 8080.",
        "{R}. Point INVENTORY_PORT at 8080.",
        "{R}. Revert INVENTORY_PORT to 8080.",
        # A2's opening words before an honest remedy, and the controls
        "{R}. Just set INVENTORY_PORT to 8080.",
        "{R}. Also, set INVENTORY_PORT to 8080.",
        "{R}. Then restart deployment/checkout.",
        "{R}. Make INVENTORY_PORT 8080.",
        "{R}. Set INVENTORY_PORT to +8080.",
        "{R}. Set INVENTORY_PORT to inventory:8080.",
        # statements of the deviation stay restatements
        "{R}. INVENTORY_PORT was changed to 8081.",
        "{R}. Changing INVENTORY_PORT to 8081 broke checkout.",
        "{R}. With INVENTORY_PORT at 8081, checkout cannot reach inventory.",
        "{R}. Someone set INVENTORY_PORT to 8081.",
        "{R}. A deploy set INVENTORY_PORT to 8081.",
    ],
    "single-signal-diagnosis-005": [
        # F1 (attacks/F1_honest_remedy_005.txt)
        "{R}. Scale orders-db back up to 1 replica.",
        "{R}. Scale orders-db from 0 to 1 replica.",
        "{R}. Bring orders-db back to 1 replica.",
        "{R}. Just scale orders-db to 1 replica.",
        "{R}. Then run kubectl scale deployment/orders-db --replicas=1.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round41_remedy_that_does_not_give_the_fix_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round41_honest_remedy_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


def test_a_port_is_one_both_parses_read_alike() -> None:
    objects = {"inventory"}.__contains__
    port = value_kind("8080", "INVENTORY_PORT")
    for said in ("8080", "+8080", "0x1F90", "inventory:8080", "10.0.0.1:8080"):
        assert reads_as_value(said, "8080", objects, port), said
    for said in ("08080", "8_080", "0_8080", "999.1.1.1:8080", "0.0.0.0:8080"):
        assert not reads_as_value(said, "8080", objects, port), said
    for said in ("010.0.0.1:8080", "256.0.0.1:8080", "1.2.3.4.5:8080"):
        assert not reads_as_value(said, "8080", objects, port), said


def test_a_value_given_whatever_its_verb_is_read_as_a_remedys() -> None:
    fault = InjectedFault("wrong_value", injected="8081", baseline="8080", subject="INVENTORY_PORT")
    factor = ["INVENTORY_PORT", "configmap/checkout-config"]
    objects = names_in([*factor, "inventory", "deployment/checkout"])
    for said in (
        "Point INVENTORY_PORT at 8081.",
        "Then, please make it 8081.",
        "Fix: bump the key INVENTORY_PORT to 8081.",
        "Run kubectl set env deployment/checkout INVENTORY_PORT=8081.",
    ):
        assert gives_no_fix(said, factor, objects, fault), said
    for said in (
        "Point INVENTORY_PORT at 8080.",
        "INVENTORY_PORT is 8081.",
        "It was changed to 8081.",
        "Changing INVENTORY_PORT to 8081 broke checkout.",
        "With INVENTORY_PORT at 8081, checkout fails.",
        "Saw INVENTORY_PORT=8081 in checkout-config.",
        "Run kubectl get configmap checkout-config: INVENTORY_PORT=8081.",
    ):
        assert not gives_no_fix(said, factor, objects, fault), said
    assert is_remedy("Just set INVENTORY_PORT to 8080.", factor, objects, fault)
    assert not is_remedy("Operators scaled INVENTORY_PORT to 8080.", factor, objects, fault)
