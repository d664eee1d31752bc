"""`provebench pilot shadow-corpus`: the event stream of consecutive snapshots, as a corpus
(pilot §2 shadow level, §5 event model), derivation rule `shadow-stream/1`.

Cycle *n* is snapshot *n*: the Drive the laboratory shows in cycle *n* is exactly the set of
files snapshot *n* holds. Between snapshot *n−1* (nothing, for the first) and snapshot *n*, in
this order within the cycle, each in ascending file_id:

| what the snapshots show | event |
|---|---|
| a file_id present before and not now | `file_removed` |
| a file_id removed earlier, present again | `file_reappeared` (then renamed, moved if changed) |
| a present file_id with another name | `file_renamed` |
| a present file_id in another folder | `file_moved` |
| a file_id never seen | `file_added`, its case from the published rules (below) |

A file_id keeps the metadata it was first seen with: `drive-events/1` has no event for a changed
size, duration, type, creation time or metadata, as a file's register row is decided once. Such
changes are counted, by field, in `shadow_origin.json` (`unrepresented_changes`), never hidden.

Nothing is invented: no API fault, no file added during a scan, no relisting — the shadow run
meets the real stream as the snapshots saw it. The case of an added file is derived by the
rules: `unsupported` (mime type), `corrupted` (size, duration), `nonconforming_name` (id or
name), `unmapped_manager`, `same_name` (the name of a file_id seen earlier), else `ordinary`.
The expected row of each admissible file is `decide_row` under the one run version's zone.

Memory is per file_id ever seen (its name, folder, presence and a fingerprint of the rest), never
per snapshot: thirty snapshots of 100,000 files cost what one does (bench/bench_shadow.py).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from provebench._canonical import compact_json, sha256_file
from provebench._errors import ProvebenchError
from provebench.pilot.corpus import (
    EVENT_KINDS,
    FILE_CASES,
    FILE_EVENT_KINDS,
    SHADOW_ORIGIN_FORMAT,
    CorpusConfig,
    CorpusCounts,
    CorpusInfo,
    CorpusSizes,
    CycleStarted,
    DriveFile,
    FileAdded,
    FileMoved,
    FileReappeared,
    FileRemoved,
    FileRenamed,
    OriginSnapshot,
    ShadowEscrowTerms,
    ShadowOrigin,
    StreamResult,
    write_corpus_from,
)
from provebench.pilot.corpus._generate import EventSink, RowSink
from provebench.pilot.rules import UNMAPPED_MANAGER_NAME, Refusal, decide_cells
from provebench.pilot.rules._timerule import load_zone
from provebench.pilot.shadow._snapshots import (
    CAPTURE_MANIFEST,
    CaptureManifest,
    read_capture,
    snapshot_files,
)

DERIVATION_VERSION = "shadow-stream/1"
SHADOW_ESCROW_VERSION = "shadow-escrow/1"
DEFAULT_PERIOD_DAYS = 7
DEFAULT_ZONE = "UTC"
DEFAULT_PAGE_SIZE = 100
RUN_VERSION = "v1"
_CHANGE_FIELDS = ("created_at_utc", "mime_type", "size_bytes", "duration_sec", "metadata")
_CASE_OF_REFUSAL = {
    "unsupported_mime_type": "unsupported",
    "corrupted_empty_file": "corrupted",
    "corrupted_unreadable_duration": "corrupted",
    "corrupted_non_positive_duration": "corrupted",
}


class _Known:
    """A file_id seen in some snapshot: what a later snapshot is compared with."""

    __slots__ = ("fingerprint", "folder_id", "name", "present")

    def __init__(self, file: DriveFile) -> None:
        self.name = file.name
        self.folder_id = file.folder_id
        self.present = True
        self.fingerprint = _fingerprint(file)


def _fingerprint(file: DriveFile) -> tuple[Any, ...]:
    return tuple(getattr(file, name) for name in _CHANGE_FIELDS)


class _Deriver:
    def __init__(
        self, folder: Path, manifest: CaptureManifest, zone: str, page_size: int,
        emit: EventSink, emit_row: RowSink,
    ) -> None:  # fmt: skip
        self.folder, self.manifest, self.zone, self.page_size = folder, manifest, zone, page_size
        self.emit, self.emit_row = emit, emit_row
        self.seq = 0
        self.known: dict[str, _Known] = {}
        self.names_seen: set[str] = set()
        self.by_kind = dict.fromkeys(EVENT_KINDS, 0)
        self.by_case = dict.fromkeys(FILE_CASES, 0)
        self.changes = dict.fromkeys(_CHANGE_FIELDS, 0)
        self.admissible = self.refused = self.reappeared_changed = 0
        self.row_buffer = io.StringIO(newline="")
        self.row_writer = csv.writer(self.row_buffer, lineterminator="")

    def event(self, make: Callable[..., Any], cycle: int, **fields: Any) -> None:
        self.seq += 1
        event = make(seq=self.seq, cycle=cycle, **fields)
        self.by_kind[event.kind] += 1
        self.emit(compact_json(event))

    def run(self) -> None:
        for cycle, entry in enumerate(self.manifest.snapshots, start=1):
            self.event(CycleStarted, cycle, run_version=RUN_VERSION, zone=self.zone,
                       page_size=self.page_size)  # fmt: skip
            self.cycle(cycle, entry)

    def cycle(self, cycle: int, entry: Any) -> None:
        seen: set[str] = set()
        reappeared: list[str] = []
        renamed: list[tuple[str, str, str]] = []
        moved: list[tuple[str, str, str]] = []
        added: list[DriveFile] = []
        for file in snapshot_files(self.folder, entry):
            file_id = file.file_id
            seen.add(file_id)
            known = self.known.get(file_id)
            if known is None:
                added.append(file)
                continue
            if not known.present:
                reappeared.append(file_id)
            if file.name != known.name:
                renamed.append((file_id, known.name, file.name))
            if file.folder_id != known.folder_id:
                moved.append((file_id, known.folder_id, file.folder_id))
            fingerprint = _fingerprint(file)
            if fingerprint != known.fingerprint:
                for name, before, now in zip(_CHANGE_FIELDS, known.fingerprint, fingerprint,
                                             strict=True):  # fmt: skip
                    self.changes[name] += before != now
                known.fingerprint = fingerprint
        removed = sorted(i for i, k in self.known.items() if k.present and i not in seen)
        for file_id in removed:
            self.known[file_id].present = False
            self.event(FileRemoved, cycle, file_id=file_id)
        for file_id in reappeared:
            self.known[file_id].present = True
            self.event(FileReappeared, cycle, file_id=file_id)
        for file_id, previous, new in renamed:
            self.known[file_id].name = new
            self.event(FileRenamed, cycle, file_id=file_id, previous_name=previous, new_name=new)
        for file_id, previous, new in moved:
            self.known[file_id].folder_id = new
            self.event(FileMoved, cycle, file_id=file_id, previous_folder_id=previous,
                       new_folder_id=new)  # fmt: skip
        for file in added:
            case = self.decide(file)
            self.by_case[case] += 1
            self.event(FileAdded, cycle, case=case, file=file)
            self.known[file.file_id] = _Known(file)
            self.names_seen.add(file.name)

    def decide(self, file: DriveFile) -> str:
        """The file's case label (for counting), and its expected row when admissible."""
        cells = decide_cells(file, self.zone)
        if isinstance(cells, Refusal):
            self.refused += 1
            return _CASE_OF_REFUSAL.get(cells.reason_code, "nonconforming_name")
        self.admissible += 1
        instant = int(datetime.fromisoformat(cells[1]).timestamp())
        self.row_buffer.seek(0)
        self.row_buffer.truncate()
        self.row_writer.writerow(cells)
        self.emit_row(f"{instant:012d}\t{file.file_id}", self.row_buffer.getvalue())
        if cells[4] == UNMAPPED_MANAGER_NAME:
            return "unmapped_manager"
        return "same_name" if file.name in self.names_seen else "ordinary"


