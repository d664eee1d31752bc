"""Time rule call-time-rule/1 (pilot §4, §5, §14): name time, zone, DST gap/fold, year end."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot import DriveFile, RegisterRow, decide_row, load_zone, local_datetime_text
from provebench.pilot.rules import TZDATA_VERSION


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


@pytest.mark.parametrize(
    ("zone", "instant", "local"),
    [
        # Europe/Berlin spring gap: 02:00–03:00 local does not exist on 2026-03-29.
        ("Europe/Berlin", "2026-03-29T00:59:59+00:00", "2026-03-29T01:59:59+01:00"),
        ("Europe/Berlin", "2026-03-29T01:00:00+00:00", "2026-03-29T03:00:00+02:00"),
        # Europe/Berlin autumn fold: 02:30 local happens twice on 2026-10-25.
        ("Europe/Berlin", "2026-10-25T00:30:00+00:00", "2026-10-25T02:30:00+02:00"),
        ("Europe/Berlin", "2026-10-25T01:30:00+00:00", "2026-10-25T02:30:00+01:00"),
        ("Europe/Berlin", "2026-12-31T22:59:59+00:00", "2026-12-31T23:59:59+01:00"),
        ("Europe/Berlin", "2026-12-31T23:00:00+00:00", "2027-01-01T00:00:00+01:00"),
        # America/New_York gap on 2026-03-08 and fold on 2026-11-01.
        ("America/New_York", "2026-03-08T06:59:59+00:00", "2026-03-08T01:59:59-05:00"),
        ("America/New_York", "2026-03-08T07:00:00+00:00", "2026-03-08T03:00:00-04:00"),
        ("America/New_York", "2026-11-01T05:30:00+00:00", "2026-11-01T01:30:00-04:00"),
        ("America/New_York", "2026-11-01T06:30:00+00:00", "2026-11-01T01:30:00-05:00"),
        ("America/New_York", "2027-01-01T04:59:59+00:00", "2026-12-31T23:59:59-05:00"),
        ("America/New_York", "2027-01-01T05:00:00+00:00", "2027-01-01T00:00:00-05:00"),
    ],
)
def test_local_time_with_offset_at_gap_fold_and_year_end(
    zone: str, instant: str, local: str
) -> None:
    assert local_datetime_text(_utc(instant), zone) == local
    # The printed local time always carries enough to recover the instant.
    assert datetime.fromisoformat(local) == _utc(instant)


@pytest.mark.parametrize("zone", ["Europe/Berlin", "America/New_York"])
def test_every_instant_of_a_dst_day_maps_to_one_distinct_local_text(zone: str) -> None:
    # A fold day: 25 hours of instants, every second → unique text (offset disambiguates).
    start = _utc(
        "2026-10-24T20:00:00+00:00" if zone == "Europe/Berlin" else "2026-10-31T20:00:00+00:00"
    )
    texts = [
        local_datetime_text(start + timedelta(seconds=s), zone) for s in range(0, 30 * 3600, 60)
    ]
    assert len(set(texts)) == len(texts)


def _file(name: str, created: str = "2026-01-05T12:00:00Z") -> DriveFile:
    return DriveFile(
        file_id="f1",
        name=name,
        created_at_utc=created,
        mime_type="audio/mpeg",
        size_bytes=100,
        duration_sec=60.0,
        folder_id="fld",
    )


def test_call_time_comes_from_the_name_not_from_created_at() -> None:
    # Uploaded two days later, across a year boundary: created_at must not be used (pilot §14).
    row = decide_row(
        _file("in_4930123456_20261231T233000+0100_M001.mp3", created="2027-01-02T08:00:00Z"),
        "Europe/Berlin",
    )
    assert isinstance(row, RegisterRow)
    assert row.call_local_datetime == "2026-12-31T23:30:00+01:00"


def test_the_same_name_is_shown_in_the_run_versions_zone() -> None:
    name = "out_4930123456_20261231T233000+0100_M001.mp3"
    berlin = decide_row(_file(name), "Europe/Berlin")
    new_york = decide_row(_file(name), "America/New_York")
    assert isinstance(berlin, RegisterRow) and isinstance(new_york, RegisterRow)
    assert berlin.call_local_datetime == "2026-12-31T23:30:00+01:00"
    assert new_york.call_local_datetime == "2026-12-31T17:30:00-05:00"


def test_a_name_offset_unlike_the_zone_is_converted_not_copied() -> None:
    row = decide_row(_file("in_4930123456_20270101T103000+1400_M001.mp3"), "Europe/Berlin")
    assert isinstance(row, RegisterRow)
    assert row.call_local_datetime == "2026-12-31T21:30:00+01:00"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd", "America", "", "zone.tab"])
def test_unknown_or_malformed_zones_are_configuration_errors(zone: str) -> None:
    with pytest.raises(ProvebenchError):
        load_zone(zone)
    with pytest.raises(ProvebenchError):
        decide_row(_file("in_4930123456_20261231T233000+0100_M001.mp3"), zone)


def test_zones_come_from_the_recorded_tzdata_package() -> None:
    import importlib.metadata

    assert f"tzdata/{importlib.metadata.version('tzdata')}" == TZDATA_VERSION
    assert load_zone("Europe/Berlin").key == "Europe/Berlin"
