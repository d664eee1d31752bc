"""Applying one cycle of the corpus's event stream to the laboratory (event model `drive-events/2`).

State changes (`file_added` … `file_moved`) are applied before the importer runs, in `seq` order;
`api_fault` events become the cycle's fault plan; `file_added_during_scan` events are handed to
the gateway, which adds each file right after the page it names has been served (pilot §5).
`cycle_started` and `time_zone_changed` set the cycle's configuration.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from provebench.pilot.lab._drive_state import DriveState
from provebench.pilot.lab._faults import Fault
from provebench.pilot.lab._files import LabFile, lab_file


@dataclass(slots=True)
class CyclePlan:
    """What the laboratory needs to run one cycle, derived from the cycle's events."""

    cycle: int
    run_version: str = ""
    zone: str = ""
    page_size: int = 0
    faults: list[Fault] = field(default_factory=list)
    mid_scan: list[tuple[int, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    added_ids: list[str] = field(default_factory=list)
    # Removals and reappearances in event order, as ["removed"|"reappeared", file_id]: with
    # `added_ids` they are every change to which files a listing returns (drive.list/2).
    presence: list[list[str]] = field(default_factory=list)


def apply_cycle_events(drive: DriveState, cycle: int, events: Iterable[Any]) -> CyclePlan:
    """Apply the cycle's between-cycle changes to `drive` and return the cycle's plan.

    Events are the corpus's pydantic event models; dispatch is on the `kind` discriminator. The
    Drive keeps each file as a compact `LabFile` (`_files.py`).
    A change that names an id the Drive does not know is impossible in a verified corpus and is
    ignored here rather than trusted (the corpus loader refuses such a stream).
    """
    plan = CyclePlan(cycle=cycle)
    counts = plan.counts
    for event in events:
        kind = event.kind
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "file_added":
            file = event.file if type(event.file) is LabFile else lab_file(event.file)
            drive.add(file)
            plan.added_ids.append(file.file_id)
        elif kind == "file_relisted":
            continue
        elif kind == "cycle_started":
            plan.run_version, plan.zone, plan.page_size = (
                event.run_version,
                event.zone,
                event.page_size,
            )
        elif kind == "time_zone_changed":
            plan.zone = event.zone
        elif kind == "file_removed":
            drive.remove(event.file_id)
            plan.presence.append(["removed", event.file_id])
        elif kind == "file_reappeared":
            drive.reappear(event.file_id)
            plan.presence.append(["reappeared", event.file_id])
        elif kind == "file_renamed":
            _update(drive, event.file_id, name=event.new_name)
        elif kind == "file_moved":
            _update(drive, event.file_id, folder_id=event.new_folder_id)
        elif kind == "api_fault":
            plan.faults.append(Fault(event.operation, event.file_id, event.fault))
        elif kind == "file_added_during_scan":
            plan.mid_scan.append((event.after_page, lab_file(event.file)))
        else:
            raise ValueError(f"unknown event kind {kind!r}")
    drive.settle()
    return plan


def _update(drive: DriveState, file_id: str, **changes: str) -> None:
    current = drive.known(file_id)
    if current is not None:
        drive.replace(current.model_copy(update=changes))  # type: ignore[attr-defined]


__all__ = ["CyclePlan", "apply_cycle_events"]
