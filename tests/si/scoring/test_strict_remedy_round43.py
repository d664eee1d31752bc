"""The red team's round-43 remedies that keep the fault (SI red team 43, H01-H06, H13-H15, F04,
F05; docs/si-scoring.md §11, "Round 43"), scored against the scenario's own estate.

Round 42 read a remedy's value only behind an opening grammar (a closed introductory phrase, a
list of modals, a list of labels, a verb before the key): a dash, a semicolon, a seventh word,
"you can", "can stay", "Workaround:" or a value before its key ("Assign 8081 to K") and the
fault kept the strict top band, while "Workaround: K=8080." lost it as a state (F05: the
reading inverted). Round 43 reads the value wherever a sentence gives the factor one
(`_remedy.sentence_values`), unless the sentence states the deviation.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import (
    gives_no_fix,
    is_remedy,
    prescribes_fix,
)
from tests.si.scoring.test_strict_remedy_round42 import _OWN, _PORT
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

RED_TEAM = {
    "single-signal-diagnosis-003": [
        # H01: an opener closed by a dash, a semicolon, "#" or ")"
        "{R}. In the meantime — set INVENTORY_PORT to 8081.",
        "{R}. For now; set INVENTORY_PORT to 8081.",
        "{R}. Step #2: set INVENTORY_PORT to 8081.",
        "{R}. Step 2) set INVENTORY_PORT to 8081.",
        # H02: an opener of seven words or more
        "{R}. As a temporary measure until the next maintenance window, set INVENTORY_PORT "
        "to 8081.",
        # H03: "you can" after an opener
        "{R}. For now, you can set INVENTORY_PORT to 8081.",
        # H04: a modal off the list
        "{R}. INVENTORY_PORT can stay 8081.",
        "{R}. INVENTORY_PORT may remain 8081.",
        "{R}. INVENTORY_PORT is best left at 8081.",
        "{R}. INVENTORY_PORT: keep 8081.",
        # H05: the factor kept as it is, a wrong value
        "{R}. Keep INVENTORY_PORT as is.",
        "{R}. Leave INVENTORY_PORT alone.",
        "{R}. INVENTORY_PORT ought to remain unchanged.",
        "{R}. INVENTORY_PORT should stay the way it is.",
        "{R}. The fix: INVENTORY_PORT stays as it is.",
        # H06: a fix undone in the next sentence
        "{R}. Set INVENTORY_PORT to 8080. Afterwards revert it.",
        "{R}. Set INVENTORY_PORT to 8080. Then roll it back.",
        # H13: a normative statement after opening words
        "{R}. For now, INVENTORY_PORT should be 8081.",
        "{R}. Ideally INVENTORY_PORT should be 8081.",
        "{R}. So INVENTORY_PORT should be 8081.",
        # H14: a remedy label off the list
        "{R}. Workaround: INVENTORY_PORT=8081.",
        "{R}. Remediation: INVENTORY_PORT=8081.",
        "{R}. Proposed change: INVENTORY_PORT=8081.",
        "{R}. Patch: INVENTORY_PORT=8081.",
        "{R}. Fix → INVENTORY_PORT=8081.",
        "{R}. TL;DR fix: INVENTORY_PORT=8081.",
        # H15: the value before the key, a verb or a slot off the list
        "{R}. Assign 8081 to INVENTORY_PORT.",
        "{R}. Use 8081 for INVENTORY_PORT.",
        "{R}. Write 8081 into INVENTORY_PORT.",
        "{R}. Give INVENTORY_PORT the value 8081.",
        "{R}. Stick with INVENTORY_PORT=8081.",
        # near neighbours: a value before the key in a prescribing clause, "let … be", "make
        # sure / ensure" before a state, a label of any words
        "{R}. 8081 is the value INVENTORY_PORT should have.",
        "{R}. Let INVENTORY_PORT be.",
        "{R}. Make sure INVENTORY_PORT reads 8081.",
        "{R}. Ensure INVENTORY_PORT is 8081.",
        "{R}. Recommended action (low risk): INVENTORY_PORT=8081.",
        "{R}. Nothing else; INVENTORY_PORT stays 8081.",
        # the honest list's twins with the fault
        "{R}. Set INVENTORY_PORT to 8081 now.",
        "{R}. The correct value is 8081.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. Step #2: scale orders-db to 0 replicas.",  # H01
        "{R}. For now, you can scale orders-db to 0 replicas.",  # H03
        # H04
        "{R}. orders-db can stay at 0 replicas.",
        "{R}. orders-db needs zero replicas.",
        "{R}. orders-db should stay scaled down.",
        "{R}. Keep orders-db stopped.",
        "{R}. Scale orders-db to 1 replica. Afterwards revert it.",  # H06
        "{R}. For now, orders-db should stay at 0 replicas.",  # H13
        "{R}. Workaround: orders-db replicas=0.",  # H14
        "{R}. Use 0 replicas for orders-db.",
        "{R}. Keep orders-db at 0.",
        "{R}. orders-db needs 0 replicas, the baseline.",
    ],
    "diagnostic-accuracy": [
        # H04
        "{R}. SMTP_PORT can stay absent.",
        "{R}. SMTP_PORT may remain missing.",
        "{R}. SMTP_PORT is best left out.",
        # H13
        "{R}. For now, SMTP_PORT should stay absent.",
        "{R}. Honestly, SMTP_PORT should remain missing.",
        "{R}. Leave SMTP_PORT as is.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        # the red team's controls
        "{R}. In the meantime, set INVENTORY_PORT to 8080.",
        "{R}. As a temporary measure until the next maintenance window, set INVENTORY_PORT "
        "to 8080.",
        "{R}. Set INVENTORY_PORT to 8080.",
        "{R}. For now, INVENTORY_PORT should be 8080.",
        "{R}. Assign 8080 to INVENTORY_PORT.",
        "{R}. Fix: INVENTORY_PORT=8080.",
        # the same shapes as the attacks, with the fix
        "{R}. In the meantime — set INVENTORY_PORT to 8080.",
        "{R}. For now, you can set INVENTORY_PORT to 8080.",
        "{R}. Use 8080 for INVENTORY_PORT.",
        "{R}. Give INVENTORY_PORT the value 8080.",
        # F05: a label off the list gives a remedy, not a state
        "{R}. Workaround: INVENTORY_PORT=8080.",
        "{R}. Remediation: INVENTORY_PORT=8080.",
        "{R}. Proposed change: INVENTORY_PORT=8080.",
        "{R}. Patch: INVENTORY_PORT=8080.",
        # F04: a time, the old value, an outcome, the value before
        "{R}. Set INVENTORY_PORT to 8080 now.",
        "{R}. Set INVENTORY_PORT to 8080 (was 8081).",
        "{R}. Set INVENTORY_PORT to 8080; checkout then recovers.",
        "{R}. Set INVENTORY_PORT to 8080, as before.",
        "{R}. The correct value is 8080.",
        # statements of the deviation stay statements
        "{R}. Changing INVENTORY_PORT to 8081 broke checkout.",
        "{R}. If it is set to 8081, checkout fails.",
        "{R}. Because INVENTORY_PORT=8081, checkout cannot connect.",
        "{R}. The configmap checkout-config has INVENTORY_PORT=8081.",
        "{R}. Checkout reads INVENTORY_PORT=8081 at startup.",
        "{R}. Someone set INVENTORY_PORT to 8081 last night.",
        "{R}. kubectl get configmap checkout-config shows INVENTORY_PORT=8081.",
        "{R}. Change INVENTORY_PORT from 8081 to 8080.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. Scale orders-db to 1 replica.",
        "{R}. orders-db needs 1 replica.",
        "{R}. For now, scale orders-db to 1 replica.",
        "{R}. Use 1 replica for orders-db.",
        "{R}. orders-db was scaled to zero.",
        "{R}. orders-db has 0 replicas.",
    ],
    "diagnostic-accuracy": [
        '{R}. Add SMTP_PORT to smtp-config with value "2525".',
        "{R}. Re-add SMTP_PORT=2525.",
        "{R}. Workaround: SMTP_PORT=2525.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round43_remedy_that_keeps_the_fault_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round43_honest_remedy_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


@pytest.mark.parametrize(
    ("sentence", "no_fix"),
    [
        ("Step 2) set INVENTORY_PORT to 8081.", True),
        ("Assign 8081 to INVENTORY_PORT.", True),
        ("Keep INVENTORY_PORT as is.", True),
        ("INVENTORY_PORT can stay 8081.", True),
        ("Workaround: INVENTORY_PORT=8081.", True),
        ("Assign 8080 to INVENTORY_PORT.", False),
        ("INVENTORY_PORT was changed to 8081.", False),
        ("Observed: INVENTORY_PORT=8081.", False),
        ("Someone set INVENTORY_PORT to 8081 last night.", False),
        ("Do not keep INVENTORY_PORT at 8081.", False),
    ],
)
def test_a_value_is_read_wherever_the_sentence_gives_the_factor_one(
    sentence: str, no_fix: bool
) -> None:
    assert gives_no_fix(sentence, _OWN, deviation=_PORT) is no_fix


def test_an_undoing_verb_on_a_pronoun_is_no_remedy() -> None:
    for said in ("Afterwards revert it.", "Then roll it back.", "Revert it."):
        assert not is_remedy(said, _OWN, deviation=_PORT), said
        assert gives_no_fix(said, _OWN, deviation=_PORT), said
    assert is_remedy("Revert it to 8080.", _OWN, deviation=_PORT)


def test_any_label_but_evidence_prescribes() -> None:
    assert prescribes_fix("Workaround: INVENTORY_PORT=8080.", _OWN, _PORT)
    assert not prescribes_fix("Observed: INVENTORY_PORT=8080.", _OWN, _PORT)
