"""Consistency of a drive event stream beyond each line's schema (event model `drive-events/2`).

The laboratory applies events to its Drive without second-guessing them, so the loader refuses a
stream whose events could not have happened (pilot §9: the event snapshot is evidence):

- `seq` is the line number; cycles come in order, each opened by exactly one `cycle_started`
  whose run version and zone are the ones `corpus.json` declares for that cycle;
- `time_zone_changed` appears exactly in the first cycle of every later run version and names the
  previous and the new zone;
- a `file_id` is added once; only a present file is removed, relisted, renamed or moved; only a
  removed file reappears; a rename names the file's current name and a move its current folder;
- `applied_then_error` and `applied_then_timeout` are scheduled only for `append_rows`; a file is
  added during a scan only in a cycle that is not the last of its run version.

Memory is two small entries per file_id (a hash of its current name, its folder), in dicts of
plain values: a dict of tuples would be tracked by the garbage collector again with every file
added, and looked through whole at the end of every cycle (the runner collects then).
"""

from __future__ import annotations

from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.pilot.corpus._model import (
    APPLIED_FAULT_KINDS,
    ApiFault,
    CycleStarted,
    DriveEvent,
    FileAdded,
    FileAddedDuringScan,
    FileMoved,
    FileReappeared,
    FileRelisted,
    FileRemoved,
    FileRenamed,
    RunVersion,
    TimeZoneChanged,
)


class StreamChecker:
    """Feed events in order with `check(event, line)`; call `finish()` after the last one."""

    def __init__(self, path: Path, run_versions: tuple[RunVersion, ...]) -> None:
        self.path = path
        self.run_versions = run_versions
        self.cycle = 0
        self.version: RunVersion | None = None
        self.zone_changed = False
        # Every file_id added: the hash of its current name, and its folder; those removed and
        # not reappeared.
        self.name_hashes: dict[str, int] = {}
        self.folders: dict[str, str] = {}
        self.removed: set[str] = set()

    def fail(self, message: str, line: int, field: str) -> ProvebenchError:
        return ProvebenchError(message, path=self.path, line=line, field=field)

    def check(self, event: DriveEvent, line: int) -> None:
        if event.seq != line:
            raise self.fail(f"seq is {event.seq}, expected the line number", line, "seq")
        if event.cycle != self.cycle:
            self._next_cycle(event, line)
        elif isinstance(event, CycleStarted):
            raise self.fail("a second cycle_started in one cycle", line, "kind")
        if isinstance(event, TimeZoneChanged):
            self._zone_change(event, line)
        elif isinstance(event, FileAdded | FileAddedDuringScan):
            self._added(event, line)
        elif isinstance(event, FileRemoved | FileReappeared | FileRelisted):
            self._touched(event, line)
        elif isinstance(event, FileRenamed | FileMoved):
            self._changed(event, line)
        elif isinstance(event, ApiFault):
            self._fault(event, line)

    def _next_cycle(self, event: DriveEvent, line: int) -> None:
        if event.cycle != self.cycle + 1 or not isinstance(event, CycleStarted):
            raise self.fail(
                "each cycle must follow the previous one and open with cycle_started", line, "cycle"
            )
        if self.version is not None and self.version.first_cycle > 1 and not self.zone_changed:
            raise self.fail("run version began without time_zone_changed", line - 1, "kind")
        self.cycle = event.cycle
        version = next(
            (v for v in self.run_versions if v.first_cycle <= event.cycle <= v.last_cycle), None
        )
        if version is None or (event.run_version, event.zone) != (
            version.run_version,
            version.zone,
        ):
            raise self.fail("run version or zone differs from corpus.json", line, "run_version")
        if version is not self.version:
            self.zone_changed = False
        self.version = version

    def _zone_change(self, event: TimeZoneChanged, line: int) -> None:
        assert self.version is not None
        index = self.run_versions.index(self.version)
        if (
            index == 0
            or self.cycle != self.version.first_cycle
            or self.zone_changed
            or event.previous_zone != self.run_versions[index - 1].zone
            or (event.run_version, event.zone) != (self.version.run_version, self.version.zone)
        ):
            raise self.fail("time_zone_changed does not match the run versions", line, "kind")
        self.zone_changed = True

    def _added(self, event: FileAdded | FileAddedDuringScan, line: int) -> None:
        file = event.file
        if file.file_id in self.name_hashes:
            raise self.fail("file_id added twice", line, "file.file_id")
        if isinstance(event, FileAddedDuringScan):
            assert self.version is not None
            if self.cycle == self.version.last_cycle:
                raise self.fail(
                    "file added during the scan of a run version's last cycle", line, "cycle"
                )
        self.name_hashes[file.file_id] = hash(file.name)
        self.folders[file.file_id] = file.folder_id

    def _fault(self, event: ApiFault, line: int) -> None:
        if event.fault in APPLIED_FAULT_KINDS and event.operation != "append_rows":
            raise self.fail(f"{event.fault} is only for append_rows", line, "fault")
        # Bound to work (event model `drive-events/2`): a file present when the cycle's scan
        # begins, never one that is not there to be listed, read or appended.
        if event.file_id not in self.name_hashes or event.file_id in self.removed:
            raise self.fail("api_fault needs a file present in its cycle", line, "file_id")

    def _touched(self, event: FileRemoved | FileReappeared | FileRelisted, line: int) -> None:
        file_id = event.file_id
        must_be_present = not isinstance(event, FileReappeared)
        if file_id not in self.name_hashes or (file_id not in self.removed) != must_be_present:
            wanted = "a present" if must_be_present else "a removed"
            raise self.fail(f"{event.kind} needs {wanted} file", line, "file_id")
        if isinstance(event, FileRemoved):
            self.removed.add(file_id)
        elif isinstance(event, FileReappeared):
            self.removed.discard(file_id)

    def _changed(self, event: FileRenamed | FileMoved, line: int) -> None:
        file_id = event.file_id
        if file_id not in self.name_hashes or file_id in self.removed:
            raise self.fail(f"{event.kind} needs a present file", line, "file_id")
        if isinstance(event, FileRenamed):
            if hash(event.previous_name) != self.name_hashes[file_id]:
                raise self.fail("previous_name is not the file's name", line, "previous_name")
            self.name_hashes[file_id] = hash(event.new_name)
        else:
            if event.previous_folder_id != self.folders[file_id]:
                raise self.fail(
                    "previous_folder_id is not the file's folder", line, "previous_folder_id"
                )
            self.folders[file_id] = event.new_folder_id

    def finish(self) -> None:
        if self.version is not None and self.version.first_cycle > 1 and not self.zone_changed:
            raise ProvebenchError("run version began without time_zone_changed", path=self.path)
        last = self.run_versions[-1].last_cycle if self.run_versions else 0
        if self.cycle != last:
            raise ProvebenchError(f"{self.cycle} cycles, corpus.json says {last}", path=self.path)


__all__ = ["StreamChecker"]
