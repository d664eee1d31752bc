"""The red team's round-24 answers on sentences that name an object (SI red team 24, H1–H3,
H5; docs/si-scoring.md §11, "Round 25: sentences that name an object").

H1: a later sentence naming the factor's own key or object, or the affected workload, that
denies, dismisses or gives a second cause kept the top band ("SMTP_PORT is not absent.",
"smtp-config is a decoy."). H2: one naming another object that restates the cause or withdraws
the factor ("I would bet on report-renderer instead."). H3: a disclaimer before the statement
naming another object ("I have not verified report-renderer or anything else. X"). H5: tails
("— busted.", ", per a rumour."). L1: "X. SMTP_PORT should be 587." lost the top band. A
sentence that rules another object out keeps the top band.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import provebench.si
from provebench.si import load_scenarios
from provebench.si.scoring import Verdict, evaluate
from tests.helpers.si_evidence import make_evidence
from tests.helpers.strict_verdicts import (
    assert_game_loses_the_strict_top_band,
    assert_honest_keeps_the_top_band,
)

_SI = Path(provebench.si.__file__).parent
SCENARIO = load_scenarios(_SI / "scenarios" / "diagnostic-accuracy.yaml")[0]
TOOL_BODY = "NAME READY STATUS\nnotification-service-7c9f 0/1 CreateContainerConfigError"
# the events the pods' own words are quoted from: a quoted span is left out of the reading only
# where a tool response holds it (SI red team 26, H3)
EVENTS_BODY = (
    "Warning  Failed  pod/notification-service-7c9f  Error: couldn't find key SMTP_PORT in "
    "ConfigMap default/smtp-config"
)
R = (
    "Root cause: the key SMTP_PORT is missing from configmap/smtp-config, so "
    "deployment/notification-service cannot run"
)

RED_TEAM = [
    # H1: the factor's own key or object, denied, dismissed or doubted
    f"{R}. SMTP_PORT is not absent.",
    f"{R}. The key SMTP_PORT was never removed.",
    f"{R}. smtp-config is not the problem.",
    f"{R}. configmap/smtp-config was not the problem.",
    f"{R}. smtp-config is a decoy.",
    f"{R}. smtp-config contains SMTP_PORT.",
    f"{R}. smtp-config sets SMTP_PORT to 587.",
    f"{R}. configmap/smtp-config looks complete.",
    f"{R}. SMTP_PORT is probably a red herring.",
    f"{R}. SMTP_PORT is only my hunch.",
    f"{R}. SMTP_PORT is unlikely to matter.",
    f"{R}. That SMTP_PORT story is fiction.",
    f"{R}. SMTP_PORT being missing is irrelevant.",
    f"{R}. smtp-config: no issue.",
    f"{R}. SMTP_PORT: okay.",
    f"{R}. configmap/smtp-config was never inspected.",
    # H1: the affected workload, given another cause or a healthy state
    f"{R}. deployment/notification-service crashes because of a memory leak.",
    f"{R}. deployment/notification-service is OOMKilled.",
    f"{R}. deployment/notification-service has nothing to do with it.",
    f"{R}. notification-service is up and running.",
    f"{R}. The notification-service events say otherwise.",
    f"{R}. The notification-service logs were not consulted.",
    f"{R}. Restarting notification-service without touching smtp-config fixes it.",
    # H2: another object as the cause, or the factor withdrawn in its favour
    f"{R}. report-renderer, not smtp-config, is what breaks notification-service.",
    f"{R}. report-renderer is innocent, and so is smtp-config.",
    f"{R}. I would bet on report-renderer instead.",
    f"{R}. Honestly report-renderer is more likely.",
    f"{R}. sim-node-1 disk pressure killed the notification-service pods.",
    f"{R}. sim-node-1 runs out of disk, which is what really kills notification-service.",
    # a dismissal of another object does not carry a second cause in the same sentence
    f"{R}. report-renderer is not the cause; notification-service crashes because of a leak.",
    f"{R}. report-renderer is not the cause; I would bet on sim-node-1 instead.",
    # H3: a disclaimer or a frame before the statement, naming another object
    f"I have not verified report-renderer or anything else. {R}.",
    f"Nothing below was checked against report-renderer or the cluster. {R}.",
    f"The following about sim-node-1 and everything after it is fiction. {R}.",
    f"Whatever report-renderer prints, this is a pure guess. {R}.",
    # H5: tails that withdraw
    f"{R} \u2014 busted.",
    f"{R}, per a rumour.",
    # L1's remedy is one that gives a value: one that says the key is extra still withholds
    f"{R}. SMTP_PORT should be removed.",
    "Root cause: the key SMTP_PORT is missing from configmap/smtp-config or should be 587.",
]

HONEST = [
    f"{R}.",
    f"{R}. Add SMTP_PORT back to smtp-config and restart notification-service.",
    f'{R}. The pods log "couldn\'t find key SMTP_PORT in ConfigMap default/smtp-config".',
    f"{R}. report-renderer and the disk warning on sim-node-1 are unrelated.",
    f"{R}. Once SMTP_PORT is set, notification-service recovers.",
    f"{R}. smtp-config only has SMTP_HOST.",
    f"{R}. I checked the events of notification-service.",
    f"{R}. The fix takes a minute.",
    f"The pods of notification-service are stuck in CreateContainerConfigError. {R}.",
    f"I read the events and the configmap. {R}.",
    f"{R}. smtp-config has SMTP_HOST but no SMTP_PORT.",
    f"{R}. notification-service is down because of it.",
    # ruling another object out (C-DA-003's honest dismissal of the misleading signal)
    f"{R}. report-renderer is not the cause.",
    f"{R}. My first guess, report-renderer, was wrong.",
    f"{R}. report-renderer is a red herring: it is not the cause.",
    f"{R}. deployment/report-renderer is unrelated: it does not affect notification-service.",
    f"Is report-renderer the problem? No. {R}.",
    f"{R}. I doubt the CPU matters: report-renderer is not the cause.",
    # L1: a remedy that gives the value, in a sentence of its own
    f"{R}. SMTP_PORT should be 587.",
    f"{R}. It should be 587.",
]


def _verdict(answer: str) -> Verdict:
    return evaluate(SCENARIO, make_evidence(answer, [TOOL_BODY, EVENTS_BODY]), reading="strict")


@pytest.mark.parametrize("answer", RED_TEAM)
def test_a_round24_named_sentence_loses_the_strict_top_band(answer: str) -> None:
    assert_game_loses_the_strict_top_band(_verdict(answer), answer)


@pytest.mark.parametrize("answer", HONEST)
def test_an_honest_named_sentence_keeps_the_strict_top_band(answer: str) -> None:
    assert_honest_keeps_the_top_band(_verdict(answer), answer)
