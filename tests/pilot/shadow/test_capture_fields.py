"""How one Drive `File` resource becomes the laboratory's `DriveFile` (docs/pilot-shadow.md,
"Capture"): where a duration comes from, and what is refused."""

from __future__ import annotations

from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.shadow._capture import drive_file


def resource(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "f1",
        "name": "call.mp3",
        "mimeType": "audio/mpeg",
        "size": "2048",
        "createdTime": "2026-11-30T09:15:02.120+01:00",
        "parents": ["folder-1"],
    }
    return {**base, **fields}


def test_drive_measured_video_duration_is_taken() -> None:
    file = drive_file(resource(videoMediaMetadata={"durationMillis": "61500"}))
    assert file.duration_sec == 61.5
    assert file.created_at_utc == "2026-11-30T08:15:02Z"


def test_an_audio_recording_takes_the_recording_systems_stated_duration() -> None:
    file = drive_file(resource(properties={"duration_sec": "93.25", "direction": "in"}))
    assert file.duration_sec == 93.25
    assert file.metadata is not None and file.metadata.direction == "in"


def test_drives_own_measure_wins_over_a_stated_one() -> None:
    file = drive_file(
        resource(videoMediaMetadata={"durationMillis": "1000"}, properties={"duration_sec": "9"})
    )
    assert file.duration_sec == 1.0


@pytest.mark.parametrize(
    "properties", [None, {}, {"duration_sec": "about a minute"}, {"duration_sec": "nan"},
                   {"duration_sec": "inf"}, {"duration_sec": 12}],
)  # fmt: skip
def test_no_readable_duration_is_none_for_the_rules_to_refuse(properties: Any) -> None:
    fields = {} if properties is None else {"properties": properties}
    assert drive_file(resource(**fields)).duration_sec is None


def test_a_malformed_drive_measure_is_refused_naming_the_field() -> None:
    with pytest.raises(ProvebenchError) as caught:
        drive_file(resource(videoMediaMetadata={"durationMillis": "61.5"}))
    assert caught.value.field == "files[].videoMediaMetadata.durationMillis"


class FakeDrive:
    """`files().list(q=…).execute()` over a tree of folders, two resources a page."""

    FOLDER = "application/vnd.google-apps.folder"

    def __init__(self, children: dict[str, list[dict[str, Any]]]) -> None:
        self.children = children
        self.queries: list[str] = []

    def files(self) -> FakeDrive:
        return self

    def list(self, *, q: str, pageToken: str | None, **_: Any) -> FakeRequest:
        self.queries.append(q)
        folder = q.split("'")[1] if " in parents" in q else None
        every = [r for rs in self.children.values() for r in rs]
        items = self.children.get(folder, []) if folder is not None else every
        start = int(pageToken or 0)
        page: dict[str, Any] = {"files": items[start : start + 2]}
        if start + 2 < len(items):
            page["nextPageToken"] = str(start + 2)
        return FakeRequest(page)


class FakeRequest:
    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer

    def execute(self, num_retries: int = 0) -> dict[str, Any]:
        return self.answer


def test_capture_follows_subfolders_however_deep_and_lists_each_folder_once() -> None:
    from provebench.pilot.shadow._capture import list_files

    folder = FakeDrive.FOLDER
    drive = FakeDrive(
        {
            "root": [resource(id="a"), {"id": "day1", "mimeType": folder}, resource(id="b")],
            "day1": [resource(id="c"), {"id": "line2", "mimeType": folder}],
            "line2": [resource(id="d"), {"id": "root", "mimeType": folder}],  # a loop
            "elsewhere": [resource(id="e")],
        }
    )
    found = [r["id"] for r in list_files(drive, ["root"])]
    assert found == ["a", "b", "c", "d"]
    assert sum(1 for q in drive.queries if q.startswith("'root'")) == 2  # its two pages, once
    everything = [r["id"] for r in list_files(FakeDrive(drive.children), [])]
    assert sorted(everything) == ["a", "b", "c", "d", "e"]  # folders themselves left out
