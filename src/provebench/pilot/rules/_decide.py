"""`decide_row`: the public rules applied to one Drive file (pilot §4, §6).

## Admissibility `admissibility/1`

Checks run in this order; the first that fails decides the reason code of the `Refusal`:

1. `invalid_file_id` — the id is not 1..128 of `A-Z a-z 0-9 _ -` starting with a letter or digit.
2. `unsupported_mime_type` — the mime type is not exactly one of `SUPPORTED_MIME_TYPES`.
3. `corrupted_empty_file` — `size_bytes` is 0 or negative.
4. `corrupted_unreadable_duration` — `duration_sec` is missing (could not be read).
5. `corrupted_non_positive_duration` — `duration_sec` is 0 or negative.
6. the name's grammar rejection (`name_too_long`, `name_forbidden_character`,
   `name_not_conforming`, `name_invalid_timestamp`).

A refused file is never a success: it does not appear in the register and is reported through
the diagnostics channel with its reason code (pilot §6 "unsupported and corrupted files are not
reported as processed successfully").

## Precedence `name-over-metadata/1`

The name is authoritative when it parses; optional metadata (direction, phone, manager code)
fills nothing and overrides nothing, and it cannot make a non-conforming name admissible. Why: the
name grammar is the only field format the pilot version fixes and publishes; metadata is optional,
unvalidated free text and a known carrier of injected instructions (pilot §4, §14). A
disagreement is not an error; `metadata_disagreements` lists it so an importer can send it to the
diagnostics channel.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from provebench.pilot.rules._grammar import NameRejection, ParsedName, parse_name_fields
from provebench.pilot.rules._mapping import manager_name_for
from provebench.pilot.rules._rows import (
    DIRECTION_WORDS,
    IMPORTED_STATUS,
    REGISTER_COLUMNS,
    SOURCE_LINK_PREFIX,
    Refusal,
    RegisterRow,
)
from provebench.pilot.rules._timerule import load_zone

if TYPE_CHECKING:  # the event model is the corpus's; a rule only reads a file's fields
    from provebench.pilot.corpus._model import DriveFile

SUPPORTED_MIME_TYPES: tuple[str, ...] = ("audio/mpeg", "audio/wav", "audio/ogg", "audio/mp4")
FILE_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}", re.ASCII)


def decide_row(file: DriveFile, zone: str) -> RegisterRow | Refusal:
    """The register row of `file` under the pilot version, or why it must not be imported.

    `zone` is the IANA zone of the run version in which the file first became admissible.
    An unknown zone is a configuration error (`ProvebenchError`), not a refusal.
    """
    cells = decide_cells(file, zone)
    if isinstance(cells, Refusal):
        return cells
    return RegisterRow(**dict(zip(REGISTER_COLUMNS, cells, strict=True)))


def decide_cells(file: DriveFile, zone: str) -> tuple[str, ...] | Refusal:
    """`decide_row` as the row's cells in `REGISTER_COLUMNS` order (status last), for importers
    that decide many files: the same checks and values, without building a model per row."""
    tz = load_zone(zone)
    refusal = _refusal(file)
    if refusal is not None:
        return refusal
    parsed = parse_name_fields(file.name)
    if isinstance(parsed, NameRejection):
        return Refusal(file_id=file.file_id, reason_code=parsed.reason_code, detail=parsed.detail)
    direction, phone, instant, _, manager_code, _, _ = parsed
    duration = file.duration_sec
    assert duration is not None  # _refusal checked it
    file_id = file.file_id
    return (
        file_id,
        instant.astimezone(tz).isoformat(timespec="seconds"),  # `local_datetime_text`
        DIRECTION_WORDS[direction],
        manager_code,
        manager_name_for(manager_code),
        phone,
        str(math.ceil(duration)),
        SOURCE_LINK_PREFIX + file_id,
        IMPORTED_STATUS,
    )


def _refusal(file: DriveFile) -> Refusal | None:
    if not FILE_ID_PATTERN.fullmatch(file.file_id):
        return Refusal(
            file_id=file.file_id, reason_code="invalid_file_id", detail="file_id is malformed"
        )
    if file.mime_type not in SUPPORTED_MIME_TYPES:
        return Refusal(
            file_id=file.file_id,
            reason_code="unsupported_mime_type",
            detail="mime type is not one of " + ", ".join(SUPPORTED_MIME_TYPES),
        )
    if file.size_bytes <= 0:
        return Refusal(
            file_id=file.file_id,
            reason_code="corrupted_empty_file",
            detail=f"size_bytes is {file.size_bytes}",
        )
    if file.duration_sec is None:
        return Refusal(
            file_id=file.file_id,
            reason_code="corrupted_unreadable_duration",
            detail="duration_sec could not be read",
        )
    if not math.isfinite(file.duration_sec) or file.duration_sec <= 0:
        return Refusal(
            file_id=file.file_id,
            reason_code="corrupted_non_positive_duration",
            detail=f"duration_sec is {file.duration_sec}",
        )
    return None


def metadata_disagreements(file: DriveFile, parsed: ParsedName) -> list[str]:
    """Metadata fields that are present and disagree with the name (recorded, never applied)."""
    if file.metadata is None:
        return []
    disagreeing: list[str] = []
    if file.metadata.direction is not None and file.metadata.direction != parsed.direction:
        disagreeing.append("direction")
    if file.metadata.phone is not None and file.metadata.phone != parsed.phone:
        disagreeing.append("phone")
    if file.metadata.manager_code is not None and file.metadata.manager_code != parsed.manager_code:
        disagreeing.append("manager_code")
    return disagreeing


__all__ = [
    "FILE_ID_PATTERN",
    "SUPPORTED_MIME_TYPES",
    "decide_cells",
    "decide_row",
    "metadata_disagreements",
]
