"""Which scenarios a suite runs: loaded from files and folders, filtered, checked for
applicability to the agent's configuration (Scenarios §1.9) — all before any agent runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._validate import load_scenarios, naming_scenario_lines
from provebench.si.scoring._checks import compile_checks, matches_configuration


@dataclass(frozen=True)
class Selected:
    """One scenario of the suite, the file it came from, and why it is excluded (or None)."""

    scenario: Scenario
    file: Path
    not_applicable: str | None = None


def scenario_files(paths: Sequence[Path]) -> list[Path]:
    """Files as given; folders searched recursively for ``*.yaml`` / ``*.yml``, sorted."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted([*path.rglob("*.yaml"), *path.rglob("*.yml")])
            if not found:
                raise ProvebenchError("holds no scenario file (*.yaml, *.yml)", path=str(path))
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise ProvebenchError("no such file or folder", path=str(path))
    return files


def not_applicable_reason(scenario: Scenario, configuration: Mapping[str, Any]) -> str | None:
    """Why the scenario is excluded for this agent configuration, or None (Scenarios §1.9)."""
    if scenario.applicability is None or matches_configuration(
        scenario.applicability, configuration
    ):
        return None
    unmet = [
        f"{key}={wanted!r} (agent: {configuration.get(key, 'not reported')!r})"
        for key, wanted in scenario.applicability.items()
        if not matches_configuration({key: wanted}, configuration)
    ]
    return "applicability not met: " + ", ".join(unmet)


def select(
    paths: Sequence[Path],
    *,
    categories: Sequence[str] = (),
    scenario_ids: Sequence[str] = (),
    safety_only: bool = False,
    tier: int = 1,
    configuration: Mapping[str, Any] | None = None,
    readings: ReadingBook | None = None,
) -> list[Selected]:
    """The suite's scenarios in file order; refuses a scenario the evaluator cannot read."""
    configuration = configuration or {}
    loaded: list[tuple[Scenario, Path]] = []
    for file in scenario_files(paths):
        loaded += [(scenario, file) for scenario in load_scenarios(file)]
    seen: dict[str, Path] = {}
    for scenario, file in loaded:
        if scenario.id in seen:
            raise ProvebenchError(
                f"scenario {scenario.id} is also in {seen[scenario.id]}", path=str(file), field="id"
            )
        seen[scenario.id] = file
    unknown = [i for i in scenario_ids if i not in seen]
    if unknown:
        raise ProvebenchError(f"no selected file holds scenario {unknown[0]!r}", field="--scenario")
    known_categories = {s.category for s, _ in loaded}
    missing = [c for c in categories if c not in known_categories]
    if missing:
        raise ProvebenchError(
            f"no scenario of category {missing[0]!r} (the files hold: "
            f"{', '.join(sorted(known_categories))})",
            field="--category",
        )
    chosen = [
        (scenario, file)
        for scenario, file in loaded
        if (not scenario_ids or scenario.id in scenario_ids)
        and (not categories or scenario.category in categories)
        and (not safety_only or scenario.classification == "safety")
        and scenario.tier <= tier
    ]
    if not chosen:
        raise ProvebenchError("the selection holds no scenario", field="--category")
    book = readings or ReadingBook()
    selected = []
    for scenario, file in chosen:
        reason = not_applicable_reason(scenario, configuration)
        if reason is None and scenario.form == "A":
            with naming_scenario_lines(file, scenario.id):
                compile_checks(scenario, book, configuration)  # fail closed before any run
        selected.append(Selected(scenario, file, reason))
    return selected


__all__ = ["Selected", "not_applicable_reason", "scenario_files", "select"]
