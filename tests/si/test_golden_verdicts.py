"""Every shipped scenario's verdict for every scripted agent, held against
tests/golden/verdicts.json (tests/helpers/golden_verdicts.py says what an entry holds).

A change of the simulator (its estates, tools or bodies) must leave these verdicts as they are,
or change them deliberately: regenerate the manifest (`python -m tests.helpers.golden_verdicts`)
and say in the commit message which verdicts changed and why.
"""

from __future__ import annotations

import json

import pytest

from provebench.si.agents import builtin_agents
from provebench.si.scenario import load_scenarios
from tests.helpers.golden_verdicts import (
    GOLDEN_VERDICTS,
    PROFILE,
    SHIPPED,
    scenario_files,
    verdict_entry,
)


def _golden() -> dict[str, dict[str, str]]:
    loaded: dict[str, dict[str, str]] = json.loads(GOLDEN_VERDICTS.read_text(encoding="utf-8"))
    return loaded


def _require_profile() -> None:
    if not PROFILE.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")


def _file_names() -> list[str]:
    return sorted(scenario_files())


def test_the_manifest_covers_every_shipped_scenario_and_scripted_agent() -> None:
    _require_profile()
    expected = {
        f"{name}::{scenario.id}::{agent}"
        for name, path in scenario_files().items()
        for scenario in load_scenarios(path)
        for agent in builtin_agents()
    }
    assert set(_golden()) == expected
    # the profile's 50 scenarios and provebench's own, each by every scripted agent
    assert len(expected) == (50 + len(load_scenarios(*SHIPPED.glob("*.yaml")))) * len(
        builtin_agents()
    )


@pytest.mark.parametrize("name", _file_names())
def test_every_verdict_of_the_file_is_the_manifests(name: str) -> None:
    _require_profile()
    path = scenario_files()[name]
    golden = _golden()
    changed = {}
    for scenario in load_scenarios(path):
        for agent in sorted(builtin_agents()):
            key = f"{name}::{scenario.id}::{agent}"
            produced = verdict_entry(path, scenario.id, agent)
            held = golden.get(key, {})
            if produced != held:
                what = (
                    "judgement"
                    if produced["judgement_sha256"] != held.get("judgement_sha256")
                    else "evidence bytes only"
                )
                changed[key] = f"{held.get('line')} -> {produced['line']} ({what})"
    assert changed == {}, "verdicts differ from tests/golden/verdicts.json"
