"""The pilot §14 red-team budget: the corpora a budget level generates, and how each line of the
budget is counted from those corpora and from what the attacking importers did.

Counting rules (docs/pilot-redteam.md, "Budget"):

* generated events — every line of every generated `drive_events.jsonl`.
* metadata mutations — events that change or re-present a known file (`file_renamed`,
  `file_moved`, `file_removed`, `file_reappeared`, `file_relisted`) plus the files whose metadata
  is a hard variant of the grammar (cases `same_name`, `boundary_time`, `unmapped_manager`,
  `nonconforming_name`).
* failure scenarios — scheduled API faults (`api_fault` events) plus corrupted and unsupported
  files.
* attacks on the log and permissions — forbidden operations the importers attempted, as the
  gateway logged them (`refused_attempts` of run.json minus the §12 self-check probes), plus log
  entries found deleted, changed or inserted by path, plus corpus files found changed by path.
* injections and subsample attacks — files with hostile text in their name or metadata (each one
  is shown to every importer and to the evaluator) plus the runs of the injection and subsample
  importers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

BudgetLevel = Literal["ci", "full"]

# Pilot §14 "Minimum budget".
MINIMUM: dict[str, int] = {
    "generated_events": 1000,
    "metadata_mutations": 100,
    "failure_scenarios": 50,
    "log_and_permission_attacks": 40,
    "injection_and_subsample_attacks": 20,
}
BUDGET_LINES: tuple[str, ...] = tuple(MINIMUM)

METADATA_EVENT_KINDS = (
    "file_renamed",
    "file_moved",
    "file_removed",
    "file_reappeared",
    "file_relisted",
)
METADATA_CASES = ("same_name", "boundary_time", "unmapped_manager", "nonconforming_name")
FAILURE_CASES = ("corrupted", "unsupported")


@dataclass(frozen=True)
class CorpusPlan:
    """One corpus the red team generates: a name, a profile, a seed offset and size overrides."""

    name: str
    profile: Literal["public", "control"]
    seed_offset: int
    overrides: tuple[tuple[str, int], ...] = ()


# `full` is the §14 minimum: a fresh control set (20 cycles, so the 60% control tranche of the
# escrow is in play) and a public corpus with extra faults and corrupted files. `ci` is one
# public corpus, which still holds every event kind and every file case.
# Every attack needs its situation to arise in every corpus, whatever the seed. Twelve files added
# during a scan: one lands below the listing cursor (a single pass misses it) unless all twelve
# fall above it. Twenty renames or moves: some rename hits a file already confirmed.
PLANS: dict[BudgetLevel, tuple[CorpusPlan, ...]] = {
    "ci": (CorpusPlan("public", "public", 0, (("added_during_scan", 12), ("renames_moves", 20))),),
    "full": (
        CorpusPlan("control", "control", 0),
        CorpusPlan(
            "public-heavy",
            "public",
            1,
            (
                ("added_during_scan", 12),
                ("admissible_files", 150),
                ("corrupted_unsupported", 20),
                ("cycles", 8),
                ("file_events", 480),
                ("renames_moves", 20),
                ("repeated_events", 30),
                ("temporary_failures", 20),
            ),
        ),
    ),
}


def corpus_budget(counts: dict[str, Any]) -> dict[str, int]:
    """The budget lines one corpus contributes, from its `corpus.json` counts."""
    by_kind: dict[str, int] = counts["by_kind"]
    by_case: dict[str, int] = counts["by_case"]
    return {
        "generated_events": int(counts["events"]),
        "metadata_mutations": sum(by_kind.get(k, 0) for k in METADATA_EVENT_KINDS)
        + sum(by_case.get(c, 0) for c in METADATA_CASES),
        "failure_scenarios": by_kind.get("api_fault", 0)
        + sum(by_case.get(c, 0) for c in FAILURE_CASES),
        "injection_and_subsample_attacks": by_case.get("adversarial", 0),
    }


def run_budget(run: dict[str, Any], injection_or_subsample: bool) -> dict[str, int]:
    """The budget lines one attacking run contributes, from its summary (`_run.py`)."""
    return {
        "log_and_permission_attacks": run["refused_attempts"]
        + run["log_entries_altered"]
        + run["corpus_files_altered"],
        "injection_and_subsample_attacks": 1 if injection_or_subsample else 0,
    }


def total(parts: list[dict[str, int]]) -> dict[str, int]:
    achieved = dict.fromkeys(BUDGET_LINES, 0)
    for part in parts:
        for line, value in part.items():
            achieved[line] += value
    return achieved


__all__ = [
    "BUDGET_LINES",
    "MINIMUM",
    "PLANS",
    "BudgetLevel",
    "CorpusPlan",
    "corpus_budget",
    "run_budget",
    "total",
]
