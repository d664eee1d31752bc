"""Seeded corpus generator `call-import-generator/1` (pilot §5, §10, §11).

`generate_events(config, events_out, rows_out)` streams the drive event stream and the expected
register rows of one corpus; `_corpus.write_corpus` wraps it into a corpus directory. Same config
→ same bytes: one `random.Random(seed)`, no wall-clock time, no iteration over sets or hashes.

Ground truth, not the parser: each file's structured fields (`CallTruth`) are drawn first, the
name is formatted from them, and the expected row is computed from them — the importer-side
`decide_row` is never called here, so the answer key stays independent of the code under test.

Memory stays bounded for million-event corpora: files that later events may touch are kept in a
bounded pool (random replacement once full), and expected rows are handed to `rows_out` with their
sort key as they are made; `_corpus` sorts them externally.
"""

from __future__ import annotations

import csv
import io
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from provebench.pilot.corpus._generate_cases import (
    ADVERSARIAL_ITEMS,
    BENIGN_TAGS,
    COUNTRIES,
    EXTENSIONS,
    FAR_OFFSETS,
    MIME_BY_EXTENSION,
    NONCONFORMING_NAMES,
    RENAME_TAGS,
    CallTruth,
    boundary_instants,
    corrupt,
    format_name,
    zone_clock,
    zone_offset_minutes,
)
from provebench.pilot.corpus._generate_json import encode_event, encode_file, encode_string
from provebench.pilot.corpus._generate_plan import (
    CORRUPTION_VARIANTS,
    FAULT_TARGET_LABELS,
    CyclePlan,
    build_plan,
)
from provebench.pilot.corpus._model import (
    EVENT_KINDS,
    FILE_CASES,
    FILE_EVENT_KINDS,
    CorpusConfig,
    CorpusCounts,
)
from provebench.pilot.rules._mapping import UNMAPPED_MANAGER_NAME, manager_mapping

CALL_YEAR = 2026
_WINDOW_START = int(datetime(CALL_YEAR, 1, 1, tzinfo=UTC).timestamp())
_WINDOW_END = int(datetime(CALL_YEAR + 1, 1, 1, tzinfo=UTC).timestamp())
_DIRECTION_WORDS = {"in": "incoming", "out": "outgoing"}
_POOL_LIMIT = 20_000
# Metadata is written with all three keys so each line is the canonical JSON of its model.
_NO_METADATA: dict[str, str | None] = {"direction": None, "phone": None, "manager_code": None}
T = TypeVar("T")
EventSink = Callable[[str], None]
# (sort key "epoch\tfile_id", CSV line without newline)
RowSink = Callable[[str, str], None]


@dataclass(slots=True)
class _Known:
    """A present admissible file that later events may touch."""

    truth: CallTruth
    file: dict[str, Any]


def _csv_cell(value: str) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow([value])
    return buffer.getvalue()


