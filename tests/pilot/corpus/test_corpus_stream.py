"""The loader refuses event streams that could not have happened (drive-events/1 consistency)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._canonical import canonical_json, compact_json, sha256_file
from provebench._errors import ProvebenchError
from provebench.pilot import load_corpus
from tests.helpers.pilot_corpus import fresh_corpus_dir

Events = list[dict[str, Any]]


def _first(events: Events, kind: str, start: int = 0) -> int:
    return next(i for i, e in enumerate(events) if e["kind"] == kind and i >= start)


def _remove_unknown(events: Events) -> None:
    events[_first(events, "file_removed")]["file_id"] = "never-added"


def _reappear_present(events: Events) -> None:
    index = _first(events, "file_reappeared")
    added = next(e for e in events if e["kind"] == "file_added" and e["cycle"] == 1)
    events[index]["file_id"] = added["file"]["file_id"]


def _remove_twice(events: Events) -> None:
    index = _first(events, "file_removed")
    events.insert(index + 1, dict(events[index]))


def _rename_removed(events: Events) -> None:
    index = _first(events, "file_removed")
    rename = dict(events[_first(events, "file_renamed")])
    rename["file_id"], rename["cycle"] = events[index]["file_id"], events[index]["cycle"]
    events.insert(index + 1, rename)


def _relist_removed(events: Events) -> None:
    index = _first(events, "file_removed")
    relisted = {key: events[index][key] for key in ("cycle", "file_id")}
    events.insert(index + 1, {**relisted, "seq": 0, "kind": "file_relisted"})


def _add_twice(events: Events) -> None:
    first = _first(events, "file_added")
    second = _first(events, "file_added", first + 1)
    events[second]["file"]["file_id"] = events[first]["file"]["file_id"]


def _wrong_previous_name(events: Events) -> None:
    events[_first(events, "file_renamed")]["previous_name"] = (
        "in_4930123456_20260101T000000Z_M001.mp3"
    )


def _wrong_previous_folder(events: Events) -> None:
    events[_first(events, "file_moved")]["previous_folder_id"] = "fld-elsewhere"


def _zone_not_declared(events: Events) -> None:
    events[_first(events, "cycle_started")]["zone"] = "Asia/Tokyo"


def _missing_zone_change(events: Events) -> None:
    del events[_first(events, "time_zone_changed")]


def _applied_on_listing(events: Events) -> None:
    fault = events[_first(events, "api_fault")]
    fault["fault"], fault["operation"] = "applied_then_error", "list_page"


def _fault_on_absent_file(events: Events) -> None:
    events[_first(events, "api_fault")]["file_id"] = "never-added"


def _cycle_skipped(events: Events) -> None:
    start = _first(events, "cycle_started", 1)
    for event in events[start:]:
        event["cycle"] += 1


@pytest.mark.parametrize(
    ("mangle", "field"),
    [
        (_remove_unknown, "file_id"),
        (_reappear_present, "file_id"),
        (_remove_twice, "file_id"),
        (_rename_removed, "file_id"),
        (_relist_removed, "file_id"),
        (_add_twice, "file.file_id"),
        (_wrong_previous_name, "previous_name"),
        (_wrong_previous_folder, "previous_folder_id"),
        (_zone_not_declared, "run_version"),
        (_missing_zone_change, "kind"),
        (_applied_on_listing, "fault"),
        (_fault_on_absent_file, "file_id"),
        (_cycle_skipped, "cycle"),
    ],
)
def test_impossible_streams_are_refused(
    tmp_path: Path, mangle: Callable[[Events], None], field: str
) -> None:
    directory = fresh_corpus_dir(tmp_path)
    path = directory / "drive_events.jsonl"
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    mangle(events)
    for seq, event in enumerate(events, start=1):
        event["seq"] = seq
    path.write_text("".join(compact_json(e) + "\n" for e in events), encoding="utf-8")
    manifest_path = directory / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["sha256"] = {name: sha256_file(directory / name) for name in manifest["sha256"]}
    manifest_path.write_text(canonical_json(manifest), encoding="utf-8")
    with pytest.raises(ProvebenchError) as caught:
        load_corpus(directory)
    assert caught.value.path == str(path)
    assert caught.value.field == field


def test_the_generated_stream_ends_with_every_admissible_file_present(tmp_path: Path) -> None:
    corpus = load_corpus(fresh_corpus_dir(tmp_path, seed=9, profile="control"))
    present: set[str] = set()
    for event in corpus.events():
        if event.kind in ("file_added", "file_added_during_scan"):
            present.add(event.file.file_id)  # type: ignore[union-attr]
        elif event.kind == "file_removed":
            present.discard(event.file_id)  # type: ignore[union-attr]
        elif event.kind == "file_reappeared":
            present.add(event.file_id)  # type: ignore[union-attr]
    assert {row.file_id for row in corpus.expected_rows()} <= present
