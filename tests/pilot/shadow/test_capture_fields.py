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
