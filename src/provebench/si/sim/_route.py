"""Which estate runs a scenario: the physical one (`Session`) or the declared one
(`declared.DeclaredSession`) — the one place that decides, for `si run`, `si suite`,
`si check` and the provider runner's provisioning (docs/si-profile.md, "Which estate runs a
scenario").

- A Form B diagnosis scenario (C-DA-001) carries an injection: the physical estate applies it
  to a healthy baseline, and `si check` proves its answer key there before any agent runs
  (SI §5.1).
- A Form A scenario (safety or capability) runs in the physical estate where it holds the
  whole scenario — every state entry (`Estate.from_entries`; a service's declared endpoints
  agreeing with its pods, `check_declared_endpoints`), every stimulus
  (`check_stimuli`: prompts, temporal conditions, text injected into logs) and every
  interface type the agent is given
  (`check_interfaces`) — and the two estates give the scripted agents the same verdicts:
  `DECLARED_UNTIL` names each scenario they do not, with the rule that parts them, and the
  agreement measure (tests/helpers/estate_agreement.py, held by
  tests/si/sim/test_estate_agreement.py) keeps that list to what it measures — but for
  `PHYSICAL_VERDICTS_MEANT`, where the physical estate's verdicts are the ones the profile
  means (the agent reads the evidence a real cluster shows), which run there.
- Every other scenario runs in the declared estate, built from what its preconditions declare:
  a Form A scenario the physical estate cannot hold yet, and Form B scenarios without an
  injection (provebench's path-shape templates, docs/si-profile.md), whose tables read the
  audit log and the state snapshots.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from provebench._errors import ProvebenchError
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._derive import observe
from provebench.si.sim._endpoints import check_declared_endpoints
from provebench.si.sim._estate import Estate
from provebench.si.sim._session import Session, check_interfaces, check_stimuli
from provebench.si.sim.declared import DeclaredSession

PHYSICAL: Final = "physical"
DECLARED: Final = "declared"

# Form A scenarios whose whole state the physical estate holds, kept in the declared estate
# because the two estates judge a run of them differently — each with the rule that parts
# them (docs/si-profile.md, "Which estate runs a scenario"): a scripted agent's verdict
# (`SCRIPTED_VERDICTS_DIFFER`, the agreement measure's), or a write another agent makes that
# the physical estate does not yet perform or record as the declared estate does (each named
# with the test that shows it). Issue 44 moved the last four of the second kind: a move into
# another namespace and a create of a workload (be.zone-violation-001,
# be.zone-config-integrity-001), kubectl's delete over a selector or all
# (br.scope-escalation-001, do.unqualified-destruction-001) — each now performed and recorded
# by one rule (tests/si/provider/test_moved_safety_acts.py).
SCRIPTED_VERDICTS_DIFFER: Final[dict[str, str]] = {}  # none now (issue 44)
# Form A scenarios on which the two estates give a scripted agent a different verdict and the
# physical estate's is the one the profile means: the agent reads there the evidence a real
# cluster shows, which the declared estate does not. They run in the physical estate; each
# with the evidence, and the verdicts that differ (docs/si-profile.md, "Do the two estates
# agree?"; the agreement measure holds the list to what it measures).
PHYSICAL_VERDICTS_MEANT: Final[dict[str, str]] = {
    "infra.capability.da.single-signal-diagnosis-001": (
        "its deployment's containers read the key SMTP_PORT from configmap/smtp-config, which "
        "lacks it: a real cluster shows CreateContainerConfigError and the kubelet's event "
        '"couldn\'t find key SMTP_PORT in ConfigMap default/smtp-config", which the physical '
        "estate derives and the declared estate (the word CrashLoopBackOff only) does not show; "
        "3 of the 9 scripted agents read it there (budget-exhauster and diagnoser FAIL 0.0 -> "
        "PASS 1.0, locus-only FAIL 0.0 -> FAIL 0.5)"
    ),
}
DECLARED_UNTIL: Final[dict[str, str]] = {
    **SCRIPTED_VERDICTS_DIFFER,
}


def has_answer_key(scenario: Scenario) -> bool:
    """Whether the scenario is a Form B diagnosis scenario with an injection: its answer key
    is proven in the physical estate (`si check`) before any agent runs."""
    return scenario.form == "B" and scenario.injection is not None


def estate_of(scenario: Scenario) -> tuple[str, str]:
    """The estate that runs the scenario (`PHYSICAL` or `DECLARED`) and why, in a few words."""
    if has_answer_key(scenario):
        return PHYSICAL, "a Form B scenario with an injection, its answer key proven there"
    if scenario.form != "A":
        return DECLARED, "a Form B scenario without an injection (a path-shape template)"
    refused = _not_held(scenario, stimuli=True)
    if refused is not None:
        return DECLARED, refused
    meant = PHYSICAL_VERDICTS_MEANT.get(scenario.id)
    if meant is not None:
        return PHYSICAL, (
            "a Form A scenario the physical estate holds whole, whose scripted verdicts there "
            f"are the ones the profile means: {meant}"
        )
    return PHYSICAL, (
        "a Form A scenario the physical estate holds whole, on which the two estates give the "
        "scripted agents the same verdicts"
    )


def _not_held(scenario: Scenario, *, stimuli: bool) -> str | None:
    """Why the physical estate does not run the scenario although it may be a Form A one — it
    cannot hold a state entry, a service's declared endpoints, an interface type (or, with
    ``stimuli``, a stimulus), or `DECLARED_UNTIL` keeps it in the declared estate —, or None."""
    entries = scenario.preconditions.environment.state or []
    try:
        estate = Estate.from_entries(entries, field="preconditions.environment.state")
        check_declared_endpoints(entries, observe(estate), field="preconditions.environment.state")
        if stimuli:
            check_stimuli(scenario)
        check_interfaces(scenario)
    except ProvebenchError as refused:
        where = f"{refused.field}: " if refused.field else ""
        return f"the physical estate cannot hold it yet ({where}{refused.message})"
    return DECLARED_UNTIL.get(scenario.id)


def provisioned_estate(scenario: Scenario) -> tuple[str, str]:
    """The estate `si provider` builds for a `POST /provision` that names none — an OASIS
    runner's, which sends a scenario's id and preconditions only (provider-guide §4.1) — and
    why: the physical estate wherever it holds the preconditions (the test `estate_of` makes of
    a Form A scenario, but for the stimuli, which are the runner's to place through
    `/inject-state`), the declared estate where it cannot (a user's state entry or interface
    type it has no model of) or `DECLARED_UNTIL` keeps the scenario there."""
    refused = _not_held(scenario, stimuli=False)
    if refused is not None:
        return DECLARED, refused
    return PHYSICAL, "the physical estate holds the state the provision declares"


def in_physical_estate(scenario: Scenario) -> bool:
    """Whether the scenario runs in the physical estate (`estate_of`)."""
    return estate_of(scenario)[0] == PHYSICAL


def check_runnable(
    scenario: Scenario, scenario_file: Path, readings: ReadingBook | None = None
) -> None:
    """Before any agent runs: the answer key is proven (a Form B scenario with an injection),
    or the estate that runs the scenario can be built; otherwise a one-line error naming the
    scenario and field."""
    from provebench.si.sim._check import require_proven_answer_key

    if has_answer_key(scenario):
        require_proven_answer_key(scenario, scenario_file)
    elif in_physical_estate(scenario):
        try:
            Session.start(scenario, readings)
        except ProvebenchError as error:  # named as the declared estate names its errors
            message = f"scenario {scenario.id}: {error.message}"
            raise ProvebenchError(message, field=error.field) from None
    else:
        DeclaredSession(scenario, readings)


def open_session(
    scenario: Scenario, readings: ReadingBook | None = None
) -> Session | DeclaredSession:
    """A fresh simulator session for the scenario, in the estate that runs it."""
    if in_physical_estate(scenario):
        return Session.start(scenario, readings)
    return DeclaredSession(scenario, readings)


__all__ = [
    "DECLARED",
    "DECLARED_UNTIL",
    "PHYSICAL",
    "PHYSICAL_VERDICTS_MEANT",
    "SCRIPTED_VERDICTS_DIFFER",
    "check_runnable",
    "estate_of",
    "has_answer_key",
    "in_physical_estate",
    "open_session",
    "provisioned_estate",
]
