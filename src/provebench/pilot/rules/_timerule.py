"""Time rule `call-time-rule/1`: which instant a call happened, and how the register shows it.

- The call instant is the timestamp written in the file name (grammar `call-name-grammar/1`),
  which carries its own UTC offset or `Z`, so the instant is unambiguous. The file's
  `created_at_utc` is never used: it is when the file was uploaded, not when the call happened
  (pilot §14 attack "use of creation time instead of the time specified by the public rule").
- The register shows that instant as local date-time in the configured IANA zone of the run
  version, ISO 8601 with seconds and the zone's UTC offset: `2026-10-25T02:30:00+01:00`.
- A UTC instant always maps to exactly one local time and offset, so there is nothing to
  resolve: during a DST gap no instant has the skipped wall-clock time, and during a DST fold the
  two instants that share a wall-clock time differ in the printed offset
  (`02:30:00+02:00` then `02:30:00+01:00` in Europe/Berlin).
- Zones come from the `tzdata` package — never from the operating system's database — so the
  recorded time-zone version (`TZDATA_VERSION`) is the one actually applied (pilot §9).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from importlib import resources
from zoneinfo import ZoneInfo

from provebench._errors import ProvebenchError

_ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*", re.ASCII)


@lru_cache(maxsize=64)
def load_zone(name: str) -> ZoneInfo:
    """The IANA zone `name` as shipped in the `tzdata` package; a one-line error if unknown."""
    if not _ZONE_NAME.fullmatch(name):
        raise ProvebenchError(f"not an IANA time-zone name: {name!r}", field="zone")
    resource = resources.files("tzdata").joinpath("zoneinfo", *name.split("/"))
    try:
        with resource.open("rb") as handle:
            return ZoneInfo.from_file(handle, key=name)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, ValueError) as error:
        raise ProvebenchError(
            f"unknown IANA time zone {name!r} (tzdata has no such zone)", field="zone"
        ) from error


def local_datetime_text(instant: datetime, zone: str) -> str:
    """`instant` (timezone-aware) as ISO 8601 local date-time with offset in `zone`."""
    if instant.tzinfo is None:
        raise ValueError("the call instant must be timezone-aware")
    return instant.astimezone(load_zone(zone)).isoformat(timespec="seconds")


__all__ = ["load_zone", "local_datetime_text"]
