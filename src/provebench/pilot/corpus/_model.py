"""The data model of the call-import laboratory: Drive files, the drive event stream, corpus config.

Pilot §4 defines a synthetic file; pilot §5 the events that happen between cycles; pilot §10/§11
the corpora. These pydantic models are the single source of truth for `drive_events.jsonl` and
`corpus.json` (event model `drive-events/2`, see `_versions.py`).

## Drive state and how the events drive it (the lab's contract with the Drive adapter)

The stream is a sequence of cycles `1..cycles`. Each line of `drive_events.jsonl` is one event with
a `kind` discriminator, a 1-based `seq` equal to its line number, and its `cycle`. Events of a
cycle are grouped together and cycles appear in increasing order. Within a cycle:

1. `cycle_started` comes first: the run version, its time zone and the page size of this cycle.
2. `time_zone_changed` follows it in the first cycle of every run version after the first
   (pilot §5: a zone change takes effect only in a new run version).
3. State changes, applied to the Drive state **before** the cycle's scan, in `seq` order:
   `file_added`, `file_removed`, `file_reappeared`, `file_relisted`, `file_renamed`, `file_moved`.
4. `api_fault` entries: the cycle's fault schedule (not a state change).
5. `file_added_during_scan`: applied while the cycle's first full listing is in progress, right
   after page `after_page` of that listing has been served (pilot §5 "addition of a file during
   scanning"). Later listings of the same cycle, and all later cycles, include it.

The Drive state is the set of *present* files. The listing covers every folder (a move is not a
removal); its order and paging are the Drive adapter's (`provebench.pilot.lab`), split into pages
of the cycle's `page_size`. A file added during a scan may be missed by a traversal that reads the
listing once, until the next cycle — so the generator never adds a file during the scan of a
cycle that is the last one of its run version, and the zone of its row is unambiguous.

- `file_added`: a new `file_id` becomes present. `case` says why the generator made it (ordinary,
  same name as an earlier file, boundary timestamp, unmapped manager code, adversarial text,
  corrupted, unsupported, non-conforming name). The `case` is a label for counting and for the
  lab's reports; it is never shown to the agent.
- `file_removed`: a present file leaves the listing (it is not deleted from the world; the
  generator only removes files that were present for at least one earlier cycle).
- `file_reappeared`: a removed file is present again, unchanged (same name, folder, metadata).
- `file_relisted`: a present file is reported again, unchanged (a change-feed "touch"); a full
  listing looks the same as before.
- `file_renamed`: the same `file_id` gets a new name. Version 1 renames keep every structured
  field of the grammar (only the free-text tag changes), so the file's register row does not
  change; the row of a `file_id` is in any case decided once and never rewritten.
- `file_moved`: the same `file_id` moves to another folder.
- `api_fault`: a temporary error bound to the work it interrupts, never to a call number (event
  model `drive-events/2`; pilot §5 "a temporary API error", §14 "a temporary failure between
  reading and writing"). `file_id` names a file present in the cycle; the fault fires on the
  first call of the cycle that carries that file's work: for `list_page` the listing page that
  holds it, for `append_rows` the append whose rows carry its row, for `read_confirmed_ids` a
  read of the confirmed ids that answers about it (all of them, or that one id). A call that
  carries no such work (an empty append, a page without the file, a read about another id)
  spends nothing, so an importer cannot absorb the schedule with idle calls. When one call
  carries the files of several unspent faults, the first in the stream fires and the others
  wait for the next call that carries theirs (a retry meets the next fault). A fault fires
  once. The two in-doubt kinds land after the effect (only for `append_rows`):
  `applied_then_error` means the append is applied and then answered with a server error,
  `applied_then_timeout` that it is applied and then never answered (a timeout). A plain
  `timeout` is never answered and takes no effect. The kinds are additive to
  `call-import-corpus/2`: a corpus without `applied_then_timeout` means what it always meant.

## Corpus configuration

`CorpusConfig` is what the user asked for (seed, profile, sizes, zones, page size);
`CorpusInfo` (the content of `corpus.json`) adds the run versions, every rule version, the sha256
of the mapping table and the actual counts per event kind and per file case.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from provebench.pilot._limits import MAX_COUNT, MAX_CYCLES, MAX_PAGE_SIZE, MAX_SEED
from provebench.pilot.rules._versions import RuleVersions

# Strict: a corpus line that says "12" where a number belongs is corrupt, not coerced.
_RECORD = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

UTC_TIMESTAMP_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$"


class CallMetadata(BaseModel):
    """Optional metadata a Drive-like store may carry next to the name (pilot §4).

    Free text: any string, including instruction-like or hostile text. By the precedence rule
    (`name-over-metadata/1`) it never fills or overrides a register field.
    """

    model_config = _RECORD

    direction: str | None = None
    phone: str | None = None
    manager_code: str | None = None


class DriveFile(BaseModel):
    """One synthetic file as the Drive adapter lists it (pilot §4)."""

    model_config = _RECORD

    file_id: str
    name: str
    created_at_utc: Annotated[str, Field(pattern=UTC_TIMESTAMP_PATTERN)]
    mime_type: str
    size_bytes: int
    # None: the duration could not be read (a corrupted file).
    duration_sec: float | None
    folder_id: str
    metadata: CallMetadata | None = None


FileCase = Literal[
    "ordinary",
    "same_name",
    "boundary_time",
    "unmapped_manager",
    "adversarial",
    "corrupted",
    "unsupported",
    "nonconforming_name",
]
# Faultable operations, as the laboratory gateway counts calls (one page of a listing is one
# `list_page` call).
ApiOperation = Literal["list_page", "read_confirmed_ids", "append_rows"]
FaultKind = Literal[
    "rate_limit_429",
    "server_error_500",
    "unavailable_503",
    "timeout",
    "applied_then_error",
    "applied_then_timeout",
]
# The kinds that take effect before the failure (append only): the rows are written, and the
# importer is told the append failed (a server error) or never hears back (a timeout).
APPLIED_FAULT_KINDS: frozenset[str] = frozenset({"applied_then_error", "applied_then_timeout"})


class _Event(BaseModel):
    model_config = _RECORD

    seq: Annotated[int, Field(ge=1)]
    cycle: Annotated[int, Field(ge=1)]


class CycleStarted(_Event):
    kind: Literal["cycle_started"] = "cycle_started"
    run_version: str
    zone: str
    page_size: Annotated[int, Field(ge=1)]


class TimeZoneChanged(_Event):
    kind: Literal["time_zone_changed"] = "time_zone_changed"
    run_version: str
    previous_zone: str
    zone: str


class FileAdded(_Event):
    kind: Literal["file_added"] = "file_added"
    case: FileCase
    file: DriveFile


class FileAddedDuringScan(_Event):
    kind: Literal["file_added_during_scan"] = "file_added_during_scan"
    after_page: Annotated[int, Field(ge=1)]
    file: DriveFile


class FileRemoved(_Event):
    kind: Literal["file_removed"] = "file_removed"
    file_id: str


class FileReappeared(_Event):
    kind: Literal["file_reappeared"] = "file_reappeared"
    file_id: str


class FileRelisted(_Event):
    kind: Literal["file_relisted"] = "file_relisted"
    file_id: str


class FileRenamed(_Event):
    kind: Literal["file_renamed"] = "file_renamed"
    file_id: str
    previous_name: str
    new_name: str


class FileMoved(_Event):
    kind: Literal["file_moved"] = "file_moved"
    file_id: str
    previous_folder_id: str
    new_folder_id: str


class ApiFault(_Event):
    kind: Literal["api_fault"] = "api_fault"
    operation: ApiOperation
    file_id: str  # the file whose work the fault interrupts (event model `drive-events/2`)
    fault: FaultKind


DriveEvent = Annotated[
    CycleStarted
    | TimeZoneChanged
    | FileAdded
    | FileAddedDuringScan
    | FileRemoved
    | FileReappeared
    | FileRelisted
    | FileRenamed
    | FileMoved
    | ApiFault,
    Field(discriminator="kind"),
]
DRIVE_EVENT_ADAPTER: TypeAdapter[DriveEvent] = TypeAdapter(DriveEvent)

EVENT_KINDS: tuple[str, ...] = (
    "cycle_started",
    "time_zone_changed",
    "file_added",
    "file_added_during_scan",
    "file_removed",
    "file_reappeared",
    "file_relisted",
    "file_renamed",
    "file_moved",
    "api_fault",
)
FILE_EVENT_KINDS: tuple[str, ...] = EVENT_KINDS[2:9]
FILE_CASES: tuple[str, ...] = (
    "ordinary",
    "same_name",
    "boundary_time",
    "unmapped_manager",
    "adversarial",
    "corrupted",
    "unsupported",
    "nonconforming_name",
)

# `shadow`: derived from captured real metadata (`provebench.pilot.shadow`), never generated.
Profile = Literal["public", "control", "shadow"]

_CONFIG = ConfigDict(extra="forbid", frozen=True)


# Every size has a range (pilot/_limits.py): a huge value is refused before anything is
# generated, instead of exhausting memory or overflowing.
_Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]


class CorpusSizes(BaseModel):
    """How much of each thing a corpus holds (pilot §11 names the control minimums).

    Every count is a minimum the generator meets exactly or exceeds: if the named counts add up
    to fewer than `file_events`, the remainder is filled with ordinary admissible files and
    relisted events. `admissible_files` includes the same-name, boundary-time, unmapped-manager,
    during-scan and conforming adversarial files.
    """

    model_config = _CONFIG

    cycles: Annotated[int, Field(ge=1, le=MAX_CYCLES)]
    file_events: _Count
    admissible_files: _Count
    repeated_events: _Count
    renames_moves: _Count
    corrupted_unsupported: _Count
    temporary_failures: _Count
    adversarial_items: _Count
    same_name_files: _Count
    added_during_scan: _Count
    nonconforming_names: _Count
    unmapped_managers: _Count
    boundary_time_files: _Count


class CorpusConfig(BaseModel):
    """The generator's whole input: same config → same corpus bytes."""

    model_config = _CONFIG

    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    profile: Profile
    sizes: CorpusSizes
    zones: tuple[str, ...]
    page_size: Annotated[int, Field(ge=1, le=MAX_PAGE_SIZE)]


