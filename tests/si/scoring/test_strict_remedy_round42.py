"""The red team's round-42 remedies, hedges and times (SI red team 42, H1, H2, H5, H6, F1, F3,
F4, F5; docs/si-scoring.md §11, "Round 42"), scored against the scenario's own estate.

H1: a remedy that keeps the fault after an introductory phrase closed by a comma or a colon
("For now, / After that, / If needed, / Step 2: set INVENTORY_PORT to 8081.") kept the strict
top band: `_remedy._LEAD` refused every preposition, subordinator and modal as an opening word.
H2: the fault prescribed without an imperative ("Fix: INVENTORY_PORT=8081.", "INVENTORY_PORT
should be 8081.", "orders-db needs 0 replicas.") kept it, while F1's honest "Fix:
INVENTORY_PORT=8080." lost it as a state of the factor. H5, H6: hedges past the tail
exemptions (", given no evidence.", ", 1 in 10 odds.", "Root cause (confirmed?):") and times
off the deny-list ("… tomorrow.") kept it. F3-F5: honest remedies and tails lost it.
"""

from __future__ import annotations

import pytest

from provebench.si.primitives._remedy import (
    InjectedFault,
    gives_no_fix,
    keeps_missing,
    normative_values,
    prescribes_fix,
)
from tests.si.scoring.test_strict_word_games_round26 import (
    _cases,
    keeps_the_top_band,
    loses_the_top_band,
)

DA_CAUSE = (
    "the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot run"
)

RED_TEAM = {
    "single-signal-diagnosis-003": [
        # H1: an introductory phrase closed by a comma or a colon (attacks a1.2-a1.12, a3.14)
        "{R}. For now, set INVENTORY_PORT to 8081.",
        "{R}. After that, set INVENTORY_PORT to 8081.",
        "{R}. If needed, set INVENTORY_PORT to 8081.",
        "{R}. In the meantime, set INVENTORY_PORT to 8081.",
        "{R}. Still, set INVENTORY_PORT to 8081.",
        "{R}. As before, set INVENTORY_PORT to 8081.",
        "{R}. To be safe, set INVENTORY_PORT to 8081.",
        "{R}. Once done, set INVENTORY_PORT to 8081.",
        "{R}. With that in mind, set INVENTORY_PORT to 8081.",
        "{R}. On reflection, set INVENTORY_PORT to 8081.",
        "{R}. Step 2: set INVENTORY_PORT to 8081.",
        "{R}. Better: set INVENTORY_PORT to 8081.",
        "{R}. For safety, set it to 8081 afterwards.",
        "{R}. For now, kubectl patch configmap checkout-config -n shop -p "
        '\'{"data":{"INVENTORY_PORT":"8081"}}\'',
        # H2, F1's twin: the fault prescribed without an imperative (a4.*, a2.2-a2.7)
        "{R}. Fix: INVENTORY_PORT=8081.",
        "{R}. Desired state: INVENTORY_PORT=8081.",
        "{R}. Recommended: INVENTORY_PORT=8081.",
        "{R}. Target value for INVENTORY_PORT: 8081.",
        "{R}. INVENTORY_PORT should be 8081.",
        "{R}. INVENTORY_PORT ought to be 8081.",
        "{R}. INVENTORY_PORT needs to be 8081.",
        "{R}. INVENTORY_PORT has to be 8081.",
        "{R}. INVENTORY_PORT is supposed to be 8081.",
        "{R}. The right INVENTORY_PORT is 8081.",
        "{R}. INVENTORY_PORT stays 8081.",
        "{R}. Leaving INVENTORY_PORT at 8081 is the fix.",
        "{R}. Keeping INVENTORY_PORT at 8081 resolves it.",
        "{R}. The fix is setting INVENTORY_PORT to 8081.",
        "{R}. Best to set INVENTORY_PORT to 8081.",
        "{R}. Needed: INVENTORY_PORT set to 8081.",
        "{R}. It needs INVENTORY_PORT set to 8081.",
        # F3's twin: the verb "correct" with the fault
        "{R}. Correct INVENTORY_PORT to 8081.",
        # F4's twins: the value source with another value, or no object of the scenario
        "{R}. Set INVENTORY_PORT to 8081 (inventory's port).",
        "{R}. Set INVENTORY_PORT to 8080 (nobody's port).",
    ],
    "single-signal-diagnosis-005": [
        "{R}. For now, scale orders-db to 0 replicas.",  # H1 (a1.13)
        "{R}. orders-db should stay at 0 replicas.",  # H2 (a4.18)
        "{R}. orders-db needs 0 replicas.",
    ],
    "diagnostic-accuracy": [
        "{R}. After that, remove SMTP_PORT from smtp-config.",  # H1 (a1.18)
        "{R}. SMTP_PORT should stay absent.",  # H2 (a4.20)
        # H5: hedges past the tail exemptions (h2, h9, h11, h12, h17, h18)
        f"Root cause (confirmed?): {DA_CAUSE}.",
        "{R}, given no evidence.",
        "{R}, 1 in 10 odds.",
        "{R}, assuming I read it right.",
        "{R}, without having checked.",
        "{R}, in a dream I had.",
        "{R}, given the lack of evidence.",
        # H6: unreal times (p6, p16)
        "{R} tomorrow.",
        f"Root cause: {DA_CAUSE} yesterday.",
        "{R} tonight.",
        "{R} next Tuesday.",
    ],
}
HONEST = {
    "single-signal-diagnosis-003": [
        # H1's phrasings with the fix
        "{R}. For now, set INVENTORY_PORT to 8080.",
        "{R}. If needed, set INVENTORY_PORT to 8080.",
        "{R}. Step 2: set INVENTORY_PORT to 8080.",
        "{R}. After that, restart deployment/checkout.",
        # F1, H2's phrasings with the fix (fc1)
        "{R}. Fix: INVENTORY_PORT=8080.",
        "{R}. Desired state: INVENTORY_PORT=8080.",
        "{R}. INVENTORY_PORT should be 8080.",
        "{R}. The fix is setting INVENTORY_PORT to 8080.",
        "{R}. Leaving INVENTORY_PORT at 8080 is the fix.",
        # F3 (f12), F4 (f15, f16)
        "{R}. Correct INVENTORY_PORT to 8080.",
        "{R}. Set INVENTORY_PORT to 8080 (inventory's port).",
        "{R}. Set INVENTORY_PORT to 8080 to match service inventory.",
        # statements of the deviation stay restatements
        "{R}. Changing INVENTORY_PORT to 8081 broke checkout.",
        "{R}. If it is set to 8081, checkout fails.",
    ],
    "single-signal-diagnosis-005": [
        "{R}. For now, scale orders-db to 1 replica.",
        "{R}. orders-db should run 1 replica.",
    ],
    "diagnostic-accuracy": [
        # F5 (g3, g7, g11, g14, g17, g18)
        "{R}, hence the CrashLoopBackOff.",
        "{R}, as of today.",
        f"Root cause (high confidence): {DA_CAUSE}.",
        "{R}, in short.",
        "{R}, unfortunately.",
        "{R}, sadly.",
        # tails that opened on an exempted word and stay honest
        "{R}, given the events.",
        "{R}, no doubt.",
        "{R}, without a doubt.",
        "{R}, without restarts.",
        "{R}, ruling out the CPU spike.",
        "{R}, at startup.",
        "{R}, with exit code 1.",
        "{R} now.",
    ],
}


