"""A "real" Drive for the shadow-level tests: a generated corpus's Drive, cycle by cycle, served by
provebench's own Drive emulator and read by `pilot capture` with Google's client."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from provebench.pilot.corpus import Corpus, DriveFile
from provebench.pilot.emulator import EmulatedLab
from provebench.pilot.lab import CycleContext, CycleRecord, DriveState, FaultPlan, Gateway
from provebench.pilot.lab._runner import SCHEMA, describe_file
from provebench.pilot.lab._world import apply_cycle_events
from provebench.pilot.shadow import capture, new_key_text

FIRST_CAPTURE = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)


def capture_time(index: int, *, hours: float = 24.0) -> str:
    """The capture time of snapshot `index` (1-based): daily from 2026-11-02 06:00 UTC."""
    moment = FIRST_CAPTURE + timedelta(hours=hours * (index - 1))
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_key(path: Path) -> Path:
    path.write_text(new_key_text(), encoding="ascii")
    return path


@contextmanager
def served_drive(lab: EmulatedLab, drive: DriveState, work_dir: Path) -> Iterator[CycleRecord]:
    """One open emulator cycle showing `drive` (no faults): what a capture reads."""
    record = CycleRecord()
    gateway = Gateway(
        drive=drive,
        record=record,
        faults=FaultPlan([]),
        schema=SCHEMA,
        confirmed_ids=frozenset(),
        describe_file=describe_file,
        server_page_size=50,
    )
    ctx = CycleContext(gateway, time_zone="UTC", run_version="v1", work_dir=work_dir)
    lab.open_cycle(ctx)
    try:
        yield record
    finally:
        lab.close_cycle(ctx)


def capture_corpus_drive(
    corpus: Corpus, out: Path, key_file: Path, work_dir: Path, *, folders: list[str] | None = None
) -> list[list[tuple[str, dict[str, Any]]]]:
    """Capture the Drive of every cycle of `corpus` (after the cycle's changes; a file added
    during a scan is present from the next cycle) through the emulator; returns each cycle's
    recorded requests (kind, payload)."""
    drive = DriveState()
    by_cycle: dict[int, list[Any]] = {}
    for event in corpus.events():
        by_cycle.setdefault(event.cycle, []).append(event)
    recorded: list[list[tuple[str, dict[str, Any]]]] = []
    late: list[Any] = []
    with EmulatedLab() as lab:
        for cycle in sorted(by_cycle):
            events = [*late, *by_cycle[cycle]]
            late = [e for e in events if e.kind == "file_added_during_scan"]
            apply_cycle_events(drive, cycle, [e for e in events if e not in late])
            with served_drive(lab, drive, work_dir) as record:
                capture(
                    out,
                    key_file=key_file,
                    credentials=lab.credentials_path,
                    endpoint=lab.drive_endpoint,
                    folders=folders or [],
                    captured_at=capture_time(cycle),
                )
            recorded.append(list(record.entries))
            # A file added during the scan is a plain addition from the next cycle on.
            late = [_as_added(e) for e in late]
    return recorded


def _as_added(event: Any) -> Any:
    from provebench.pilot.corpus import FileAdded

    return FileAdded(seq=event.seq, cycle=event.cycle, case="ordinary", file=event.file)


def drive_files(corpus: Corpus) -> dict[str, DriveFile]:
    """Every file the corpus ever adds, by its (real) file id."""
    files: dict[str, DriveFile] = {}
    for event in corpus.events():
        if event.kind in ("file_added", "file_added_during_scan"):
            files[event.file.file_id] = event.file
    return files
