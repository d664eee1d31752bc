"""Mapping table `manager-mapping/1`: manager code → manager name (pilot §4).

The table ships as `data/manager_mapping_v1.csv` (UTF-8, header `manager_code,manager_name`);
its sha256 is written into every corpus. Rule for codes the table does not list: a name with a
well-formed but unknown manager code is still admissible — the call happened — and its register
row carries the code as written and the manager name `UNMAPPED_MANAGER_NAME`. Leaving the row out
would lose a real call; guessing a name would invent data.

The loader refuses a table that could not be written safely into the register: duplicate or
malformed codes, empty names, names with control characters, or names starting with a character a
spreadsheet reads as a formula (see `_rows.py`).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from functools import lru_cache
from importlib import resources

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError

MAPPING_TABLE_RESOURCE = "data/manager_mapping_v1.csv"
UNMAPPED_MANAGER_NAME = "(unmapped)"
_CODE = re.compile(r"M[0-9]{3}", re.ASCII)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def mapping_table_bytes() -> bytes:
    return resources.files("provebench.pilot.rules").joinpath(MAPPING_TABLE_RESOURCE).read_bytes()


def mapping_table_sha256() -> str:
    return sha256_bytes(mapping_table_bytes())


@lru_cache(maxsize=1)
def manager_mapping() -> dict[str, str]:
    """The shipped table, checked, as {manager_code: manager_name} in file order."""
    return parse_mapping_table(mapping_table_bytes(), source=MAPPING_TABLE_RESOURCE)


def parse_mapping_table(data: bytes, *, source: str) -> dict[str, str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProvebenchError(f"not UTF-8: {error}", path=source) from error
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header != ["manager_code", "manager_name"]:
        raise ProvebenchError("header must be manager_code,manager_name", path=source, line=1)
    table: dict[str, str] = {}
    for record in reader:
        line = reader.line_num
        if len(record) != 2:
            raise ProvebenchError("expected 2 columns", path=source, line=line)
        code, name = record
        if not _CODE.fullmatch(code):
            raise ProvebenchError(f"malformed code {code!r}", path=source, line=line, field="code")
        if code in table:
            raise ProvebenchError(f"duplicate code {code}", path=source, line=line, field="code")
        unsafe = not name or name.startswith(_FORMULA_START) or name == UNMAPPED_MANAGER_NAME
        if unsafe or any(unicodedata.category(ch) == "Cc" for ch in name):
            raise ProvebenchError(
                "manager name is empty, reserved, a formula or has control characters",
                path=source,
                line=line,
                field="manager_name",
            )
        table[code] = name
    if not table:
        raise ProvebenchError("the mapping table is empty", path=source)
    return table


def manager_name_for(code: str) -> str:
    """The mapped name of `code`, or `UNMAPPED_MANAGER_NAME`."""
    return manager_mapping().get(code, UNMAPPED_MANAGER_NAME)


__all__ = [
    "UNMAPPED_MANAGER_NAME",
    "manager_mapping",
    "manager_name_for",
    "mapping_table_bytes",
    "mapping_table_sha256",
    "parse_mapping_table",
]
