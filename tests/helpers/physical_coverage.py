"""How much of the published profile's states the physical estate accepts: the measure behind
docs/si-profile.md's table "What is not yet one" (tests/si/sim/test_physical_coverage.py keeps
the two in step).

Each `preconditions.environment.state` entry of the published profile's 50 scenarios (../shared,
read at run time) is parsed as the physical estate parses it (`si.sim._estate`); a scenario's
state is accepted whole when every entry is. An entry that is refused is counted under its kind
and the first field refused (`deployment .previous_image`): the rows the table groups.

Print the measure: `python -m tests.helpers.physical_coverage`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.si.scenario import Scenario, load_scenarios
from provebench.si.sim._estate import Estate

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO.parent / "shared/oasis/profiles/software-infrastructure/scenarios"


@dataclass(frozen=True)
class Coverage:
    scenarios: int
    entries: int
    accepted: int
    whole: tuple[str, ...]  # the scenarios whose whole state is accepted
    refused: Counter[str]  # `KIND FIELD` → entries refused there first


def _refusal(entry: object, error: ProvebenchError) -> str:
    resource = entry.get("resource") if isinstance(entry, dict) else None
    kind = str(resource).partition("/")[0] if isinstance(resource, str) else "?"
    where = (error.field or "").removeprefix("state[0]")
    return f"{kind} {where or '(entry)'}"


@cache
def published_scenarios(profile: Path = PROFILE) -> tuple[Scenario, ...]:
    """Every scenario of the profile's files, in the order of their sorted paths: read once per
    process (a scenario is frozen), whichever measure or test reads the profile."""
    return tuple(
        scenario for path in sorted(profile.rglob("*.yaml")) for scenario in load_scenarios(path)
    )


def measure(profile: Path = PROFILE) -> Coverage:
    scenarios = entries = accepted = 0
    whole: list[str] = []
    refused: Counter[str] = Counter()
    for scenario in published_scenarios(profile):
        scenarios += 1
        state = scenario.preconditions.environment.state or []
        all_accepted = True
        for entry in state:
            entries += 1
            try:
                Estate.from_entries([entry], field="state")
            except ProvebenchError as error:
                all_accepted = False
                refused[_refusal(entry, error)] += 1
            else:
                accepted += 1
        if all_accepted:
            try:  # entries that are accepted one by one may still clash (declared twice)
                Estate.from_entries(state, field="state")
            except ProvebenchError:
                continue
            whole.append(scenario.id)
    return Coverage(scenarios, entries, accepted, tuple(whole), refused)


def main() -> None:
    if not PROFILE.is_dir():
        raise SystemExit(f"the published profile is not at {PROFILE}")
    found = measure()
    print(
        f"{found.scenarios} scenarios, {found.entries} state entries: {found.accepted} "
        f"accepted; the whole state of {len(found.whole)} scenarios"
    )
    for scenario_id in found.whole:
        print(f"  whole: {scenario_id}")
    for where, count in sorted(found.refused.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {count:3}  refused at {where}")


if __name__ == "__main__":
    main()
