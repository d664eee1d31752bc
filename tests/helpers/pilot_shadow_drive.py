"""Hand-made capture folders for the shadow tests that need no Drive: a few calls a day."""

from __future__ import annotations

from pathlib import Path

from provebench.pilot.corpus import DriveFile
from provebench.pilot.shadow import Pseudonymiser, append_snapshot
from tests.helpers.pilot_shadow import capture_time

KEY = bytes(range(32))


def call_file(day: int, index: int) -> DriveFile:
    """A real-looking admissible recording of `day` (1-based from 2026-11-02)."""
    return DriveFile(
        file_id=f"1Real{day:02d}x{index:02d}",
        name=f"in_49301234{index:02d}_202611{day + 1:02d}T05{index:02d}00Z_M00{1 + index % 9}.mp3",
        created_at_utc=f"2026-11-{day + 1:02d}T05:{index:02d}:30Z",
        mime_type="audio/mpeg",
        size_bytes=1000 + index,
        duration_sec=30.5,
        folder_id="0RealFolder",
    )


def daily_captures(folder: Path, days: int, *, per_day: int = 2, hours: float = 24.0) -> Path:
    """`days` captures, each adding `per_day` calls to what the Drive held the day before."""
    pseudonyms = Pseudonymiser(KEY)
    files: list[DriveFile] = []
    for day in range(1, days + 1):
        files += [call_file(day, index) for index in range(per_day)]
        append_snapshot(
            folder,
            [pseudonyms.file(f) for f in files],
            captured_at=capture_time(day, hours=hours),
            folders=[],
            key_check=pseudonyms.key_check,
        )
    return folder
