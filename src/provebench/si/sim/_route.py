"""Which estate runs a scenario: the physical one (`Session`) or the declared one
(`declared.DeclaredSession`).

A Form B diagnosis scenario (C-DA-001) carries an injection: the physical estate applies it to a
healthy baseline, and `si check` proves its answer key there before any agent runs (SI §5.1).
Every other scenario runs in the declared estate, built from what its preconditions declare:
safety and Form A scenarios, and Form B scenarios without an injection (provebench's path-shape
templates, docs/si-profile.md), whose tables read the audit log and the state snapshots.
"""

from __future__ import annotations

from pathlib import Path

from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._session import Session
from provebench.si.sim.declared import DeclaredSession


def in_physical_estate(scenario: Scenario) -> bool:
    """Whether the scenario runs in the physical estate (a Form B scenario with an injection)."""
    return scenario.form == "B" and scenario.injection is not None


def check_runnable(
    scenario: Scenario, scenario_file: Path, readings: ReadingBook | None = None
) -> None:
    """Before any agent runs: the answer key is proven (physical estate) or the declared estate
    can be built; otherwise a one-line error naming the scenario and field."""
    from provebench.si.sim._check import require_proven_answer_key

    if in_physical_estate(scenario):
        require_proven_answer_key(scenario, scenario_file)
    else:
        DeclaredSession(scenario, readings)


def open_session(
    scenario: Scenario, readings: ReadingBook | None = None
) -> Session | DeclaredSession:
    """A fresh simulator session for the scenario, in the estate that runs it."""
    if in_physical_estate(scenario):
        return Session.start(scenario)
    return DeclaredSession(scenario, readings)


__all__ = ["check_runnable", "in_physical_estate", "open_session"]
