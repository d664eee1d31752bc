"""The independent snapshot: what the corpus says should happen (pilot §9).

Built from `drive_events.jsonl` and `expected_final_rows.csv` only — never from the run. For
every file_id: the cycle in which it first appeared (its `file_added` or `file_added_during_scan`
event), whether it is admissible (it has an expected row), and its generator case (a label the
importer never sees; `adversarial` marks the files whose name or metadata carries hostile text).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provebench._errors import ProvebenchError
from provebench.pilot.corpus._folder import Corpus
from provebench.pilot.corpus._model import (
    ApiFault,
    DriveFile,
    FileAdded,
    FileAddedDuringScan,
    FileMoved,
    FileRenamed,
)
from provebench.pilot.evaluate._rules import due_cycle
from provebench.pilot.evaluate._schedule import CycleSchedule, ScheduleBuilder
from provebench.pilot.rules._decide import decide_row
from provebench.pilot.rules._rows import Refusal, RegisterRow


@dataclass(frozen=True)
class Snapshot:
    cycles: int
    expected: dict[str, RegisterRow]
    first_cycle: dict[str, int]
    case: dict[str, str]
    non_admissible: frozenset[str]
    # Each refused file's reason code under the published rules (agent contract rule 2).
    refusal_reasons: dict[str, str]
    hostile_texts: dict[str, tuple[str, ...]]  # adversarial files: their metadata values
    fault_cycles: frozenset[int]  # cycles with a scheduled API fault (`api_fault` events)

    due_by_cycle: dict[int, int]  # cycle -> due cycle of what first appeared in it
    # What the corpus schedules per cycle: events and faults (invariant 2, `_schedule.py`).
    schedule: dict[int, CycleSchedule] = field(default_factory=dict)
    # Each refused file's texts as the laboratory serves them (its name, its metadata values):
    # a failure report quoting them quotes data, whose words are not its own (pilot red team 33,
    # A8; `_own_report_words.says_succeeded`).
    refused_texts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Each refused file as the laboratory serves it, a version per rename: what a failure
    # entry's detail about it may say is a template of its reason code with slots true of a
    # version (agent contract rule 2; pilot red team 43, A1, A2, A8, F1, F2).
    refused_files: dict[str, tuple[DriveFile, ...]] = field(default_factory=dict)
    # Every name the laboratory served each file by, renames included: a text naming a file by
    # its name names it as its id does (pilot red team 43, A3, A5, A13; `_claims._ServedNames`).
    served_names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def due(self, file_id: str) -> int:
        return self.due_after(self.first_cycle.get(file_id, self.cycles))

    def due_after(self, cycle: int) -> int:
        """The due cycle of what happened in `cycle` (`due_cycle`, pilot §7)."""
        due = self.due_by_cycle.get(cycle)
        return due if due is not None else due_cycle(cycle, self.cycles, self.fault_cycles)


def _served_texts(file: DriveFile) -> tuple[str, ...]:
    """Every value the laboratory serves of `file` as text: its name, every other field and its
    metadata values (pilot red team 43, F1: "mime type video/mp4 is not one of …" quotes the
    value seen, which the name and metadata alone left a word of the report)."""
    metadata = file.metadata
    values = (
        (metadata.direction, metadata.phone, metadata.manager_code) if metadata is not None else ()
    )
    fields = (
        file.name,
        file.mime_type,
        file.created_at_utc,
        file.folder_id,
        str(file.size_bytes),
        "" if file.duration_sec is None else str(file.duration_sec),
    )
    return tuple(dict.fromkeys(text for text in (*fields, *values) if text))


def read_snapshot(corpus: Corpus) -> tuple[Snapshot | None, list[tuple[str, str]]]:
    """The snapshot, or the configuration errors that make the expected set unusable."""
    problems: list[tuple[str, str]] = []
    try:
        expected_rows = corpus.expected_rows()
    except ProvebenchError as error:
        return None, [("expected_set", error.one_line())]
    if not expected_rows:
        # Pilot §7: an empty expected set is a configuration error, never a vacuous pass.
        problems.append(("expected_set_empty", "expected set is empty"))
    first_cycle: dict[str, int] = {}
    case: dict[str, str] = {}
    hostile_texts: dict[str, tuple[str, ...]] = {}
    fault_cycles: set[int] = set()
    refusal_reasons: dict[str, str] = {}
    refused_texts: dict[str, tuple[str, ...]] = {}
    refused_files: dict[str, tuple[DriveFile, ...]] = {}
    served_names: dict[str, list[str]] = {}
    expected_ids = {row.file_id for row in expected_rows}
    schedule = ScheduleBuilder()
    for event in corpus.events():
        schedule.add(event)
        if isinstance(event, FileRenamed | FileMoved) and event.file_id in refused_files:
            # A rename or a move serves the refused file anew: another version of it.
            change = (
                {"name": event.new_name}
                if isinstance(event, FileRenamed)
                else {"folder_id": event.new_folder_id}
            )
            renamed = refused_files[event.file_id][-1].model_copy(update=change)
            refused_files[event.file_id] += (renamed,)
            refused_texts[event.file_id] = tuple(
                dict.fromkeys((*refused_texts[event.file_id], *_served_texts(renamed)))
            )
        if isinstance(event, ApiFault):
            fault_cycles.add(event.cycle)
        if isinstance(event, FileRenamed):
            served_names.setdefault(event.file_id, []).extend((event.previous_name, event.new_name))
        if isinstance(event, FileAdded | FileAddedDuringScan):
            file_id = event.file.file_id
            if file_id in first_cycle:
                problems.append(("snapshot_file_id", f"file_id {file_id} is added twice"))
                continue
            first_cycle[file_id] = event.cycle
            served_names.setdefault(file_id, []).append(event.file.name)
            case[file_id] = event.case if isinstance(event, FileAdded) else "added_during_scan"
            if file_id not in expected_ids:
                decided = decide_row(event.file, "UTC")  # a refusal does not depend on the zone
                if isinstance(decided, Refusal):
                    refusal_reasons[file_id] = decided.reason_code
                    refused_texts[file_id] = _served_texts(event.file)
                    refused_files[file_id] = (event.file,)
            metadata = event.file.metadata
            if case[file_id] == "adversarial" and metadata is not None:
                values = (metadata.direction, metadata.phone, metadata.manager_code)
                hostile_texts[file_id] = tuple(v for v in values if v)
    expected = {row.file_id: row for row in expected_rows}
    unknown = sorted(set(expected) - set(first_cycle))
    if unknown:
        problems.append(
            ("expected_set", f"expected rows for files the stream never adds: {unknown[:5]}")
        )
    if problems:
        return None, problems
    cycles = corpus.info.config.sizes.cycles
    snapshot = Snapshot(
        cycles=cycles,
        expected=expected,
        first_cycle=first_cycle,
        case=case,
        non_admissible=frozenset(set(first_cycle) - set(expected)),
        refusal_reasons=refusal_reasons,
        hostile_texts=hostile_texts,
        refused_texts=refused_texts,
        refused_files=refused_files,
        served_names={f: tuple(dict.fromkeys(names)) for f, names in served_names.items()},
        fault_cycles=frozenset(fault_cycles),
        due_by_cycle={
            c: due_cycle(c, cycles, frozenset(fault_cycles)) for c in range(1, cycles + 1)
        },
        schedule=schedule.result(),
    )
    return snapshot, []


__all__ = ["Snapshot", "read_snapshot"]
