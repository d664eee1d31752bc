"""Sheets v4 over the laboratory's register: an append-only working sheet and a read-only
confirmed sheet (pilot §3).

* The working sheet has a header row (the importer columns) and this cycle's appended rows; the
  lab confirms them at cycle end, so each cycle starts with only the header. `values.append` goes
  through the gateway, so every rule of the lab applies (a row carrying a status is refused, a
  row of the wrong width is invalid, faults are injected). Reading it is refused: the contract's
  working adapter is write-only.
* The confirmed sheet has a header row (the register columns, status included) and every row the
  lab has confirmed, in confirmation order. `values.get` on it reads the confirmed register
  (counted as a `read_confirmed_ids` call, so the corpus's faults apply). Writing it is refused.

Cells are text: numbers and booleans sent by a client are stored as Sheets would display them
(`13`, `TRUE`), whatever `valueInputOption` says; reads return strings.

Whether a row landed is shown by one answer only: a read of the Confirmed sheet (logged as
`sheets.read_confirmed`). No other answer depends on how many rows either sheet holds: an append
is answered as if the working sheet held its header alone (`tableRange` the header, `updatedRange`
the rows right below it), and both sheets report the fixed grid of a new sheet (`GRID_ROWS`).
Real Sheets shows the table's extent there, so after an append answered 500 or never answered an
importer could count the rows to learn whether it landed, without consulting the register (pilot
§3: the working adapter is write-only; red team 26, H3/F1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from provebench.pilot.emulator._a1 import A1Range, format_range, parse_a1, quote_sheet
from provebench.pilot.emulator._errors import GoogleApiError, bad_request, not_found
from provebench.pilot.emulator._fields import apply_mask, parse_fields
from provebench.pilot.lab import Gateway

GRID_ROWS = 1000
_INPUT_OPTIONS = ("RAW", "USER_ENTERED")
# The register's title, as Sheets and Drive both report it (gspread opens it by title).
REGISTER_TITLE = "provebench call register"
_INSERT_OPTIONS = ("OVERWRITE", "INSERT_ROWS")
_DIMENSIONS = ("ROWS", "COLUMNS")


@dataclass(frozen=True)
class SheetLayout:
    """The spreadsheet the emulator serves: its id, the two sheet names and their columns."""

    spreadsheet_id: str
    working_sheet: str
    confirmed_sheet: str
    importer_columns: tuple[str, ...]
    register_columns: tuple[str, ...]
    status_column: str


@dataclass
class SheetsView:
    """What one cycle's Sheets requests act on."""

    layout: SheetLayout
    gateway: Gateway
    confirmed_rows: Sequence[Sequence[str]]
    time_zone: str


def _flag(query: Mapping[str, list[str]], name: str) -> bool:
    values = query.get(name) or ["false"]
    value = values[-1].lower()
    if value not in ("true", "false"):
        raise bad_request(f"Invalid value at '{name}' ({values[-1]}), expected a boolean")
    return value == "true"


def _choice(query: Mapping[str, list[str]], name: str, allowed: Sequence[str]) -> str | None:
    values = query.get(name)
    if not values:
        return None
    if values[-1] not in allowed:
        raise bad_request(f"Invalid value at '{name}' ({values[-1]})")
    return values[-1]


def _check_spreadsheet(view: SheetsView, spreadsheet_id: str) -> None:
    if spreadsheet_id != view.layout.spreadsheet_id:
        raise not_found()


def _sheet_of(view: SheetsView, text: str) -> tuple[str, A1Range]:
    try:
        parsed = parse_a1(text)
    except ValueError as error:
        raise bad_request(str(error)) from error
    sheet = view.layout.working_sheet if parsed.sheet is None else parsed.sheet
    if sheet not in (view.layout.working_sheet, view.layout.confirmed_sheet):
        raise bad_request(f"Unable to parse range: {text}")
    return sheet, parsed


