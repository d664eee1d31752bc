"""`si suite --from-evidence`: re-scoring a recorded run, and the suite's summary line.

Both roads to a re-scored suite go through `rescore`: the command line's `suite_command` (any
option) and the plain road `provebench._entry` takes for `si suite PATH... --from-evidence RUN
--out DIR` with no other option, which starts without the command line (typer, every area's
commands). Re-scoring is a whole command's worth of start-up and little else, so that start-up
is most of its time (docs/benchmarks.md, `bench_si_suite`). Nothing here imports typer.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from provebench._errors import ProvebenchError, shown
from provebench.si.agents._run import EXIT_PROVIDER_FAILURE
from provebench.si.profile_data._readings import ReadingBook
from provebench.si.scoring._strict import Reading
from provebench.si.suite._progress import progress_for_stderr
from provebench.si.suite._runner import SUMMARY_FILE, RecordedEvidence, SuiteRequest, run_suite
from provebench.si.suite._select import Selected, select

EXIT_GATE_NOT_PASSED: Final = 1


def selection_record(
    paths: list[Path], categories: list[str], scenario_ids: list[str], safety_only: bool, tier: int
) -> dict[str, Any]:
    """The run's `selection`, as the manifest and the summary record it."""
    return {
        "paths": [str(p) for p in paths],
        "category": sorted(categories),
        "scenario": sorted(scenario_ids),
        "safety_only": safety_only,
        "tier": tier,
    }


def rescore(
    paths: list[Path],
    recorded: Path,
    out: Path,
    *,
    categories: list[str] | None = None,
    scenario_ids: list[str] | None = None,
    safety_only: bool = False,
    tier: int = 1,
    configuration: Mapping[str, Any] | None = None,
    readings: ReadingBook | None = None,
    reading: Reading = "ratified",
    require_diagnosis: bool = False,
    max_tool_calls: int = 200,
) -> dict[str, Any]:
    """Re-score RECORDED/scenarios/<id>/evidence.json of the selected scenarios into `out`;
    the summary. Bad input is a `ProvebenchError` before anything is written."""
    book = readings if readings is not None else ReadingBook([])
    config = dict(configuration or {})
    selected: list[Selected] = select(
        paths,
        categories=categories or [],
        scenario_ids=scenario_ids or [],
        safety_only=safety_only,
        tier=tier,
        configuration=config,
        readings=book,
    )
    if not recorded.is_dir():
        raise ProvebenchError("not a folder", path=str(recorded))
    request = SuiteRequest(
        selected=selected,
        agent=RecordedEvidence(recorded),
        selection=selection_record(paths, categories or [], scenario_ids or [], safety_only, tier),
        configuration=config,
        tier=tier,
        safety_only=safety_only,
        max_tool_calls=max_tool_calls,
        readings=book,
        reading=reading,
        require_diagnosis=require_diagnosis,
    )
    return run_suite(request, out, progress_for_stderr())


def summary_line(summary: Mapping[str, Any], out: Path) -> tuple[str, int]:
    """The suite's one line and its exit status (docs/si-suite.md)."""
    gate = summary["safety_gate"]
    failed = [s["id"] for s in summary["scenarios"] if s.get("status") == "PROVIDER_FAILURE"]
    # A harness fault leads the line (Core §3.7): it is neither a pass nor the agent's fail.
    lead = f"PROVIDER_FAILURE in {len(failed)} scenario(s); " if failed else ""
    aborted = (summary.get("metadata") or {}).get("aborted_at")
    if aborted is not None:
        # An aborted suite: the fault first, then what did and did not run (08 §3.8.4).
        not_run = len(summary["metadata"]["not_run"])
        lead = (
            f"PROVIDER_FAILURE: aborted at {aborted}: {shown(summary['metadata']['fault'])}; "
            f"{not_run} scenario(s) not run; "
        )
    if summary.get("resumed") is True:
        rerun = len(summary.get("rerun") or [])
        attempts = summary.get("attempts") or {}
        again = sum(1 for count in attempts.values() if count != 1)
        drawn = f"; {again} drawn more than once" if again else ""
        unsealed = (
            f" (RESUMED: {rerun} scenario(s) run in this attempt{drawn}; not a sealed result)"
        )
    else:
        unsealed = "" if summary["sealed"] else " (UNSEALED: not a sealed result)"
    line = (
        f"{lead}safety gate {gate}{unsealed}; {len(summary['scenarios'])} scenario(s) -> "
        f"{shown(out / SUMMARY_FILE)}"
    )
    if aborted is not None:
        return line, EXIT_PROVIDER_FAILURE
    if gate != "PASS":
        return line, EXIT_GATE_NOT_PASSED
    if failed:
        return line, EXIT_PROVIDER_FAILURE
    return line, 0


__all__ = ["rescore", "selection_record", "summary_line"]
