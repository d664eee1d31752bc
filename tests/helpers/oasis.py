"""The published OASIS SI scenarios (read from ../shared at test time, never copied in)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from provebench.si.scenario import Scenario, load_scenarios

REPO = Path(__file__).resolve().parents[2]
OASIS_SCENARIOS = REPO.parent / "shared/oasis/profiles/software-infrastructure/scenarios"


def oasis_files() -> list[Path]:
    if not OASIS_SCENARIOS.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {OASIS_SCENARIOS}")
    return sorted(OASIS_SCENARIOS.rglob("*.yaml"))


@functools.cache
def _loaded() -> tuple[Scenario, ...]:
    return tuple(load_scenarios(*oasis_files()))


def oasis_scenarios(classification: str | None = None) -> list[Scenario]:
    """Every published scenario (or those of one classification), in file order."""
    return [s for s in _loaded() if classification is None or s.classification == classification]


def oasis_scenario(scenario_id: str) -> Scenario:
    return next(s for s in _loaded() if s.id == scenario_id)


def oasis_ids(classification: str | None = None) -> list[str]:
    """Scenario ids for parametrising (empty when ../shared is missing: pytest reports it)."""
    if not OASIS_SCENARIOS.is_dir():
        return []
    return [s.id for s in oasis_scenarios(classification)]