def spreadsheet_get(
    view: SheetsView, spreadsheet_id: str, query: Mapping[str, list[str]]
) -> dict[str, Any]:
    _check_spreadsheet(view, spreadsheet_id)
    layout = view.layout
    if _flag(query, "includeGridData"):
        raise bad_request("includeGridData is not supported by the laboratory; use values.get")
    # The fixed grid of a new sheet, whatever either sheet holds: a row count that grew with the
    # rows would tell an in-doubt append's fate without a read of the confirmed ids (module doc).
    sheets = [
        (0, layout.working_sheet, len(layout.importer_columns)),
        (1, layout.confirmed_sheet, len(layout.register_columns)),
    ]
    body: dict[str, Any] = {
        "spreadsheetId": layout.spreadsheet_id,
        "properties": {
            "title": REGISTER_TITLE,
            "locale": "en_US",
            "autoRecalc": "ON_CHANGE",
            # The configured zone of this cycle's run version (pilot §5).
            "timeZone": view.time_zone,
        },
        "sheets": [
            {
                "properties": {
                    "sheetId": sheet_id,
                    "title": title,
                    "index": sheet_id,
                    "sheetType": "GRID",
                    "gridProperties": {
                        "rowCount": GRID_ROWS,
                        "columnCount": columns,
                        "frozenRowCount": 1,
                    },
                }
            }
            for sheet_id, title, columns in sheets
        ],
        "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{layout.spreadsheet_id}/edit",
    }
    fields = query.get("fields")
    selected: dict[str, Any] = apply_mask(body, parse_fields(fields[-1])) if fields else body
    return selected


def _value_range(view: SheetsView, text: str, query: Mapping[str, list[str]]) -> dict[str, Any]:
    sheet, parsed = _sheet_of(view, text)
    dimension = _choice(query, "majorDimension", _DIMENSIONS) or "ROWS"
    if sheet == view.layout.working_sheet:
        # Pilot §3: the working adapter is write-only. A read is not a write the contract
        # forbids trying, so it is answered 403 (and logged as the request) but not as `refused`.
        raise GoogleApiError(
            403, "PERMISSION_DENIED", "The working sheet is write-only (pilot §3).", "forbidden"
        )
    grid = [list(view.layout.register_columns), *(list(row) for row in view.confirmed_rows)]
    columns = len(view.layout.register_columns)
    first_row = parsed.first_row or 1
    first_col = parsed.first_col or 1
    # Rows: as asked, an open-ended range to the last row (at least the grid). No row bound is
    # refused by the register's size: a 400 for a range past the last row, given before the read
    # is logged, would tell whether rows landed outside any read (module doc). Columns are fixed.
    last_row = parsed.last_row or max(GRID_ROWS, len(grid), first_row)
    last_col = min(parsed.last_col or columns, columns)
    if first_col > last_col or first_row > last_row:
        raise bad_request(f"Range ({text}) exceeds grid limits.")
    # The read_confirmed_ids call (counted, faultable), logged with the range served: only a
    # range that holds the file_id column and every data row (row 2 to the last confirmed one)
    # is a read of them all. One without the column, the header alone, or rows that miss some
    # confirmed ones (a range past the data, a single row) is not (red-team finding: a read of
    # an empty range past the last row settled an in-doubt append).
    id_column = view.layout.register_columns.index("file_id") + 1
    shows_ids = (
        first_col <= id_column <= last_col and first_row <= 2 and last_row >= max(2, len(grid))
    )
    served = format_range(sheet, first_col, first_row, last_col, last_row)
    view.gateway.confirmed_range(served, shows_ids)
    rows = [row[first_col - 1 : last_col] for row in grid[first_row - 1 : last_row]]
    rows = [_trim(row) for row in rows]
    while rows and not rows[-1]:
        rows.pop()
    body: dict[str, Any] = {
        "range": served,
        "majorDimension": dimension,
    }
    if rows:
        body["values"] = _transpose(rows) if dimension == "COLUMNS" else rows
    return body


def _trim(row: list[str]) -> list[str]:
    while row and row[-1] == "":
        row = row[:-1]
    return row


def _transpose(rows: list[list[str]]) -> list[list[str]]:
    width = max(len(row) for row in rows)
    columns = [[row[i] if i < len(row) else "" for row in rows] for i in range(width)]
    return [_trim(column) for column in columns]


def values_get(
    view: SheetsView, spreadsheet_id: str, text: str, query: Mapping[str, list[str]]
) -> dict[str, Any]:
    _check_spreadsheet(view, spreadsheet_id)
    return _value_range(view, text, query)


