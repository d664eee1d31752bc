"""A1 notation as the Sheets v4 API reads it: `'Working sheet'!A1:I`, `Confirmed`, `A2:H`, `A:I`.

A range is an optional sheet name (quoted with `'`, a quote inside doubled) followed by `!` and a
cell part; without `!` the text is a cell part if it parses as one, else a sheet name (a cell part
alone refers to the first sheet, as in Sheets). Bounds are 1-based; None means unbounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CELLS = re.compile(r"([A-Za-z]{1,3})?([0-9]{1,7})?(?::([A-Za-z]{1,3})?([0-9]{1,7})?)?")
_BARE_SHEET = re.compile(r"[A-Za-z0-9_]+")


@dataclass(frozen=True, slots=True)
class A1Range:
    sheet: str | None
    first_col: int | None
    first_row: int | None
    last_col: int | None
    last_row: int | None


def column_number(letters: str) -> int:
    number = 0
    for char in letters.upper():
        number = number * 26 + (ord(char) - ord("A") + 1)
    return number


def column_letters(number: int) -> str:
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def quote_sheet(name: str) -> str:
    """A sheet name as Sheets writes it in a range: bare when plain, else quoted."""
    if _BARE_SHEET.fullmatch(name) and not _CELLS.fullmatch(name):
        return name
    return "'" + name.replace("'", "''") + "'"


def format_range(sheet: str, first_col: int, first_row: int, last_col: int, last_row: int) -> str:
    start = f"{column_letters(first_col)}{first_row}"
    end = f"{column_letters(last_col)}{last_row}"
    return f"{quote_sheet(sheet)}!{start}:{end}"


def _cells(text: str) -> tuple[int | None, int | None, int | None, int | None] | None:
    match = _CELLS.fullmatch(text)
    if match is None or not text:
        return None
    col1, row1, col2, row2 = match.groups()
    if col1 is None and row1 is None:
        return None
    if ":" in text and col2 is None and row2 is None:
        return None
    first_col = column_number(col1) if col1 else None
    first_row = int(row1) if row1 else None
    if ":" not in text:  # a single cell: A1 (or a whole column/row, as Sheets allows)
        return first_col, first_row, first_col, first_row
    last_col = column_number(col2) if col2 else None
    last_row = int(row2) if row2 else None
    if first_row == 0 or last_row == 0:
        return None
    return first_col, first_row, last_col, last_row


def parse_a1(text: str) -> A1Range:
    """Parse a range; `ValueError` names the range when it cannot be read."""
    sheet: str | None
    if text.startswith("'"):
        index, chars = 1, []
        while True:
            if index >= len(text):
                raise ValueError(f"Unable to parse range: {text}")
            char = text[index]
            if char == "'":
                if text[index + 1 : index + 2] == "'":
                    chars.append("'")
                    index += 2
                    continue
                break
            chars.append(char)
            index += 1
        sheet, rest = "".join(chars), text[index + 1 :]
        if not rest:
            return A1Range(sheet, None, None, None, None)
        if not rest.startswith("!"):
            raise ValueError(f"Unable to parse range: {text}")
        cells = rest[1:]
    elif "!" in text:
        sheet, _, cells = text.partition("!")
        if not sheet:
            raise ValueError(f"Unable to parse range: {text}")
    else:
        parsed = _cells(text)
        if parsed is not None:
            return A1Range(None, *parsed)
        if not text:
            raise ValueError("Unable to parse range: ")
        return A1Range(text, None, None, None, None)
    if not cells:
        return A1Range(sheet, None, None, None, None)
    parsed = _cells(cells)
    if parsed is None:
        raise ValueError(f"Unable to parse range: {text}")
    return A1Range(sheet, *parsed)


__all__ = ["A1Range", "column_letters", "column_number", "format_range", "parse_a1", "quote_sheet"]
