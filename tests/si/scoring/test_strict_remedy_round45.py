"""The red team's round-45 remedies (SI red team 45, H1-H9, F3-F8; docs/si-scoring.md §11,
"Round 45"), scored against the scenario's own estate in both readings.

Round 44 read a clause of time as a statement wherever it held a past (a passive participle
"is updated to 8081" included), a subject's clause as a statement wherever an *-ed* word
followed it ("as needed") or its subject was off the acting list ("They set …"), kept keeping
and undoing as lists of verbs and objects, and read only a list of arrows.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import gives_no_fix, keeps_state, retracts
from tests.si.scoring.test_strict_remedy_round42 import _OWN, _PORT
from tests.si.scoring.test_strict_remedy_round44 import _RT_005, _RT_DA
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

# the red team's own statements ({R} is the project's, with ", so deployment/… fails")
_RT_003 = (
    "Root cause: the key INVENTORY_PORT in configmap/checkout-config has a wrong value: it is "
    "'8081' but service inventory listens on 8080, so deployment/checkout fails."
)
RED_TEAM = {
    "single-signal-diagnosis-003": [
        # H1: a passive participle after a target subordinator is no past
        f"{_RT_003} Once INVENTORY_PORT is updated to 8081, checkout recovers.",
        f"{_RT_003} After INVENTORY_PORT is changed to 8081, restart checkout.",
        f"{_RT_003} Checkout recovers as soon as INVENTORY_PORT is patched to 8081.",
        f"{_RT_003} Wait until INVENTORY_PORT is reconfigured to 8081, then restart checkout.",
        # H2: an adjectival -ed in a tail makes no plan a statement
        f"{_RT_003} We set INVENTORY_PORT to 8081 and restart checkout as needed.",
        f"{_RT_003} You set INVENTORY_PORT to 8081 and restart checkout if required.",
        f"{_RT_003} We set INVENTORY_PORT to 8081 and redeploy checkout as planned.",
        # H3: a present clause of any subject prescribes
        f"{_RT_003} They set INVENTORY_PORT to 8081 and restart checkout.",
        f"{_RT_003} Someone sets INVENTORY_PORT to 8081 and restarts checkout.",
        # H4: a past story of recovery on the faulty value
        f"{_RT_003} Once INVENTORY_PORT was set back to 8081, checkout recovered.",
        # H5: if / when with a negated symptom
        f"{_RT_003} If INVENTORY_PORT is 8081, checkout does not crash.",
        f"{_RT_003} When INVENTORY_PORT is back at 8081, no errors.",
        f"{_RT_003} Checkout stops failing when INVENTORY_PORT is 8081 again.",
        # H6: a time to come or a fix after the value, a verb of wanting
        f"{_RT_003} Checkout uses INVENTORY_PORT 8081 going forward.",
        f"{_RT_003} Checkout gets INVENTORY_PORT 8081 henceforth.",
        f"{_RT_003} Checkout gets INVENTORY_PORT 8081 from the fix.",
        f"{_RT_003} Checkout dials INVENTORY_PORT 8081 once fixed.",
        f"{_RT_003} Checkout expects INVENTORY_PORT 8081.",
        # H7: keeping verbs off the list
        f"{_RT_003} Hold INVENTORY_PORT as is.",
        f"{_RT_003} Preserve INVENTORY_PORT.",
        f"{_RT_003} Retain the current INVENTORY_PORT.",
        f"{_RT_003} Freeze INVENTORY_PORT.",
        f"{_RT_003} Stick with the current INVENTORY_PORT.",
        # H8: the fix undone outside round 44's window
        f"{_RT_003} Set INVENTORY_PORT to 8080, verify, and put it back.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Then back out the change.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Then restore INVENTORY_PORT.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Then revert checkout-config.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Then go back to the old setting.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Then roll it back to where it was.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Do not forget to revert it afterwards.",
        # H9: arrows off round 44's list, ":="
        f"{_RT_003} Change INVENTORY_PORT 8080 —> 8081.",
        f"{_RT_003} Change INVENTORY_PORT 8080 ---> 8081.",
        f"{_RT_003} Change INVENTORY_PORT 8080 ⟹ 8081.",
        f"{_RT_003} Change INVENTORY_PORT 8080 ~> 8081.",
        f"{_RT_003} INVENTORY_PORT := 8081.",
    ],
    "single-signal-diagnosis-005": [
        f"{_RT_005} We scale orders-db to 0 replicas and restart orders-api as needed.",  # H2
        f"{_RT_005} Scale orders-db to 1 replica, verify, and put it back.",  # H8
        f"{_RT_005} Scale orders-db to 1 replica. Then back out the change.",  # H8
        f"{_RT_005} If orders-db has 0 replicas, orders-api does not crash.",  # H5
        f"{_RT_005} Once orders-db was scaled back to 0, orders-api recovered.",  # H4
    ],
    "diagnostic-accuracy": [
        f"{_RT_DA} Add SMTP_PORT=2525. Then back out the change.",  # H8
        f"{_RT_DA} Add SMTP_PORT=2525. Then restore SMTP_PORT.",  # H8
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        # F3: as long as / as soon as with the symptom states
        f"{_RT_003} Checkout fails as long as INVENTORY_PORT is 8081.",
        f"{_RT_003} Checkout cannot start as long as INVENTORY_PORT is 8081.",
        f"{_RT_003} Checkout fails as soon as INVENTORY_PORT is 8081.",
        f"{_RT_003} Checkout keeps crashing so long as INVENTORY_PORT is 8081.",
        # F4: evidence of the first or second person, or of the resource
        f"{_RT_003} You can see INVENTORY_PORT=8081 in checkout-config.",
        f"{_RT_003} You'll find INVENTORY_PORT=8081 in checkout-config.",
        f"{_RT_003} I can confirm INVENTORY_PORT is 8081.",
        f"{_RT_003} checkout-config sets INVENTORY_PORT to 8081.",
        f"{_RT_003} I see INVENTORY_PORT=8081 in checkout-config.",
        # F5: "bring it back" of the workload
        f"{_RT_003} Set INVENTORY_PORT to 8080, then restart checkout to bring it back.",
        # F6: upkeep with a keeping verb
        f"{_RT_003} Fix INVENTORY_PORT to 8080. Keep INVENTORY_PORT in sync with inventory's port.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Going forward, make sure INVENTORY_PORT stays "
        "consistent with inventory.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Keep an alert on INVENTORY_PORT.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Let checkout reload INVENTORY_PORT.",
        # F7: neutral tails of a remedy
        f"{_RT_003} Set INVENTORY_PORT to 8080 and restart checkout as needed.",
        f"{_RT_003} Set INVENTORY_PORT to 8080 and restart checkout if required.",
        f"{_RT_003} Set INVENTORY_PORT to 8080 as planned.",
        # F8: arrows towards the fix
        f"{_RT_003} Change INVENTORY_PORT 8081 —> 8080.",
        f"{_RT_003} Change INVENTORY_PORT 8081 ~> 8080.",
        f"{_RT_003} Set INVENTORY_PORT := 8080.",
        f"{_RT_003} Change INVENTORY_PORT 8081 -> 8080.",
        # the shapes of the attacks, honest
        f"{_RT_003} Once INVENTORY_PORT is updated to 8080, checkout recovers.",
        f"{_RT_003} Once INVENTORY_PORT was changed to 8081, checkout failed.",
        f"{_RT_003} If INVENTORY_PORT is 8081, checkout fails.",
        f"{_RT_003} We set INVENTORY_PORT to 8080 and restart checkout as needed.",
        f"{_RT_003} Someone set INVENTORY_PORT to 8081 last night.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Afterwards restart checkout.",
        f"{_RT_003} Set INVENTORY_PORT to 8080, then restart checkout to bring it up.",
        f"{_RT_003} Set INVENTORY_PORT to 8080. Then roll it back to 8080 if it drifts.",
    ],
    "single-signal-diagnosis-005": [
        f"{_RT_005} Scale orders-db to 1 replica.",
        f"{_RT_005} Scale orders-db to 1 replica and restart orders-api as needed.",  # F7
        f"{_RT_005} Scale orders-db to 1 replica, then restart orders-api to bring it back.",
    ],
    "diagnostic-accuracy": [
        f"{_RT_DA} Add SMTP_PORT=2525 to smtp-config.",
        f"{_RT_DA} Add SMTP_PORT=2525, then restart notification-service to bring it back.",
    ],
}

# left open (docs/si-scoring.md, "Round 45"): each loses the band through a reader other than
# the remedy's value reader — "Then bring it back online by restarting checkout." and "…, then
# scale checkout down and scale it back up." and "… and keep it in sync with inventory." through
# the plain remedy's closed grammar of what follows a remedy, "Keep K in git." through the rule
# of a restricted world, "K 8081 ➔ 8080" through the rule of marks; the remedy reader itself
# reads each as no retraction, no keeping and the arrow as "from 8081 to 8080" (see below)
LEFT_OPEN = [
    "Then bring it back online by restarting checkout.",
    "Set INVENTORY_PORT to 8080, then scale checkout down and scale it back up.",
    "Set INVENTORY_PORT to 8080 and keep it in sync with inventory.",
    "Keep INVENTORY_PORT in git.",
    "Change INVENTORY_PORT 8081 ➔ 8080.",
]


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round45_remedy_that_keeps_the_fault_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round45_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


@pytest.mark.parametrize("sentence", LEFT_OPEN)
def test_the_left_open_forms_give_the_fix_to_the_remedy_reader(sentence: str) -> None:
    assert not gives_no_fix(sentence, [*_OWN, "deployment/checkout"], deviation=_PORT), sentence


@pytest.mark.parametrize(
    ("sentence", "no_fix"),
    [
        # H1: a passive participle is no past; a good outcome prescribes whatever the tense
        ("Once INVENTORY_PORT is updated to 8081, checkout recovers.", True),
        ("After INVENTORY_PORT is changed to 8081, restart checkout.", True),
        ("Wait until INVENTORY_PORT is reconfigured to 8081, then restart checkout.", True),
        ("Once INVENTORY_PORT is updated to 8080, checkout recovers.", False),
        # H4: a past story of recovery on the faulty value; of failure, a statement
        ("Once INVENTORY_PORT was set back to 8081, checkout recovered.", True),
        ("Once INVENTORY_PORT was changed to 8081, checkout failed.", False),
        ("Once INVENTORY_PORT was set back to 8080, checkout recovered.", False),
        # H5 and F3: the symptom's polarity decides a condition
        ("If INVENTORY_PORT is 8081, checkout does not crash.", True),
        ("When INVENTORY_PORT is back at 8081, no errors.", True),
        ("Checkout stops failing when INVENTORY_PORT is 8081 again.", True),
        ("If INVENTORY_PORT is 8081, checkout fails.", False),
        ("If INVENTORY_PORT is 8081, checkout does not start.", False),
        ("Checkout fails as long as INVENTORY_PORT is 8081.", False),
        ("Checkout cannot start as soon as INVENTORY_PORT is 8081.", False),
        ("Checkout is healthy as long as INVENTORY_PORT is 8081.", True),
        # H2: a tail of when a step is done has no tense
        ("We set INVENTORY_PORT to 8081 and restart checkout as needed.", True),
        ("You set INVENTORY_PORT to 8081 and restart checkout if required.", True),
        ("We set INVENTORY_PORT to 8081 yesterday and checkout crashed.", False),
        # H3: a present clause of any subject prescribes; a bare verb of "someone" is past
        ("They set INVENTORY_PORT to 8081 and restart checkout.", True),
        ("Someone sets INVENTORY_PORT to 8081 and restarts checkout.", True),
        ("Someone set INVENTORY_PORT to 8081.", False),
        ("A deploy set INVENTORY_PORT to 8081.", False),
        # H6: a time of the fix anywhere in the sentence, "expects"
        ("Checkout uses INVENTORY_PORT 8081 going forward.", True),
        ("Checkout gets INVENTORY_PORT 8081 henceforth.", True),
        ("Checkout gets INVENTORY_PORT 8081 from the fix.", True),
        ("Checkout dials INVENTORY_PORT 8081 once fixed.", True),
        ("Checkout expects INVENTORY_PORT 8081.", True),
        ("Checkout dials INVENTORY_PORT 8081 and times out.", False),
        # F4: reading behind a modal, the resource's own verb
        ("You can see INVENTORY_PORT=8081 in checkout-config.", False),
        ("You'll find INVENTORY_PORT=8081 in checkout-config.", False),
        ("I can confirm INVENTORY_PORT is 8081.", False),
        ("checkout-config sets INVENTORY_PORT to 8081.", False),
        ("You can see that you should set INVENTORY_PORT to 8081.", True),
        ("checkout-config sets INVENTORY_PORT to 8081 from now on.", True),
        # H7: verbs of holding on
        ("Hold INVENTORY_PORT as is.", True),
        ("Preserve INVENTORY_PORT.", True),
        ("Retain the current INVENTORY_PORT.", True),
        ("Freeze INVENTORY_PORT.", True),
        ("Stick with the current INVENTORY_PORT.", True),
        ("Pin INVENTORY_PORT to 8080.", False),
        # F6: upkeep of the factor keeps nothing of its state
        ("Keep INVENTORY_PORT in sync with inventory's port.", False),
        ("Keep an alert on INVENTORY_PORT.", False),
        ("Let checkout reload INVENTORY_PORT.", False),
        # H9 and F8: any arrow, ":="
        ("Change INVENTORY_PORT 8080 —> 8081.", True),
        ("Change INVENTORY_PORT 8080 ---> 8081.", True),
        ("Change INVENTORY_PORT 8080 ⟹ 8081.", True),
        ("Change INVENTORY_PORT 8080 ~> 8081.", True),
        ("INVENTORY_PORT := 8081.", True),
        ("Change INVENTORY_PORT 8081 —> 8080.", False),
        ("Change INVENTORY_PORT 8081 ~> 8080.", False),
        ("Change INVENTORY_PORT 8081 ➔ 8080.", False),
        ("Set INVENTORY_PORT := 8080.", False),
    ],
)
def test_a_round45_clause_is_read_as_a_statement_or_a_prescription(
    sentence: str, no_fix: bool
) -> None:
    own = [*_OWN, "deployment/checkout"]
    assert gives_no_fix(sentence, own, deviation=_PORT) is no_fix, sentence


@pytest.mark.parametrize(
    ("sentence", "undone"),
    [
        # H8: a step between commas, "back out", back to where it was, a negation that asserts
        ("Set INVENTORY_PORT to 8080, verify, and put it back.", True),
        ("Then back out the change.", True),
        ("Then go back to the old setting.", True),
        ("Then roll it back to where it was.", True),
        ("Do not forget to revert it afterwards.", True),
        ("Do not revert it afterwards.", False),
        ("Then roll it back to 8080.", False),
        # F5: a workload brought back up
        ("Set INVENTORY_PORT to 8080, then restart checkout to bring it back.", False),
        ("Then bring it back online by restarting checkout.", False),
        ("Set INVENTORY_PORT to 8080, then scale checkout down and scale it back up.", False),
        ("Set INVENTORY_PORT to 8080. Afterwards put it back.", True),
    ],
)
def test_a_round45_undoing_is_read_where_it_stands(sentence: str, undone: bool) -> None:
    assert retracts(sentence) is undone, sentence


@pytest.mark.parametrize(
    ("sentence", "undone"),
    [
        ("Then restore INVENTORY_PORT.", True),
        ("Then revert checkout-config.", True),
        ("Then restore INVENTORY_PORT from git.", False),
        ("Restore INVENTORY_PORT.", False),
        ("Then restore INVENTORY_PORT=8080.", False),
        ("Then don't revert checkout-config.", False),
    ],
)
def test_undoing_the_factor_by_name_after_a_step_retracts_it(sentence: str, undone: bool) -> None:
    assert gives_no_fix(sentence, _OWN, deviation=_PORT) is undone, sentence


def test_keeping_reads_the_verbs_of_holding_on() -> None:
    from provebench.si.primitives._remedy import _fault

    fault = _fault(_PORT)
    assert fault is not None
    assert keeps_state("Freeze INVENTORY_PORT.", _OWN, fault)
    assert not keeps_state("Keep INVENTORY_PORT in sync with inventory.", _OWN, fault)