def values_batch_get(
    view: SheetsView, spreadsheet_id: str, query: Mapping[str, list[str]]
) -> dict[str, Any]:
    _check_spreadsheet(view, spreadsheet_id)
    ranges = query.get("ranges") or []
    return {
        "spreadsheetId": spreadsheet_id,
        "valueRanges": [_value_range(view, text, query) for text in ranges],
    }


def cell_text(value: object, where: str) -> str:
    """A JSON cell value as the text Sheets would show for it."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    kind = "list_value" if isinstance(value, list) else "struct_value"
    raise bad_request(f"Invalid {where}: {kind}")


def values_append(
    view: SheetsView,
    spreadsheet_id: str,
    text: str,
    query: Mapping[str, list[str]],
    body: object,
) -> dict[str, Any]:
    _check_spreadsheet(view, spreadsheet_id)
    if not query.get("valueInputOption"):
        raise bad_request("'valueInputOption' is required but not specified")
    _choice(query, "valueInputOption", _INPUT_OPTIONS)
    _choice(query, "insertDataOption", _INSERT_OPTIONS)
    include_values = _flag(query, "includeValuesInResponse")
    sheet, parsed = _sheet_of(view, text)
    layout = view.layout
    if sheet == layout.confirmed_sheet:
        # A write to the confirmed register: what `update_row` would be in process (pilot §3).
        view.gateway.refuse(
            "sheets.update_row", {"route": "values.append", "range": text, "sheet": "confirmed"}
        )
    if parsed.first_col not in (None, 1):
        raise bad_request("the working sheet's table starts at column A")
    rows = _body_rows(body)
    payload = [_row_mapping(layout, row) for row in rows]
    appended = view.gateway.append_rows(payload)
    updates: dict[str, Any] = {"spreadsheetId": layout.spreadsheet_id}
    if appended:
        width = max(len(row) for row in rows)
        # Where the rows landed, as if the sheet held its header alone: the answer depends on
        # this request only, never on the rows earlier appends (or in-doubt ones) left (H3/F1).
        updates.update(
            {
                "updatedRange": format_range(sheet, 1, 2, max(width, 1), 1 + len(rows)),
                "updatedRows": len(rows),
                "updatedColumns": width,
                "updatedCells": sum(len(row) for row in rows),
            }
        )
        if include_values:
            updates["updatedData"] = {
                "range": updates["updatedRange"],
                "majorDimension": "ROWS",
                "values": rows,
            }
    columns = len(layout.importer_columns)
    return {
        "spreadsheetId": layout.spreadsheet_id,
        "tableRange": format_range(sheet, 1, 1, columns, 1),
        "updates": updates,
    }


def _body_rows(body: object) -> list[list[str]]:
    if not isinstance(body, dict):
        raise bad_request("Invalid JSON payload received: expected a ValueRange object")
    values = body.get("values", [])
    dimension = body.get("majorDimension", "ROWS")
    if dimension not in _DIMENSIONS:
        raise bad_request(f"Invalid value at 'data.major_dimension' ({dimension})")
    if not isinstance(values, list) or not all(isinstance(row, list) for row in values):
        raise bad_request("Invalid JSON payload received: values must be a list of lists")
    rows = [
        [cell_text(cell, f"values[{i}][{j}]") for j, cell in enumerate(row)]
        for i, row in enumerate(values)
    ]
    if dimension == "COLUMNS" and rows:
        width = max(len(column) for column in rows)
        rows = [[column[i] if i < len(column) else "" for column in rows] for i in range(width)]
    return rows


def _row_mapping(layout: SheetLayout, row: list[str]) -> dict[str, str]:
    """A sheet row as the gateway's row: importer columns in order, then the status column, then
    extra cells under their column letter (which the gateway refuses as wrong columns)."""
    mapping = dict.fromkeys(layout.importer_columns, "")
    names = [*layout.importer_columns, layout.status_column]
    for index, cell in enumerate(row):
        name = names[index] if index < len(names) else f"column_{index + 1}"
        mapping[name] = cell
    return mapping


def sheet_title(name: str) -> str:
    return quote_sheet(name)


__all__ = [
    "REGISTER_TITLE",
    "SheetLayout",
    "SheetsView",
    "cell_text",
    "spreadsheet_get",
    "values_append",
    "values_batch_get",
    "values_get",
]
