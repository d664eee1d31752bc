"""How many of each thing happen in which cycle: the generator's plan (pilot §5, §11).

The plan is a small table (cycles × categories) plus the fault schedule, so a million-event corpus
is planned in memory proportional to the number of cycles, not events. Constraints it keeps:

- New files are added in cycles 1..C-1; the last cycle adds nothing, so every corpus ends with a
  repeated run without new files (pilot §12 self-check "a repeated run without new files").
- Removals happen in cycles 2..C-1 and each is paired with a reappearance in a later cycle, so a
  removed file was listed at least once and always comes back (pilot §5 "reappearance").
- Relists, renames and moves touch files of earlier cycles (cycles 2..C).
- A file is added during a scan only in a cycle that is not the last of its run version, so a
  traversal that misses it still imports it in the same run version's zone.
- Boundary-time files for a zone are added in the cycles of a run version using that zone.
- Faults fall in cycles that add admissible files: each is bound to one of them (event model
  `drive-events/2`), so it lands on work a correct importer cannot avoid — listing the page
  that holds the file, reading whether it is confirmed, appending its row. Per cycle at most one
  append fault (an importer that never retries an in-doubt append blindly stops appending for
  the cycle, so a second would go unexercised), at most three listing faults (on one page, a
  bounded retry still gets through) and two confirmed-id faults, on distinct files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from provebench._errors import ProvebenchError
from provebench.pilot.corpus._generate_cases import ADVERSARIAL_ITEMS
from provebench.pilot.corpus._model import (
    APPLIED_FAULT_KINDS,
    CorpusConfig,
    FaultKind,
    RunVersion,
)

CORRUPTION_VARIANTS: tuple[str, ...] = (
    "empty_file",
    "unreadable_duration",
    "zero_duration",
    "unsupported_mime",
    "negative_duration",
)
# The first faults cover every fault kind once, on work an importer always does; the sixth is
# the timeout that was applied, so a corpus of six faults or more (public, control) holds both
# in-doubt timeouts (pilot §5 "a temporary API error", §14).
_FIRST_FAULTS: tuple[tuple[str, FaultKind], ...] = (
    ("append_rows", "applied_then_error"),
    ("list_page", "rate_limit_429"),
    ("append_rows", "server_error_500"),
    ("list_page", "unavailable_503"),
    ("append_rows", "timeout"),
    ("append_rows", "applied_then_timeout"),
)
_FAULT_KINDS: tuple[FaultKind, ...] = (
    "rate_limit_429",
    "server_error_500",
    "unavailable_503",
    "timeout",
    "applied_then_error",
    "applied_then_timeout",
)
# The most faults of each operation one cycle carries (see the module docstring).
FAULTS_PER_CYCLE = {"append_rows": 1, "list_page": 3, "read_confirmed_ids": 2}
# The labels of the files a fault may be bound to: admissible whatever the draw.
FAULT_TARGET_LABELS = ("ordinary", "unmapped_manager", "same_name", "boundary_time")


@dataclass(frozen=True, slots=True)
class PlannedFault:
    """A fault of the cycle; the generator binds it to one of the cycle's admissible files."""

    operation: str
    fault: FaultKind


@dataclass(slots=True)
class CyclePlan:
    """What happens in one cycle (counts; the generator picks the concrete files)."""

    cycle: int
    run_version: RunVersion
    page_size: int
    adds: list[str] = field(default_factory=list)  # one label per added file, shuffled
    removals: int = 0
    reappearances: int = 0
    relists: int = 0
    renames: int = 0
    moves: int = 0
    during_scan: int = 0
    faults: list[PlannedFault] = field(default_factory=list)


def run_versions_for(config: CorpusConfig) -> tuple[RunVersion, ...]:
    """Split the cycles into one run version per configured zone, as evenly as possible."""
    cycles, zones = config.sizes.cycles, config.zones
    versions: list[RunVersion] = []
    first = 1
    for index, zone in enumerate(zones):
        length = cycles // len(zones) + (1 if index < cycles % len(zones) else 0)
        versions.append(
            RunVersion(
                run_version=f"v{index + 1}",
                first_cycle=first,
                last_cycle=first + length - 1,
                zone=zone,
            )
        )
        first += length
    return tuple(versions)


def _apportion(rng: random.Random, total: int, cycles: list[int]) -> dict[int, int]:
    """Spread `total` over `cycles` with random weights (largest remainder, deterministic)."""
    if total == 0 or not cycles:
        return {}
    weights = [rng.uniform(0.5, 1.5) for _ in cycles]
    scale = total / sum(weights)
    shares = [weight * scale for weight in weights]
    counts = [int(share) for share in shares]
    leftover = total - sum(counts)
    by_fraction = sorted(range(len(cycles)), key=lambda i: (counts[i] - shares[i], i))
    for index in by_fraction[:leftover]:
        counts[index] += 1
    return {cycle: count for cycle, count in zip(cycles, counts, strict=True) if count}