def derive_shadow_corpus(
    snapshots: Path,
    out: Path,
    *,
    zone: str = DEFAULT_ZONE,
    page_size: int = DEFAULT_PAGE_SIZE,
    period_days: int = DEFAULT_PERIOD_DAYS,
) -> CorpusInfo:
    """Write the shadow corpus of the capture folder `snapshots` into `out`, all or nothing."""
    try:
        load_zone(zone)  # an unknown zone is refused before anything is read
    except ProvebenchError as error:
        raise ProvebenchError(error.message, field="--zone") from None
    if not 1 <= period_days <= 366:
        raise ProvebenchError("must be 1 to 366 days", field="--period-days")
    manifest = read_capture(snapshots)
    if not manifest.snapshots:
        raise ProvebenchError(
            "no snapshot to derive a stream from", path=snapshots / CAPTURE_MANIFEST
        )

    def derived(emit: EventSink, emit_row: RowSink) -> StreamResult:
        deriver = _Deriver(snapshots, manifest, zone, page_size, emit, emit_row)
        deriver.run()
        return _result(deriver, snapshots, manifest, zone, page_size, period_days)

    return write_corpus_from(derived, out)


def _result(
    deriver: _Deriver, snapshots: Path, manifest: CaptureManifest, zone: str, page_size: int,
    period_days: int,
) -> StreamResult:  # fmt: skip
    kinds, cases = deriver.by_kind, deriver.by_case
    cycles = len(manifest.snapshots)
    sizes = CorpusSizes(
        cycles=cycles,
        file_events=sum(kinds[kind] for kind in FILE_EVENT_KINDS),
        admissible_files=deriver.admissible,
        repeated_events=kinds["file_reappeared"],
        renames_moves=kinds["file_renamed"] + kinds["file_moved"],
        corrupted_unsupported=cases["corrupted"] + cases["unsupported"],
        temporary_failures=0,
        adversarial_items=0,
        same_name_files=cases["same_name"],
        added_during_scan=0,
        nonconforming_names=cases["nonconforming_name"],
        unmapped_managers=cases["unmapped_manager"],
        boundary_time_files=0,
    )
    config = CorpusConfig(seed=0, profile="shadow", sizes=sizes, zones=(zone,), page_size=page_size)
    counts = CorpusCounts(
        events=deriver.seq,
        file_events=sizes.file_events,
        admissible_files=deriver.admissible,
        refused_files=deriver.refused,
        expected_rows=deriver.admissible,
        by_kind=kinds,
        by_case=cases,
        by_fault={},
    )
    origin = ShadowOrigin(
        format=SHADOW_ORIGIN_FORMAT,
        derivation=DERIVATION_VERSION,
        pseudonym_rule=manifest.pseudonym.rule,
        key_check=manifest.pseudonym.key_check,
        capture_manifest_sha256=sha256_file(snapshots / CAPTURE_MANIFEST),
        snapshots=tuple(
            OriginSnapshot(
                cycle=index,
                file=entry.file,
                captured_at=entry.captured_at,
                files=entry.files,
                sha256=entry.sha256,
            )
            for index, entry in enumerate(manifest.snapshots, start=1)
        ),
        escrow=ShadowEscrowTerms(rule=SHADOW_ESCROW_VERSION, period_days=period_days),
        unrepresented_changes=dict(deriver.changes),
    )
    return StreamResult(config, counts, origin)


__all__ = [
    "DEFAULT_PERIOD_DAYS",
    "DERIVATION_VERSION",
    "SHADOW_ESCROW_VERSION",
    "derive_shadow_corpus",
]
