"""Public grammar `call-name-grammar/1` for call-recording file names (pilot §4).

    name      = direction "_" phone "_" timestamp "_" manager [ "_" tag ] "." extension
    direction = "in" | "out"
    phone     = nonzero-digit 6*14digit              ; E.164 digits, no "+": 7 to 15 digits
    timestamp = date "T" time offset                 ; the call's start, as the caller's clock read
    date      = 4digit 2digit 2digit                 ; YYYYMMDD, a real calendar date, 1971..9998
    time      = 2digit 2digit 2digit                 ; hhmmss, 00..23, 00..59, 00..59
    offset    = "Z" | ("+" | "-") 2digit 2digit       ; hhmm, at most 14:00, "-0000" not allowed
    manager   = "M" 3digit                           ; manager code, see the mapping table
    tag       = 1*tag-char                           ; free text, may hold "_" and "."
    tag-char  = any character except "/", control characters (Cc) and surrogates (Cs)
    extension = "mp3" | "wav" | "ogg" | "m4a"
    digit     = "0".."9"                             ; ASCII only: no other Unicode digits

Whole name: at most 255 characters; case-sensitive; no Unicode normalisation (a Cyrillic "М" is not
"M"). The extension is the text after the last "."; the tag is everything between the fourth "_"
and that ".". Examples:

    in_4930123456_20261025T023000+0200_M007.mp3
    out_12125550147_20261231T235959-0500_M012_follow-up call.wav
    in_447700900123_20260329T010000Z_M003_accept everything.ogg     (the tag is data)

A name that does not conform is not admissible: `parse_call_name` returns a `NameRejection` with a
reason code and a detail that names positions and code points, never echoing the hostile text.
Such a file is reported as a failure and never imported as a success (`_decide.py`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict

MAX_NAME_LENGTH = 255
EXTENSIONS: tuple[str, ...] = ("mp3", "wav", "ogg", "m4a")
MAX_OFFSET_MINUTES = 14 * 60
FIRST_YEAR = 1971
LAST_YEAR = 9998

Direction = Literal["in", "out"]
NameRejectionReason = Literal[
    "name_too_long",
    "name_forbidden_character",
    "name_not_conforming",
    "name_invalid_timestamp",
]

_NAME = re.compile(
    r"(?P<direction>in|out)_(?P<phone>[1-9][0-9]{6,14})"
    r"_(?P<date>[0-9]{8})T(?P<time>[0-9]{6})(?P<offset>Z|[+-][0-9]{4})"
    r"_(?P<manager>M[0-9]{3})(?:_(?P<tag>.+))?\.(?P<ext>mp3|wav|ogg|m4a)",
    re.ASCII | re.DOTALL,
)


class ParsedName(BaseModel):
    """The structured fields a conforming name encodes; `render_call_name` is the inverse."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    direction: Direction
    phone: str
    call_instant: AwareDatetime
    # Offset written in the name, in minutes east of UTC; None when the name says "Z".
    name_offset_minutes: int | None
    manager_code: str
    tag: str | None
    extension: str


class NameRejection(BaseModel):
    """Why a name is not admissible under the grammar."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reason_code: NameRejectionReason
    detail: str


# Exactly "/" and the code points of categories Cc (U+0000..U+001F, U+007F..U+009F) and Cs
# (U+D800..U+DFFF), fixed by Unicode's stability policy; a test compares it with
# `unicodedata.category` over every code point. One regex search instead of a category lookup
# per character.
_FORBIDDEN = re.compile(r"[/\x00-\x1f\x7f-\x9f\ud800-\udfff]")

# (direction, phone, call instant in UTC, name offset in minutes or None, manager, tag, extension)
NameFields = tuple[str, str, datetime, int | None, str, str | None, str]


def parse_call_name(name: str) -> ParsedName | NameRejection:
    """Parse `name` under `call-name-grammar/1`."""
    fields = parse_name_fields(name)
    if isinstance(fields, NameRejection):
        return fields
    direction, phone, instant, offset_minutes, manager, tag, extension = fields
    return ParsedName(
        direction="in" if direction == "in" else "out",
        phone=phone,
        call_instant=instant,
        name_offset_minutes=offset_minutes,
        manager_code=manager,
        tag=tag,
        extension=extension,
    )


def parse_name_fields(name: str) -> NameFields | NameRejection:
    """`parse_call_name` as a plain tuple (`NameFields`), for hot paths that decide many files;
    the same checks in the same order."""
    if len(name) > MAX_NAME_LENGTH:
        return NameRejection(
            reason_code="name_too_long", detail=f"{len(name)} characters, at most {MAX_NAME_LENGTH}"
        )
    forbidden = _FORBIDDEN.search(name)
    if forbidden is not None:
        position = forbidden.start()
        return NameRejection(
            reason_code="name_forbidden_character",
            detail=f"U+{ord(name[position]):04X} at position {position}",
        )
    match = _NAME.fullmatch(name)
    if match is None:
        return NameRejection(reason_code="name_not_conforming", detail=_first_mismatch(name))
    direction, phone, date_text, time_text, offset_text, manager, tag, extension = match.groups()
    instant, offset_minutes, problem = _call_instant(date_text, time_text, offset_text)
    if instant is None:
        return NameRejection(reason_code="name_invalid_timestamp", detail=problem)
    return direction, phone, instant, offset_minutes, manager, tag, extension


def name_shape(name: str) -> dict[str, str] | None:
    """The raw text of each part of a name that has the grammar's shape (its timestamp may still
    be invalid), or None: what a rewrite that must keep a name's grammar needs (the shadow
    level's pseudonyms replace the phone, manager code and tag and keep the rest)."""
    if len(name) > MAX_NAME_LENGTH or _FORBIDDEN.search(name) is not None:
        return None
    match = _NAME.fullmatch(name)
    if match is None:
        return None
    return {key: value for key, value in match.groupdict().items() if value is not None}


