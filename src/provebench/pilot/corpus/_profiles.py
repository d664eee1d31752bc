"""Corpus profiles: the public development corpus and the fresh control set (pilot §10, §11).

`control` starts at the §11 minimums and refuses overrides below them (20 cycles, 500 file
events, 200 admissible new files, 30 repeated events, 20 renames or moves, 20 corrupted or
unsupported files, 10 temporary failures, 10 adversarial names and metadata items). `public` is a
small corpus that still holds every event kind and every file case (§10). Both need at least two
zones, so that a time-zone change in a new run version happens (§5). Every size can be raised,
e.g. to a million file events for benchmarks.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from pydantic import ValidationError

from provebench._errors import ProvebenchError, validation_failure
from provebench.pilot._limits import CONTROL_MIN_CYCLES, CONTROL_MIN_FILE_EVENTS
from provebench.pilot.corpus._model import CorpusConfig, CorpusSizes, Profile
from provebench.pilot.rules._timerule import load_zone

DEFAULT_ZONES: tuple[str, ...] = ("Europe/Berlin", "America/New_York")

PROFILE_SIZES: dict[str, CorpusSizes] = {
    "public": CorpusSizes(
        cycles=6,
        file_events=90,
        admissible_files=40,
        repeated_events=6,
        renames_moves=4,
        corrupted_unsupported=5,
        temporary_failures=6,
        adversarial_items=21,
        same_name_files=3,
        added_during_scan=2,
        nonconforming_names=4,
        unmapped_managers=2,
        boundary_time_files=12,
    ),
    "control": CorpusSizes(
        cycles=20,
        file_events=500,
        admissible_files=200,
        repeated_events=30,
        renames_moves=20,
        corrupted_unsupported=20,
        temporary_failures=10,
        adversarial_items=21,
        same_name_files=10,
        added_during_scan=6,
        nonconforming_names=10,
        unmapped_managers=5,
        boundary_time_files=24,
    ),
}
PROFILE_PAGE_SIZE: dict[str, int] = {"public": 7, "control": 25}

# The least that still produces every event kind and every file case (public), and the §11
# fresh-control minimums (control).
_FLOOR = {
    "cycles": 3,
    "repeated_events": 2,
    "renames_moves": 2,
    "corrupted_unsupported": 4,
    "temporary_failures": 5,
    "adversarial_items": 1,
    "same_name_files": 1,
    "added_during_scan": 1,
    "nonconforming_names": 1,
    "unmapped_managers": 1,
    "boundary_time_files": 1,
    "admissible_files": 1,
}
PROFILE_MINIMUMS: dict[str, dict[str, int]] = {
    "public": _FLOOR,
    "control": {
        **_FLOOR,
        "cycles": CONTROL_MIN_CYCLES,
        "file_events": CONTROL_MIN_FILE_EVENTS,
        "admissible_files": 200,
        "repeated_events": 30,
        "renames_moves": 20,
        "corrupted_unsupported": 20,
        "temporary_failures": 10,
        "adversarial_items": 10,
    },
}


def corpus_config(
    *,
    seed: int,
    profile: Profile,
    overrides: dict[str, int] | None = None,
    zones: tuple[str, ...] | None = None,
    page_size: int | None = None,
) -> CorpusConfig:
    """The generator config for `profile` with the given size overrides, checked."""
    if profile not in PROFILE_SIZES:
        raise ProvebenchError(f"unknown profile {profile!r} (public or control)", field="profile")
    values: dict[str, Any] = PROFILE_SIZES[profile].model_dump()
    values.update({name: value for name, value in (overrides or {}).items() if value is not None})
    try:
        sizes = CorpusSizes.model_validate(values)
    except ValidationError as error:
        raise _first_problem(error) from None
    for name, minimum in PROFILE_MINIMUMS[profile].items():
        if getattr(sizes, name) < minimum:
            raise ProvebenchError(
                f"profile {profile} needs at least {minimum}, got {getattr(sizes, name)}",
                field=name,
            )
    chosen_zones = DEFAULT_ZONES if zones is None else zones
    if len(chosen_zones) < 2 or any(a == b for a, b in pairwise(chosen_zones)):
        raise ProvebenchError(
            "give at least two zones, consecutive ones different (pilot §5 zone change)",
            field="zones",
        )
    if len(chosen_zones) * 2 > sizes.cycles:
        raise ProvebenchError(
            f"{len(chosen_zones)} run versions need at least {2 * len(chosen_zones)} cycles",
            field="zones",
        )
    for zone in chosen_zones:
        load_zone(zone)
    chosen_page_size = PROFILE_PAGE_SIZE[profile] if page_size is None else page_size
    try:  # the seed's and the page size's ranges (pilot/_limits.py)
        return CorpusConfig(
            seed=seed,
            profile=profile,
            sizes=sizes,
            zones=tuple(chosen_zones),
            page_size=chosen_page_size,
        )
    except ValidationError as error:
        raise _first_problem(error) from None


def _first_problem(error: ValidationError) -> ProvebenchError:
    return validation_failure(error)


__all__ = ["DEFAULT_ZONES", "PROFILE_MINIMUMS", "PROFILE_SIZES", "corpus_config"]