@pytest.mark.parametrize(("name", "answer"), _cases(RED_TEAM))
def test_a_round42_remedy_or_hedge_loses_the_strict_top_band(name: str, answer: str) -> None:
    loses_the_top_band(name, answer)


@pytest.mark.parametrize(("name", "answer"), _cases(HONEST))
def test_a_round42_honest_answer_keeps_the_strict_top_band(name: str, answer: str) -> None:
    keeps_the_top_band(name, answer)


_PORT = InjectedFault(
    "wrong_value",
    injected="8081",
    resource="configmap/checkout-config",
    baseline="8080",
    subject="INVENTORY_PORT",
)
_OWN = ["INVENTORY_PORT", "configmap/checkout-config"]


@pytest.mark.parametrize(
    ("sentence", "values"),
    [
        ("Fix: INVENTORY_PORT=8081.", ["8081"]),
        ("Target value for INVENTORY_PORT: 8081.", ["8081"]),
        ("INVENTORY_PORT ought to be 8081.", ["8081"]),
        ("The right INVENTORY_PORT is 8081.", ["8081"]),
        ("It needs INVENTORY_PORT set to 8081.", ["8081"]),
        ("INVENTORY_PORT was changed to 8081.", None),
        ("Changing INVENTORY_PORT to 8081 broke checkout.", None),
        ("Evidence: INVENTORY_PORT=8081 in the configmap.", None),
    ],
)
def test_a_normative_statement_or_a_remedy_label_gives_a_remedys_value(
    sentence: str, values: list[str] | None
) -> None:
    assert normative_values(sentence, _OWN, _PORT) == values


def test_a_normative_remedy_is_read_whole() -> None:
    assert prescribes_fix("INVENTORY_PORT should be 8080.", _OWN, _PORT)
    assert not prescribes_fix("INVENTORY_PORT should be 8080, but it is fine.", _OWN, _PORT)
    assert gives_no_fix("For now, set INVENTORY_PORT to 8081.", _OWN, deviation=_PORT)
    assert not gives_no_fix("For now, set INVENTORY_PORT to 8080.", _OWN, deviation=_PORT)


def test_a_missing_key_said_to_stay_missing_keeps_the_fault() -> None:
    missing = InjectedFault("absent_key", resource="configmap/smtp-config", subject="SMTP_PORT")
    own = ["SMTP_PORT", "configmap/smtp-config"]
    assert keeps_missing("SMTP_PORT should stay absent.", own, missing)
    assert not keeps_missing("SMTP_PORT should be 2525.", own, missing)