def forbidden_character(name: str) -> str | None:
    """The first character the grammar forbids anywhere in a name, or None."""
    found = _FORBIDDEN.search(name)
    return None if found is None else found.group()


def render_call_name(fields: ParsedName) -> str:
    """The canonical name for `fields` (what the generator writes)."""
    if fields.name_offset_minutes is None:
        wall = fields.call_instant.astimezone(UTC)
        offset_text = "Z"
    else:
        offset = timezone(timedelta(minutes=fields.name_offset_minutes))
        wall = fields.call_instant.astimezone(offset)
        sign = "-" if fields.name_offset_minutes < 0 else "+"
        hours, minutes = divmod(abs(fields.name_offset_minutes), 60)
        offset_text = f"{sign}{hours:02d}{minutes:02d}"
    tag = "" if fields.tag is None else f"_{fields.tag}"
    return (
        f"{fields.direction}_{fields.phone}_{wall:%Y%m%dT%H%M%S}{offset_text}"
        f"_{fields.manager_code}{tag}.{fields.extension}"
    )


@lru_cache(maxsize=4096)
def _offset_zone(offset_text: str) -> tuple[tzinfo | None, int | None, str]:
    """The zone an offset names, its minutes (None for "Z"), or why it is refused."""
    if offset_text == "Z":
        return UTC, None, ""
    hours, minutes = int(offset_text[1:3]), int(offset_text[3:5])
    if minutes > 59 or hours * 60 + minutes > MAX_OFFSET_MINUTES:
        return None, None, f"offset {offset_text} out of range"
    if offset_text == "-0000":
        return None, None, "offset -0000 is not allowed (write +0000 or Z)"
    offset_minutes = (hours * 60 + minutes) * (-1 if offset_text[0] == "-" else 1)
    return timezone(timedelta(minutes=offset_minutes)), offset_minutes, ""


def _call_instant(
    date_text: str, time_text: str, offset_text: str
) -> tuple[datetime | None, int | None, str]:
    zone, offset_minutes, problem = _offset_zone(offset_text)
    if zone is None:
        return None, None, problem
    year = int(date_text[:4])
    if not FIRST_YEAR <= year <= LAST_YEAR:
        return None, None, f"year {year} outside {FIRST_YEAR}..{LAST_YEAR}"
    try:
        wall = datetime(
            year,
            int(date_text[4:6]),
            int(date_text[6:8]),
            int(time_text[:2]),
            int(time_text[2:4]),
            int(time_text[4:6]),
            tzinfo=zone,
        )
    except ValueError as error:
        return None, None, f"not a calendar date-time: {error}"
    return wall.astimezone(UTC), offset_minutes, ""


_SEGMENTS = ("direction", "phone", "timestamp", "manager code")


_SEGMENT_CHECKS = (
    re.compile(r"in|out"),
    re.compile(r"[1-9][0-9]{6,14}", re.ASCII),
    re.compile(r"[0-9]{8}T[0-9]{6}(?:Z|[+-][0-9]{4})", re.ASCII),
    re.compile(r"M[0-9]{3}", re.ASCII),
)


def _first_mismatch(name: str) -> str:
    """A detail that says which part failed, without quoting the name."""
    _, dot, extension = name.rpartition(".")
    if not dot or extension not in EXTENSIONS:
        return "extension is not one of " + ", ".join(EXTENSIONS)
    mismatched = mismatched_segments(name)
    return mismatched[0] if mismatched else "empty tag"


def mismatched_segments(name: str) -> tuple[str, ...]:
    """The detail `segment N (part) does not conform` of every part of a name with a listed
    extension that does not conform, in order (the first is `_first_mismatch`'s): each is
    true of the name (agent contract rule 2's templates, `_refusal_templates.py`)."""
    stem = name.rpartition(".")[0]
    parts = stem.split("_", 4)
    return tuple(
        f"segment {index + 1} ({segment_name}) does not conform"
        for index, (segment_name, pattern) in enumerate(
            zip(_SEGMENTS, _SEGMENT_CHECKS, strict=True)
        )
        if index >= len(parts) or not pattern.fullmatch(parts[index])
    )


__all__ = [
    "EXTENSIONS",
    "MAX_NAME_LENGTH",
    "Direction",
    "NameFields",
    "NameRejection",
    "NameRejectionReason",
    "ParsedName",
    "forbidden_character",
    "mismatched_segments",
    "name_shape",
    "parse_call_name",
    "parse_name_fields",
    "render_call_name",
]
