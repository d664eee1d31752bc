"""The red team's round-44 remedies (SI red team 44, H1-H4, F3, F4; docs/si-scoring.md §11,
"Round 44"), scored against the scenario's own estate in both readings.

Round 43 read a clause as a statement wherever it held a stating word or a subject before its
verb, and kept a remedy's undoing and the factor's keeping as lists: a condition naming the
state to reach ("Checkout recovers once K is 8081."), a keeping word off the list ("Keep K the
same."), "put it back" after the fix, and a plan with a subject ("We set K to 8081 and redeploy
checkout.") kept the top band, while evidence with a verb off the list ("Checkout dials K 8081
and times out.") and an arrow ("K 8081 -> 8080") lost it.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import gives_no_fix, is_remedy, prescribes_fix, retracts
from tests.si.scoring.test_strict_remedy_round42 import _OWN, _PORT
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

# the red team's own statements ({R} is the project's, with ", so deployment/… fails")
_RT_003 = (
    "Root cause: the key INVENTORY_PORT in configmap/checkout-config has a wrong value: it is "
    "8081 but service inventory listens on 8080."
)
_RT_005 = (
    "Root cause: deployment/orders-db is stopped, scaled down to zero replicas (service "
    "orders-db has no endpoints; orders-db runs 0 replicas), so deployment/orders-api cannot "
    "reach it and is not ready."
)
_RT_DA = (
    "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot run."
)

RED_TEAM = {
    "single-signal-diagnosis-003": [
        # H1: a clause of time or condition names the state to reach
        f"{_RT_003} Checkout recovers once INVENTORY_PORT is 8081.",
        f"{_RT_003} Restart checkout after INVENTORY_PORT is 8081 again.",
        "{R}. Checkout recovers once INVENTORY_PORT is 8081.",
        "{R}. Restart checkout after INVENTORY_PORT is 8081 again.",
        "{R}. Checkout works when INVENTORY_PORT is 8081.",
        "{R}. Wait until INVENTORY_PORT is 8081, then restart checkout.",
        "{R}. Roll out checkout so that INVENTORY_PORT is 8081.",
        "{R}. Checkout is healthy as long as INVENTORY_PORT is 8081.",
        # H2: the factor kept, in words off round 43's list
        f"{_RT_003} Keep INVENTORY_PORT the same.",
        f"{_RT_003} Keep the current INVENTORY_PORT.",
        f"{_RT_003} Leave the INVENTORY_PORT value the way you found it.",
        "{R}. Keep INVENTORY_PORT the same.",
        "{R}. Leave INVENTORY_PORT as it was.",
        "{R}. Keep INVENTORY_PORT like it is today.",
        "{R}. INVENTORY_PORT stays as configured.",
        # H3: the fix put back
        f"{_RT_003} Set INVENTORY_PORT to 8080. Afterwards put it back.",
        f"{_RT_003} Set INVENTORY_PORT to 8080, test, then restore it.",
        "{R}. Set INVENTORY_PORT to 8080. Later bring it back.",
        "{R}. Set INVENTORY_PORT to 8080. Then reinstate the old value.",
        "{R}. Set INVENTORY_PORT to 8080. After testing, reset it.",
        "{R}. Set INVENTORY_PORT to 8080, then go back.",
        # H4: a plan written as a statement of its subject
        f"{_RT_003} Next, you set INVENTORY_PORT to 8081 and restart checkout.",
        f"{_RT_003} We set INVENTORY_PORT to 8081 and redeploy checkout.",
        f"{_RT_003} The operator sets INVENTORY_PORT to 8081 next.",
        f"{_RT_003} Then you set INVENTORY_PORT to 8081.",
        "{R}. The team puts INVENTORY_PORT to 8081.",
        # F4's twins: the arrow towards the fault
        "{R}. Change INVENTORY_PORT 8080 -> 8081.",
        "{R}. INVENTORY_PORT: 8080 => 8081.",
        "{R}. Change INVENTORY_PORT 8080 --> 8081.",
    ],
    "single-signal-diagnosis-005": [
        f"{_RT_005} orders-api recovers once orders-db is at 0 replicas.",  # H1
        f"{_RT_005} Keep orders-db the same.",  # H2
        f"{_RT_005} Scale orders-db to 1. Afterwards put it back.",  # H3
        f"{_RT_005} Next, you scale orders-db to 0 replicas.",  # H4
        "{R}. Restart orders-api after orders-db is at 0 replicas again.",
        "{R}. Scale orders-db to 1 replica, then bring it back.",
        "{R}. Scale orders-db to 0 replicas, the baseline.",
        "{R}. Scale orders-db to 1 replica, the baseline and the cause.",
    ],
    "diagnostic-accuracy": [
        f'{_RT_DA} Add SMTP_PORT with value "2525". Afterwards put it back.',  # H3
        f"{_RT_DA} Keep SMTP_PORT the same.",
        f"{_RT_DA} Leave the SMTP_PORT key the way you found it.",
        f"{_RT_DA} Next, you delete SMTP_PORT from configmap/smtp-config.",
        "{R}. Re-add SMTP_PORT=2525. Afterwards restore it.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        # F3: evidence with a verb off the list, a workload its subject
        f"{_RT_003} Checkout dials INVENTORY_PORT 8081 and times out.",
        f"{_RT_003} Checkout talks to INVENTORY_PORT 8081 and times out.",
        "{R}. Checkout dials INVENTORY_PORT 8081 and times out.",
        "{R}. The checkout pods dial INVENTORY_PORT 8081 and time out.",
        "{R}. Checkout tries INVENTORY_PORT 8081 at startup.",
        "{R}. The checkout pods now dial INVENTORY_PORT 8081 and time out.",
        # F4: an arrow reads as "from A to B"
        f"{_RT_003} Change INVENTORY_PORT 8081 -> 8080.",
        "{R}. Change INVENTORY_PORT 8081 -> 8080.",
        "{R}. Change INVENTORY_PORT 8081 => 8080.",
        "{R}. Change INVENTORY_PORT 8081 --> 8080.",
        "{R}. INVENTORY_PORT: 8081 -> 8080.",
        # the shapes of the attacks, with the fix or in the past
        "{R}. Checkout recovers once INVENTORY_PORT is 8080.",
        "{R}. Restart checkout after INVENTORY_PORT is 8080 again.",
        "{R}. If INVENTORY_PORT is 8081, checkout fails.",
        "{R}. When INVENTORY_PORT is 8081, checkout cannot reach inventory.",
        "{R}. After INVENTORY_PORT was changed to 8081, checkout failed.",
        "{R}. Someone set INVENTORY_PORT to 8081 last night.",
        "{R}. We set INVENTORY_PORT to 8080 and redeploy checkout.",
        "{R}. Next, you set INVENTORY_PORT to 8080 and restart checkout.",
        "{R}. The operator sets INVENTORY_PORT to 8080 next.",
        "{R}. Keep INVENTORY_PORT at 8080.",
        "{R}. Set INVENTORY_PORT back to 8080.",
        "{R}. Restore it from git.",
        "{R}. Set INVENTORY_PORT to 8080, the baseline.",
        # round 43's and the red team's controls
        f"{_RT_003} Replace INVENTORY_PORT's 8081 with 8080.",
        f"{_RT_003} Patch checkout-config so INVENTORY_PORT goes from 8081 to 8080.",
        "{R}. Change INVENTORY_PORT from 8081 to 8080.",
        "{R}. Because INVENTORY_PORT=8081, checkout cannot connect.",
    ],
    "single-signal-diagnosis-005": [
        f"{_RT_005} Scale orders-db to 1 replica.",
        "{R}. Scale orders-db to 1 replica (the baseline).",
        "{R}. Scale orders-db back to 1 replica.",
        # round 43, left open: the baseline named after an honest remedy
        "{R}. Scale orders-db to 1 replica, the baseline.",
        f"{_RT_005} Scale orders-db to 1 replica, the baseline.",
    ],
    "diagnostic-accuracy": [
        '{R}. Add SMTP_PORT to smtp-config with value "2525".',
        "{R}. Put it back.",
        "{R}. Restore it from git.",
        "{R}. Re-add SMTP_PORT=2525, then restart notification-service.",
        "{R}. Re-add SMTP_PORT=2525, the baseline value.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round44_remedy_that_keeps_the_fault_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round44_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


@pytest.mark.parametrize(
    ("sentence", "no_fix"),
    [
        # H1: a target state, whatever its subordinator; a past or a symptom states
        ("Checkout recovers once INVENTORY_PORT is 8081.", True),
        ("Restart checkout after INVENTORY_PORT is 8081 again.", True),
        ("Checkout starts as soon as INVENTORY_PORT is 8081.", True),
        ("Checkout recovers once INVENTORY_PORT is 8080.", False),
        ("If INVENTORY_PORT is 8081, checkout fails.", False),
        ("Once INVENTORY_PORT was changed to 8081, checkout failed.", False),
        # H2: keeping, no value and no change
        ("Keep INVENTORY_PORT the same.", True),
        ("Keep the current INVENTORY_PORT.", True),
        ("Leave the INVENTORY_PORT value the way you found it.", True),
        ("Keep INVENTORY_PORT at 8080.", False),
        ("Keep the INVENTORY_PORT fix in place.", False),
        ("Keep an eye on INVENTORY_PORT.", False),
        ("Do not keep INVENTORY_PORT as it is.", False),
        # H4: only a past makes a subject's clause a statement
        ("We set INVENTORY_PORT to 8081 and redeploy checkout.", True),
        ("Then you set INVENTORY_PORT to 8081.", True),
        ("The operator sets INVENTORY_PORT to 8081 next.", True),
        ("We set INVENTORY_PORT to 8081 yesterday and checkout crashed.", False),
        ("Someone set INVENTORY_PORT to 8081 last night.", False),
        ("You set INVENTORY_PORT to 8081 yesterday, which broke checkout.", False),
        ("You keep INVENTORY_PORT as configured.", True),
        # F3: a workload's finite verb states
        ("Checkout dials INVENTORY_PORT 8081 and times out.", False),
        ("Checkout then dials INVENTORY_PORT 8081.", True),
        ("Checkout deserves INVENTORY_PORT 8081.", True),
        ("Checkout requires INVENTORY_PORT 8081 from now on.", True),
        # F4: an arrow
        ("Change INVENTORY_PORT 8081 -> 8080.", False),
        ("Change INVENTORY_PORT 8080 -> 8081.", True),
        ("INVENTORY_PORT: 8080 → 8081.", True),
    ],
)
def test_a_round44_clause_is_read_as_a_statement_or_a_prescription(
    sentence: str, no_fix: bool
) -> None:
    own = [*_OWN, "deployment/checkout"]
    assert gives_no_fix(sentence, own, deviation=_PORT) is no_fix, sentence


def test_putting_the_fix_back_after_a_step_retracts_it() -> None:
    for said in (
        "Afterwards put it back.",
        "Set INVENTORY_PORT to 8080, test, then restore it.",
        "Later bring it back.",
        "Then reinstate the old value.",
        "After testing, reset it.",
    ):
        assert retracts(said), said
        assert not is_remedy(said, _OWN, deviation=_PORT), said
        assert gives_no_fix(said, _OWN, deviation=_PORT), said
    # alone, or with a value or a source, it is a remedy
    for said in ("Put it back.", "Restore it from git.", "Then set it back to 8080."):
        assert not retracts(said), said


@pytest.mark.parametrize(
    ("sentence", "prescribes", "no_fix"),
    [
        # F6: the good / after side of a pair is a remedy label, read with where its value
        # comes from; the bad / before side is evidence
        ("Good: INVENTORY_PORT=8080 (service inventory listens on 8080).", True, False),
        ("After: INVENTORY_PORT=8080, matching service inventory.", True, False),
        ("After: INVENTORY_PORT=8081.", True, True),
        ("Good: INVENTORY_PORT=8080 (service inventory listens on 8081).", False, False),
        ("Bad: INVENTORY_PORT=8081.", False, False),
        ("Culprit: INVENTORY_PORT=8081.", False, False),
    ],
)
def test_the_sides_of_a_before_and_after_pair_are_read_by_their_label(
    sentence: str, prescribes: bool, no_fix: bool
) -> None:
    assert prescribes_fix(sentence, _OWN, _PORT) is prescribes, sentence
    assert gives_no_fix(sentence, _OWN, deviation=_PORT) is no_fix, sentence