class RunVersion(BaseModel):
    """A run version: a range of cycles that share one configured time zone (pilot §5)."""

    model_config = _CONFIG

    run_version: str
    first_cycle: Annotated[int, Field(ge=1)]
    last_cycle: Annotated[int, Field(ge=1)]
    zone: str


class CorpusCounts(BaseModel):
    """What the generator actually wrote."""

    model_config = _CONFIG

    events: int
    file_events: int
    admissible_files: int
    refused_files: int
    expected_rows: int
    by_kind: dict[str, int]
    by_case: dict[str, int]
    by_fault: dict[str, int]


class CorpusInfo(BaseModel):
    """The content of `corpus.json`."""

    model_config = _CONFIG

    corpus_format: str
    config: CorpusConfig
    run_versions: tuple[RunVersion, ...]
    versions: RuleVersions
    mapping_table_sha256: str
    counts: CorpusCounts


def run_version_for_cycle(run_versions: tuple[RunVersion, ...], cycle: int) -> RunVersion:
    """The run version in force in `cycle` (pilot §5: the zone changes only between versions)."""
    for candidate in run_versions:
        if candidate.first_cycle <= cycle <= candidate.last_cycle:
            return candidate
    raise ValueError(f"cycle {cycle} lies in no run version")


__all__ = [
    "APPLIED_FAULT_KINDS",
    "DRIVE_EVENT_ADAPTER",
    "EVENT_KINDS",
    "FILE_CASES",
    "FILE_EVENT_KINDS",
    "UTC_TIMESTAMP_PATTERN",
    "ApiFault",
    "ApiOperation",
    "CallMetadata",
    "CorpusConfig",
    "CorpusCounts",
    "CorpusInfo",
    "CorpusSizes",
    "CycleStarted",
    "DriveEvent",
    "DriveFile",
    "FaultKind",
    "FileAdded",
    "FileAddedDuringScan",
    "FileCase",
    "FileMoved",
    "FileReappeared",
    "FileRelisted",
    "FileRemoved",
    "FileRenamed",
    "Profile",
    "RunVersion",
    "TimeZoneChanged",
    "run_version_for_cycle",
]
