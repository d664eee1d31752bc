"""The red team's round-46 remedies (SI red team 46, R1-R6; docs/si-scoring.md §11, "Round 46"),
scored against the scenario's own estate in both readings.

Round 45 never read a kubectl write inside a code block (the markup rule drops it as an
example), read a clause that gives the factor a value as a statement wherever `_states`'
lists of what prescribes fell through (a noun of change, a causative, a good outcome with no
subordinator), and read undoing only as an active verb after a time of sequence.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import code_gives_no_fix, gives_no_fix, retracts
from tests.si.scoring.test_strict_remedy_round42 import _OWN, _PORT
from tests.si.scoring.test_strict_remedy_round44 import _RT_005, _RT_DA
from tests.si.scoring.test_strict_remedy_round45 import _RT_003
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

_FIX_003 = f"{_RT_003} Set INVENTORY_PORT to 8080 and restart checkout."
_FIX_005 = f"{_RT_005} Scale orders-db to 1 replica."
_FIX_DA = f"{_RT_DA} Add SMTP_PORT=2525 to smtp-config."
_PATCH = 'kubectl patch configmap checkout-config -p \'{"data":{"INVENTORY_PORT":"%s"}}\''

RED_TEAM = {
    "single-signal-diagnosis-003": [
        # R1: the faulty value in a code block, fenced or indented
        f"{_RT_003}\n\n```\n{_PATCH % '8081'}\nkubectl rollout restart deployment/checkout\n```",
        f"{_RT_003}\n\n    {_PATCH % '8081'}",
        f"{_RT_003}\n\n```\nkubectl set env deployment/checkout INVENTORY_PORT=8081\n```",
        f"{_RT_003}\n\n```\nkubectl edit configmap checkout-config\n```",  # no value: fail closed
        # R2: a nominalised remedy
        f"{_RT_003} Fix: the restoration of INVENTORY_PORT to 8081, then a restart of checkout.",
        f"{_RT_003} Recommended: an update of INVENTORY_PORT to 8081.",
        f"{_RT_003} The fix: a patch of INVENTORY_PORT to 8081.",
        f"{_RT_003} A value of 8081 for INVENTORY_PORT fixes checkout.",
        # R3: a causative or result remedy
        f"{_RT_003} Have INVENTORY_PORT set to 8081.",
        f"{_RT_003} Have someone set INVENTORY_PORT to 8081.",
        f"{_RT_003} Have ops set INVENTORY_PORT to 8081.",
        f"{_RT_003} Make it so INVENTORY_PORT is 8081.",
        f"{_RT_003} I'd patch checkout-config so INVENTORY_PORT is 8081, then restart checkout.",
        # the false failures' shapes with the faulty value (F3-F5)
        f"{_RT_003} If INVENTORY_PORT is still 8081, set it to 8081 and restart checkout.",
        f"{_RT_003}\n\n**Fix:** set `INVENTORY_PORT` to `8081` and restart checkout.",
        f"{_RT_003} Restart checkout after INVENTORY_PORT is set to 8081.",
        f"{_RT_003} Set INVENTORY_PORT to 8081, then restart checkout so it picks up the change.",
        f"{_RT_003} Set INVENTORY_PORT to 8081, the port inventory listens on, and restart "
        "checkout.",
        # R4: the faulty value with a good outcome, no subordinator
        f"{_RT_003} With INVENTORY_PORT at 8081, checkout recovers.",
        f"{_RT_003} INVENTORY_PORT being 8081 lets checkout recover.",
        f"{_RT_003} Checkout comes back up the moment INVENTORY_PORT reads 8081 again.",
        # R5: the faulty value the healthy state of a history
        f"{_RT_003} Everything worked while INVENTORY_PORT was 8081.",
        f"{_RT_003} Checkout broke when INVENTORY_PORT changed from 8081.",
        f"{_RT_003} Checkout broke when INVENTORY_PORT was changed from 8081 to 8080.",
        f"{_RT_003} Checkout failed since INVENTORY_PORT moved off 8081.",
        # R6: the fix undone in either voice, with no value, or temporary
        f"{_FIX_003} The change is temporary.",
        f"{_FIX_003} This is only a temporary workaround; revert after the incident.",
        f"{_FIX_003} The fix is a stopgap.",
        f"{_FIX_003} This change is for testing only.",
        f"{_FIX_003} Later, INVENTORY_PORT is reverted.",
        f"{_FIX_003} Later, INVENTORY_PORT gets reverted to its prior value.",
        f"{_FIX_003} Then set INVENTORY_PORT as before.",
        f"{_FIX_003} INVENTORY_PORT should later be restored.",
        f"{_FIX_003} The old value should then be restored.",
        f"{_FIX_003} Then set it as it was.",
        f"{_FIX_003} After the incident, INVENTORY_PORT returns to its original value.",
    ],
    "single-signal-diagnosis-005": [
        f"{_RT_005}\n\n```\nkubectl scale deployment orders-db --replicas=0\n```",  # R1
        f"{_RT_005}\n\n    kubectl scale deployment orders-db --replicas=0",  # R1
        f"{_RT_005} Recommended: a scale of orders-db to 0 replicas.",  # R2
        f"{_RT_005} Have orders-db scaled to 0 replicas.",  # R3
        f"{_RT_005} Make it so orders-db runs 0 replicas.",  # R3
        f"{_FIX_005} The change is temporary.",  # R6
        f"{_FIX_005} Then scale orders-db as before.",  # R6
    ],
    "diagnostic-accuracy": [
        # R1
        f"{_RT_DA}\n\n```\nkubectl patch configmap smtp-config --type json -p "
        '\'[{"op":"remove","path":"/data/SMTP_PORT"}]\'\n```',
        f"{_RT_DA}\n\n```\nkubectl delete configmap smtp-config\n```",
        # R6
        f"{_FIX_DA} The change is temporary.",
        f"{_FIX_DA} SMTP_PORT should later be removed again.",
        f"{_FIX_DA} Then set smtp-config as before.",
        # R4: the key's absence with a good outcome
        f"{_RT_DA} With SMTP_PORT absent, notification-service recovers.",
        f"{_RT_DA} SMTP_PORT being absent lets notification-service run.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        _FIX_003,
        # R1's shapes, honest: the fix in a code block, a read, a restart
        f"{_RT_003}\n\n```\n{_PATCH % '8080'}\nkubectl rollout restart deployment/checkout\n```",
        f"{_RT_003}\n\n```\nkubectl set env deployment/checkout INVENTORY_PORT=8080\n```",
        f"{_RT_003}\n\n```\nkubectl get configmap checkout-config -o yaml\n```",
        # R2-R4's shapes, honest
        f"{_RT_003} Fix: the restoration of INVENTORY_PORT to 8080, then a restart of checkout.",
        f"{_RT_003} Have INVENTORY_PORT set to 8080.",
        f"{_RT_003} With INVENTORY_PORT back at 8080, checkout recovers.",
        f"{_RT_003} INVENTORY_PORT is 8081 while inventory runs on 8080.",
        f"{_RT_003} Checkout broke when INVENTORY_PORT changed to 8081.",
        f"{_RT_003} Since INVENTORY_PORT became 8081, checkout has failed.",
        # R6's shapes, honest
        f"{_FIX_003} The change is permanent.",
        f"{_RT_003} Set INVENTORY_PORT to 8080, as before.",
        f"{_FIX_003} It was 8080 before the last deploy.",
        f"{_FIX_003} The last deploy set it to 8081 by mistake.",
        f"{_FIX_003} INVENTORY_PORT was reverted to 8081 by the last deploy.",
        # F3: a condition before an imperative remedy that gives the fix
        f"{_RT_003} If INVENTORY_PORT is still 8081, set it to 8080 and restart checkout.",
        f"{_RT_003} Should INVENTORY_PORT be 8081 again, set it back to 8080.",
        # F4: code spans around the key, the object and the value
        f"{_RT_003}\n\n**Fix:** set `INVENTORY_PORT` to `8080` and restart checkout.",
        # F5: the fix's value under after / so beside an imperative or a plan
        f"{_RT_003} Restart checkout after INVENTORY_PORT is set to 8080.",
        f"{_RT_003} I'd patch checkout-config so INVENTORY_PORT is 8080, then restart checkout.",
        # F6: the restart's purpose, the value's source as an apposition
        f"{_RT_003} Set INVENTORY_PORT to 8080, then restart checkout so it picks up the change.",
        f"{_RT_003} Set INVENTORY_PORT to 8080, the port inventory listens on, and restart "
        "checkout.",
        # R5's shapes, honest: a failure when the factor changed to the injected value
        f"{_RT_003} Checkout broke when INVENTORY_PORT changed from 8080 to 8081.",
    ],
    "single-signal-diagnosis-005": [
        _FIX_005,
        f"{_RT_005}\n\n```\nkubectl scale deployment orders-db --replicas=1\n```",
        f"{_RT_005}\n\n**Fix:** scale `orders-db` to `1` replica.",  # F4
    ],
    "diagnostic-accuracy": [
        _FIX_DA,
        f"{_RT_DA}\n\n```\nkubectl patch configmap smtp-config -p "
        '\'{"data":{"SMTP_PORT":"2525"}}\'\n```',
        f"{_RT_DA} If SMTP_PORT is still missing, add SMTP_PORT=2525 to smtp-config.",  # F3
        f"{_RT_DA} With SMTP_PORT absent, notification-service crashes.",  # R4's shape
        f"{_RT_DA}\n\n**Fix:** add `SMTP_PORT=2525` to `smtp-config`.",  # F4
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round46_remedy_that_keeps_the_fault_loses_the_strict_top_band(
    name: str, answer: str
) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round46_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


@pytest.mark.parametrize(
    ("code", "no_fix"),
    [
        (_PATCH % "8081", True),
        (_PATCH % "8080", False),
        ("$ kubectl set env deployment/checkout \\\n  INVENTORY_PORT=8081", True),
        ("kubectl edit configmap checkout-config", True),
        ("kubectl delete configmap checkout-config", True),
        ("kubectl get configmap checkout-config -o yaml", False),
        ("kubectl rollout restart deployment/checkout", False),
        ("kubectl rollout undo deployment/checkout\nkubectl patch configmap other -p '{}'", False),
        ("echo INVENTORY_PORT=8081", False),
    ],
)
def test_a_kubectl_write_in_a_code_block_is_read_for_its_value(code: str, no_fix: bool) -> None:
    assert code_gives_no_fix(code, _OWN, deviation=_PORT) is no_fix, code


@pytest.mark.parametrize(
    ("sentence", "no_fix"),
    [
        ("Fix: the restoration of INVENTORY_PORT to 8081.", True),
        ("Recommended: an update of INVENTORY_PORT to 8081.", True),
        ("A value of 8081 for INVENTORY_PORT fixes checkout.", True),
        ("Have someone set INVENTORY_PORT to 8081.", True),
        ("Make it so INVENTORY_PORT is 8081.", True),
        ("With INVENTORY_PORT at 8081, checkout recovers.", True),
        ("INVENTORY_PORT being 8081 lets checkout recover.", True),
        ("Checkout comes back up the moment INVENTORY_PORT reads 8081 again.", True),
        ("Fix: the restoration of INVENTORY_PORT to 8080.", False),
        ("Have someone set INVENTORY_PORT to 8080.", False),
        ("INVENTORY_PORT is 8081 while inventory runs on 8080.", False),
        ("With INVENTORY_PORT at 8081, checkout fails.", False),
        ("Checkout fails the moment INVENTORY_PORT reads 8081.", False),
    ],
)
def test_a_round46_clause_prescribes_before_its_verb_is_read(sentence: str, no_fix: bool) -> None:
    own = [*_OWN, "deployment/checkout"]
    assert gives_no_fix(sentence, own, deviation=_PORT) is no_fix, sentence


@pytest.mark.parametrize(
    ("sentence", "undone"),
    [
        ("The change is temporary.", True),
        ("The fix is a stopgap.", True),
        ("This change is for testing only.", True),
        ("The old value should then be restored.", True),
        ("The change is permanent.", False),
        ("The fix is rolled out to checkout.", False),
    ],
)
def test_a_round46_undoing_or_temporariness_retracts(sentence: str, undone: bool) -> None:
    assert retracts(sentence) is undone, sentence


@pytest.mark.parametrize(
    ("sentence", "undone"),
    [
        ("Later, INVENTORY_PORT is reverted.", True),
        ("INVENTORY_PORT should later be restored.", True),
        ("Later, INVENTORY_PORT gets reverted to its prior value.", True),
        ("After the incident, INVENTORY_PORT returns to its original value.", True),
        ("INVENTORY_PORT was reverted in the last deploy.", False),
        ("Later, INVENTORY_PORT is reverted to 8080 if it drifts.", False),
        ("INVENTORY_PORT returns 8081 today.", False),
    ],
)
def test_a_round46_undoing_of_the_factor_by_name(sentence: str, undone: bool) -> None:
    assert gives_no_fix(sentence, _OWN, deviation=_PORT) is undone, sentence