def build_plan(config: CorpusConfig, rng: random.Random) -> list[CyclePlan]:
    sizes = config.sizes
    cycles = sizes.cycles
    versions = run_versions_for(config)
    page_choices = sorted({config.page_size, max(1, config.page_size // 2), config.page_size * 2})
    plans = []
    for cycle in range(1, cycles + 1):
        version = next(v for v in versions if v.first_cycle <= cycle <= v.last_cycle)
        plans.append(CyclePlan(cycle, version, rng.choice(page_choices)))
    add_cycles = list(range(1, cycles))
    later_add_cycles = list(range(2, cycles))
    touch_cycles = list(range(2, cycles + 1))

    adversarial_conforming = sum(
        ADVERSARIAL_ITEMS[i % len(ADVERSARIAL_ITEMS)].conforming
        for i in range(sizes.adversarial_items)
    )
    special_admissible = (
        sizes.same_name_files
        + sizes.boundary_time_files
        + sizes.unmapped_managers
        + sizes.added_during_scan
        + adversarial_conforming
    )
    ordinary = max(0, sizes.admissible_files - special_admissible)
    reappearances = sizes.repeated_events // 2
    relists = sizes.repeated_events - reappearances
    renames = sizes.renames_moves // 2 + sizes.renames_moves % 2
    moves = sizes.renames_moves // 2
    planned_file_events = (
        ordinary
        + special_admissible
        + sizes.adversarial_items
        - adversarial_conforming
        + sizes.corrupted_unsupported
        + sizes.nonconforming_names
        + 2 * reappearances
        + relists
        + renames
        + moves
    )
    filler = max(0, sizes.file_events - planned_file_events)
    ordinary += filler - filler // 2
    relists += filler // 2

    def add_labels(label: str, total: int, allowed: list[int]) -> None:
        for cycle, count in _apportion(rng, total, allowed).items():
            plans[cycle - 1].adds.extend([label] * count)

    add_labels("ordinary", ordinary, add_cycles)
    add_labels("unmapped_manager", sizes.unmapped_managers, add_cycles)
    add_labels("same_name", sizes.same_name_files, later_add_cycles)
    add_labels("adversarial", sizes.adversarial_items, add_cycles)
    add_labels("corrupted", sizes.corrupted_unsupported, add_cycles)
    add_labels("nonconforming_name", sizes.nonconforming_names, add_cycles)
    for index, version in enumerate(versions):
        share = sizes.boundary_time_files // len(versions)
        share += 1 if index < sizes.boundary_time_files % len(versions) else 0
        allowed = [c for c in add_cycles if version.first_cycle <= c <= version.last_cycle]
        add_labels(f"boundary_time:{index}", share, allowed or add_cycles)
    for cycle_plan in plans:
        rng.shuffle(cycle_plan.adds)

    for _ in range(reappearances):
        removal_cycle = rng.randint(2, cycles - 1)
        plans[removal_cycle - 1].removals += 1
        plans[rng.randint(removal_cycle + 1, cycles) - 1].reappearances += 1
    for attribute, total in (("relists", relists), ("renames", renames), ("moves", moves)):
        for cycle, count in _apportion(rng, total, touch_cycles).items():
            setattr(plans[cycle - 1], attribute, getattr(plans[cycle - 1], attribute) + count)
    scan_cycles = [c for c in add_cycles if c < plans[c - 1].run_version.last_cycle]
    for cycle, count in _apportion(rng, sizes.added_during_scan, scan_cycles).items():
        plans[cycle - 1].during_scan = count
    _plan_faults(rng, plans, sizes.temporary_failures)
    return plans


def _plan_faults(rng: random.Random, plans: list[CyclePlan], total: int) -> None:
    # Each fault needs a file of its own among the cycle's admissible new files.
    targets = {
        p.cycle: sum(1 for label in p.adds if label.startswith(FAULT_TARGET_LABELS)) for p in plans
    }
    room = {
        (cycle, operation): min(limit, count)
        for cycle, count in targets.items()
        for operation, limit in FAULTS_PER_CYCLE.items()
    }
    capacity = sum(room.values())
    if total > capacity:
        raise ProvebenchError(
            f"{total} temporary failures, but the cycles' admissible new files carry at most "
            f"{capacity} (one fault per file and operation; more cycles or files needed)",
            field="temporary_failures",
        )
    for index in range(total):
        if index < len(_FIRST_FAULTS):
            operation, fault = _FIRST_FAULTS[index]
        else:
            fault = rng.choice(_FAULT_KINDS)
            operation = (
                "append_rows"
                if fault in APPLIED_FAULT_KINDS
                else rng.choice(("list_page", "append_rows", "read_confirmed_ids"))
            )
        if not any(room[(p.cycle, operation)] for p in plans):
            # This operation is full everywhere: a listing fault (or a read) still fits.
            operation = next(o for o in FAULTS_PER_CYCLE if any(room[(p.cycle, o)] for p in plans))
            fault = "rate_limit_429" if fault in APPLIED_FAULT_KINDS else fault
        cycle = rng.choice([p.cycle for p in plans if room[(p.cycle, operation)]])
        room[(cycle, operation)] -= 1
        plans[cycle - 1].faults.append(PlannedFault(operation, fault))


__all__ = [
    "CORRUPTION_VARIANTS",
    "FAULTS_PER_CYCLE",
    "FAULT_TARGET_LABELS",
    "CyclePlan",
    "PlannedFault",
    "build_plan",
    "run_versions_for",
]
