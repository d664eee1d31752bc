"""Register row format `register-row/1` and ordering rule `register-order/1` (pilot §4, §6).

## Columns (exactly these, in this order; every value is a string)

| column | value |
|---|---|
| `file_id` | the Drive `file_id`, unchanged |
| `call_local_datetime` | call start in the run version's zone, ISO 8601 with offset |
| `direction` | `incoming` (name says `in`) or `outgoing` (name says `out`) |
| `manager_code` | the code from the name, e.g. `M007` |
| `manager_name` | from mapping table `manager-mapping/1`, or `(unmapped)` for an unknown code |
| `phone` | E.164 digits from the name, without `+`: `4930123456` |
| `duration_sec` | whole seconds, the file's `duration_sec` rounded up (a 0.4 s call shows as 1) |
| `source_link` | stable identifier `drive://file/<file_id>` (independent of folder and name) |
| `status` | `imported` |

Example of `call_local_datetime`: `2026-10-25T02:30:00+01:00`.

CSV: UTF-8 without BOM, `\\n` line endings, one header line, the `csv` module's minimal quoting.

Formula injection: cells are written verbatim — never prefixed or escaped — because the register
holds data that is compared byte for byte. Nothing needs neutralising: by construction of this
row format no cell can start with `=`, `+`, `-`, `@`, tab or CR (the phone has no `+`, an
admissible `file_id` starts with a letter or digit, the shipped manager names are checked on load,
and free text from names or metadata never reaches a cell). `formula_like_cells` lets tests and
scorers check that.

## Order of the final register

Ascending call instant (UTC), ties broken by `file_id` in code-point order. The instant is
recoverable from `call_local_datetime` alone because it carries its offset.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from provebench._unvalidated import unvalidated
from provebench.pilot.rules._grammar import NameRejectionReason

REGISTER_COLUMNS: tuple[str, ...] = (
    "file_id",
    "call_local_datetime",
    "direction",
    "manager_code",
    "manager_name",
    "phone",
    "duration_sec",
    "source_link",
    "status",
)
IMPORTED_STATUS = "imported"
SOURCE_LINK_PREFIX = "drive://file/"
DIRECTION_WORDS: dict[str, str] = {"in": "incoming", "out": "outgoing"}
FORMULA_START_CHARACTERS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")

RefusalReason = (
    Literal[
        "invalid_file_id",
        "unsupported_mime_type",
        "corrupted_empty_file",
        "corrupted_unreadable_duration",
        "corrupted_non_positive_duration",
    ]
    | NameRejectionReason
)


class RegisterRow(BaseModel):
    """One row of the confirmed register, as the pilot version defines it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file_id: str
    call_local_datetime: str
    direction: str
    manager_code: str
    manager_name: str
    phone: str
    duration_sec: str
    source_link: str
    status: str

    def cells(self) -> tuple[str, ...]:
        return tuple(getattr(self, column) for column in REGISTER_COLUMNS)


# What every row from `register_row_of` reports as its set fields: all of them, in one shared
# set. A validated row carries a set of its own (728 bytes, more than its nine short strings);
# an evaluation holds every expected row, and at a million events that was 0.6 GB. A `set`, not
# a frozenset, because pydantic's `model_copy(update=...)` updates the copy's set.
_ALL_ROW_FIELDS: set[str] = set(REGISTER_COLUMNS)


def register_row_of(cells: Sequence[str]) -> RegisterRow:
    """The `RegisterRow` of a CSV record: `RegisterRow(**dict(zip(REGISTER_COLUMNS, cells)))`
    without pydantic's validation, whose only work here — nine strings, no extras — the caller's
    CSV reader has already done (tests hold the two equal). Anything else is a `TypeError`."""
    if len(cells) != len(REGISTER_COLUMNS) or any(type(cell) is not str for cell in cells):
        raise TypeError(f"a register row is {len(REGISTER_COLUMNS)} strings")
    values = dict(zip(REGISTER_COLUMNS, cells, strict=True))
    return unvalidated(RegisterRow, values, _ALL_ROW_FIELDS)


class Refusal(BaseModel):
    """A file that must not be imported, with the reason code reported as a failure."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file_id: str
    reason_code: RefusalReason
    detail: str


OrderKey = tuple[int, datetime | str, str]


def call_order_key(local_datetime: str, file_id: str) -> OrderKey:
    """`register-order/1`, the one place it is written: call instant (UTC), then file_id.

    Every ordering of rows uses it — the register as published, the evaluator's order check,
    the expected rows, the reference and the red team's importers. It is tolerant, because a
    row may be what an importer wrote: a time without an offset or not in ISO 8601 sorts after
    every valid one, by its text. The instant is the UTC datetime itself (the same tzinfo on
    every key, so comparisons read the fields): it orders exactly as its ISO text would, without
    formatting one per row; the leading 0/1 keeps the two kinds apart."""
    try:
        instant = datetime.fromisoformat(local_datetime)
    except ValueError:
        return 1, local_datetime, file_id
    if instant.tzinfo is None:
        return 1, local_datetime, file_id
    try:
        return 0, instant.astimezone(UTC), file_id
    except OverflowError:  # e.g. year 1 at +01:00: no UTC instant a datetime can hold
        return 1, local_datetime, file_id


def register_order_key(row: RegisterRow) -> OrderKey:
    """Sort key of `register-order/1` for a register row (`call_order_key`)."""
    return call_order_key(row.call_local_datetime, row.file_id)


_TIME_INDEX = REGISTER_COLUMNS.index("call_local_datetime")
_FILE_ID_INDEX = REGISTER_COLUMNS.index("file_id")


def presented_order_key(cells: Sequence[str]) -> OrderKey:
    """`register-order/1` (`call_order_key`) on a confirmed row's cells, in register columns."""
    return call_order_key(cells[_TIME_INDEX], cells[_FILE_ID_INDEX])


def sorted_register(rows: Iterable[RegisterRow]) -> list[RegisterRow]:
    return sorted(rows, key=register_order_key)


def formula_like_cells(row: RegisterRow) -> list[str]:
    """Columns whose value a spreadsheet would read as a formula (should always be empty)."""
    return [
        column
        for column, value in zip(REGISTER_COLUMNS, row.cells(), strict=True)
        if value.startswith(FORMULA_START_CHARACTERS)
    ]


def register_csv_text(rows: Iterable[RegisterRow]) -> str:
    """The register as CSV text in row format v1, rows in the order given."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(REGISTER_COLUMNS)
    writer.writerows(row.cells() for row in rows)
    return buffer.getvalue()


__all__ = [
    "DIRECTION_WORDS",
    "FORMULA_START_CHARACTERS",
    "IMPORTED_STATUS",
    "REGISTER_COLUMNS",
    "SOURCE_LINK_PREFIX",
    "Refusal",
    "RefusalReason",
    "RegisterRow",
    "call_order_key",
    "formula_like_cells",
    "presented_order_key",
    "register_csv_text",
    "register_order_key",
    "register_row_of",
    "sorted_register",
]