class _Generator:
    def __init__(self, config: CorpusConfig, emit: EventSink, emit_row: RowSink) -> None:
        self.config = config
        self.rng = random.Random(config.seed)
        self.emit_line = emit
        self.emit_row = emit_row
        self.seq = 0
        self.file_counter = 0
        self.by_kind = dict.fromkeys(EVENT_KINDS, 0)
        self.by_case = dict.fromkeys(FILE_CASES, 0)
        self.by_fault: dict[str, int] = {}
        self.admissible = 0
        self.refused = 0
        self.present_total = 0
        self.pool: list[_Known] = []
        self.removed: list[_Known] = []
        self.mapped_codes = list(manager_mapping())
        self.quoted_names = {code: _csv_cell(name) for code, name in manager_mapping().items()}
        self.folders = [f"fld-{self.rng.getrandbits(32):08x}" for _ in range(4)]
        self.adversarial_index = 0
        self.cycle_admissible: list[str] = []  # admissible files added this cycle, in order
        self.corruption_index = 0
        self.nonconforming_index = 0
        self.boundary_lists = {
            zone: boundary_instants(zone, CALL_YEAR) for zone in dict.fromkeys(config.zones)
        }
        self.boundary_index: dict[str, int] = dict.fromkeys(config.zones, 0)

    # -- output -------------------------------------------------------------------------------

    def event(self, cycle: int, kind: str, **fields: Any) -> None:
        self.seq += 1
        self.by_kind[kind] += 1
        self.emit_line(encode_event({"seq": self.seq, "cycle": cycle, "kind": kind, **fields}))

    def file_added(self, cycle: int, case: str, file: dict[str, Any]) -> None:
        """`event(cycle, "file_added", …)`, encoded by hand: the hot path of big corpora."""
        self.seq += 1
        self.by_kind["file_added"] += 1
        self.emit_line(
            f'{{"case":{encode_string(case)},"cycle":{cycle},"file":{encode_file(file)},'
            f'"kind":"file_added","seq":{self.seq}}}'
        )

    def file_relisted(self, cycle: int, file_id: str) -> None:
        self.seq += 1
        self.by_kind["file_relisted"] += 1
        self.emit_line(
            f'{{"cycle":{cycle},"file_id":{encode_string(file_id)},"kind":"file_relisted",'
            f'"seq":{self.seq}}}'
        )

    def expected_row(self, known: _Known, zone: str) -> None:
        truth, file_id = known.truth, known.file["file_id"]
        local = zone_clock(zone).local_text(truth.epoch_sec)
        code = truth.manager_code
        duration_tenths = round(known.file["duration_sec"] * 10)
        cells = (
            file_id,
            local,
            _DIRECTION_WORDS[truth.direction],
            code,
            self.quoted_names.get(code, UNMAPPED_MANAGER_NAME),
            truth.phone,
            str(-(-duration_tenths // 10)),
            f"drive://file/{file_id}",
            "imported",
        )
        # `register-order/1` (`_rows.call_order_key`) as the text key the external sort compares:
        # the call's epoch second, zero-padded, then the file_id (a test holds the two together).
        self.emit_row(f"{truth.epoch_sec:012d}\t{file_id}", ",".join(cells))

    # -- drawing files ------------------------------------------------------------------------

    # `random()` scaled by hand: one call per draw instead of `choice`/`randint`'s several,
    # which matters at a million events (same seed, same draws, on every platform).
    def pick(self, options: Sequence[T]) -> T:
        return options[int(self.rng.random() * len(options))]

    def between(self, low: int, high: int) -> int:
        return low + int(self.rng.random() * (high - low + 1))

    def draw_truth(self, zone: str, *, unmapped: bool = False) -> CallTruth:
        random_ = self.rng.random
        country, national_digits = self.pick(COUNTRIES)
        national = str(self.between(10 ** (national_digits - 1), 10**national_digits - 1))
        epoch = self.between(_WINDOW_START, _WINDOW_END - 1)
        roll = random_()
        if roll < 0.8:
            offset: int | None = zone_offset_minutes(epoch, zone)
        elif roll < 0.9:
            offset = None
        else:
            offset = self.pick(FAR_OFFSETS)
        code = f"M{self.between(900, 999)}" if unmapped else self.pick(self.mapped_codes)
        tag = self.pick(BENIGN_TAGS) if random_() < 0.3 else None
        extension = self.pick(EXTENSIONS)
        direction = "in" if random_() < 0.5 else "out"
        return CallTruth(direction, country + national, epoch, offset, code, tag, extension)

    def make_file(self, truth: CallTruth, name: str) -> dict[str, Any]:
        random_ = self.rng.random
        self.file_counter += 1
        # Mostly whole seconds; some tenths, down to 0.3 s (shown as 1 s in the register).
        whole = random_() < 0.7
        duration_tenths = self.between(5, 3600) * 10 if whole else self.between(3, 36000)
        uploaded = truth.epoch_sec + duration_tenths // 10 + self.between(30, 3 * 86400)
        roll = random_()
        metadata: dict[str, str | None] | None
        if roll < 0.4:
            metadata = None
        elif roll < 0.8:
            metadata = {
                "direction": truth.direction,
                "phone": truth.phone,
                "manager_code": truth.manager_code,
            }
        elif roll < 0.95:
            metadata = {**_NO_METADATA, "direction": truth.direction}
        else:  # disagrees with the name; the name wins (name-over-metadata/1)
            metadata = {
                **_NO_METADATA,
                "manager_code": self.pick(self.mapped_codes),
                "phone": truth.phone,
            }
        return {
            "file_id": f"{self.rng.getrandbits(40):010x}-{self.file_counter}",
            "name": name,
            "created_at_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(uploaded)),
            "mime_type": MIME_BY_EXTENSION[truth.extension],
            "size_bytes": duration_tenths * 1600 + self.between(44, 4096),
            "duration_sec": duration_tenths / 10,
            "folder_id": self.pick(self.folders),
            "metadata": metadata,
        }

    def keep(self, known: _Known) -> None:
        if len(self.pool) < _POOL_LIMIT:
            self.pool.append(known)
        else:
            self.pool[self.rng.randrange(_POOL_LIMIT)] = known

    def take(self, pool: list[_Known]) -> _Known:
        index = self.rng.randrange(len(pool))
        chosen = pool[index]
        pool[index] = pool[-1]
        pool.pop()
        return chosen

    # -- one added file -----------------------------------------------------------------------

    def add_file(self, plan: CyclePlan, label: str) -> None:
        zone = plan.run_version.zone
        case = label
        admissible = True
        truth = self.draw_truth(zone, unmapped=label == "unmapped_manager")
        name = format_name(truth)
        metadata_override: dict[str, str] | None = None
        variant = ""
        if label.startswith("boundary_time:"):
            case = "boundary_time"
            boundary_zone = self.config.zones[int(label.split(":")[1])]
            instants = self.boundary_lists[boundary_zone]
            epoch, offset = instants[self.boundary_index[boundary_zone] % len(instants)]
            self.boundary_index[boundary_zone] += 1
            truth = replace(truth, epoch_sec=epoch, name_offset_minutes=offset)
            name = format_name(truth)
        elif label == "same_name" and self.pool:
            source = self.pick(self.pool)
            truth, name = source.truth, source.file["name"]
        elif label == "same_name":
            case = "ordinary"
        elif label == "adversarial":
            item = ADVERSARIAL_ITEMS[self.adversarial_index % len(ADVERSARIAL_ITEMS)]
            self.adversarial_index += 1
            truth = replace(truth, tag=None)
            name, admissible, metadata_override = (
                item.make_name(truth),
                item.conforming,
                item.metadata,
            )
        elif label == "corrupted":
            variant = CORRUPTION_VARIANTS[self.corruption_index % len(CORRUPTION_VARIANTS)]
            self.corruption_index += 1
            case = "unsupported" if variant == "unsupported_mime" else "corrupted"
            admissible = False
        elif label == "nonconforming_name":
            _, make_name = NONCONFORMING_NAMES[self.nonconforming_index % len(NONCONFORMING_NAMES)]
            self.nonconforming_index += 1
            name, admissible = make_name(truth), False
        file = self.make_file(truth, name)
        if metadata_override is not None:
            file["metadata"] = {**_NO_METADATA, **metadata_override}
        if variant:
            corrupt(file, variant, self.rng)
        self.by_case[case] += 1
        self.file_added(plan.cycle, case, file)
        self.present_total += 1
        self.record(file, truth, admissible, zone, keep=True)
        if admissible and label.startswith(FAULT_TARGET_LABELS):
            self.cycle_admissible.append(file["file_id"])

    def record(
        self, file: dict[str, Any], truth: CallTruth, admissible: bool, zone: str, *, keep: bool
    ) -> None:
        if not admissible:
            self.refused += 1
            return
        self.admissible += 1
        known = _Known(truth, file)
        # The row is decided once, in the zone of the cycle the file first appeared in.
        self.expected_row(known, zone)
        if keep:
            self.keep(known)

    # -- one cycle ----------------------------------------------------------------------------

    def run_cycle(self, plan: CyclePlan, previous_zone: str | None) -> None:
        cycle, version = plan.cycle, plan.run_version
        self.event(
            cycle,
            "cycle_started",
            run_version=version.run_version,
            zone=version.zone,
            page_size=plan.page_size,
        )
        if previous_zone is not None and cycle == version.first_cycle:
            self.event(
                cycle,
                "time_zone_changed",
                run_version=version.run_version,
                previous_zone=previous_zone,
                zone=version.zone,
            )
        just_removed: list[_Known] = []
        for _ in range(plan.removals):
            if self.pool:
                known = self.take(self.pool)
                just_removed.append(known)
                self.present_total -= 1
                self.event(cycle, "file_removed", file_id=known.file["file_id"])
        for _ in range(plan.reappearances):
            if self.removed:
                known = self.take(self.removed)
                self.keep(known)
                self.present_total += 1
                self.event(cycle, "file_reappeared", file_id=known.file["file_id"])
        self.removed.extend(just_removed)
        self.touch(plan)
        self.cycle_admissible = []
        for label in plan.adds:
            self.add_file(plan, label)
        # Each fault is bound to an admissible file added this cycle (event model
        # `drive-events/2`), a different one for each fault of an operation: the plan made room.
        unbound: dict[str, list[str]] = {}
        for fault in plan.faults:
            self.by_fault[fault.fault] = self.by_fault.get(fault.fault, 0) + 1
            choices = unbound.setdefault(fault.operation, list(self.cycle_admissible))
            target = choices.pop(self.rng.randrange(len(choices)))
            self.event(
                cycle, "api_fault", operation=fault.operation, file_id=target, fault=fault.fault
            )
        for _ in range(plan.during_scan):
            pages = max(1, math.ceil(self.present_total / plan.page_size))
            truth = self.draw_truth(version.zone)
            file = self.make_file(truth, format_name(truth))
            after_page = self.rng.randint(1, max(1, pages - 1))
            self.event(cycle, "file_added_during_scan", after_page=after_page, file=file)
            self.present_total += 1
            # Not kept for later touches: a traversal may first see it in the next cycle, and a
            # removal there would hide it until a later run version.
            self.record(file, truth, True, version.zone, keep=False)

    def touch(self, plan: CyclePlan) -> None:
        cycle = plan.cycle
        for _ in range(plan.relists):
            if self.pool:
                known = self.pick(self.pool)
                self.file_relisted(cycle, known.file["file_id"])
        for _ in range(plan.renames):
            if self.pool:
                known = self.pick(self.pool)
                tags = [t for t in RENAME_TAGS if t != known.truth.tag]
                # Version 1 renames keep every structured field: only the tag changes.
                new_truth = replace(known.truth, tag=self.rng.choice([None, *tags]))
                if new_truth.tag is None and known.truth.tag is None:
                    new_truth = replace(new_truth, tag=tags[0])
                new_name = format_name(new_truth)
                previous_name = known.file["name"]
                if new_name == previous_name:
                    new_name = format_name(replace(new_truth, tag=tags[-1]))
                known.truth, known.file = new_truth, {**known.file, "name": new_name}
                self.event(
                    cycle,
                    "file_renamed",
                    file_id=known.file["file_id"],
                    previous_name=previous_name,
                    new_name=new_name,
                )
        for _ in range(plan.moves):
            if self.pool:
                known = self.pick(self.pool)
                previous = known.file["folder_id"]
                new_folder = self.rng.choice([f for f in self.folders if f != previous])
                known.file = {**known.file, "folder_id": new_folder}
                self.event(
                    cycle,
                    "file_moved",
                    file_id=known.file["file_id"],
                    previous_folder_id=previous,
                    new_folder_id=new_folder,
                )


def generate_events(config: CorpusConfig, emit: EventSink, emit_row: RowSink) -> CorpusCounts:
    """Stream the events of `config` to `emit` and its expected rows to `emit_row`."""
    generator = _Generator(config, emit, emit_row)
    previous_zone: str | None = None
    for plan in build_plan(config, generator.rng):
        generator.run_cycle(plan, previous_zone)
        previous_zone = plan.run_version.zone
    return CorpusCounts(
        events=generator.seq,
        file_events=sum(generator.by_kind[kind] for kind in FILE_EVENT_KINDS),
        admissible_files=generator.admissible,
        refused_files=generator.refused,
        expected_rows=generator.admissible,
        by_kind=generator.by_kind,
        by_case=generator.by_case,
        by_fault=dict(sorted(generator.by_fault.items())),
    )


__all__ = ["CALL_YEAR", "EventSink", "RowSink", "generate_events"]
