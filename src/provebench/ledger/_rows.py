"""Reading entries back for verification, from the SQLite file or a JSONL export.

Each stored row becomes a `CheckedRow`: its fields as found, whether its content (kind, payload,
prev_hash, seq) hashes to its stored hash, and a problem text when it is malformed or not in the
canonical encoding. Nothing here trusts the file: every field is type-checked.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench.ledger._entry import (
    encode_canonical,
    export_line,
    hash_text,
    hashed_text,
    is_hash_hex,
)
from provebench.ledger._ledger import Ledger
from provebench.ledger._schema import TRIGGER_NAMES, trigger_names

# Seq numbers are kept in 64-bit arrays during verification; anything larger is malformed.
MAX_SEQ = 2**62
_EXPORT_KEYS = frozenset({"hash", "kind", "payload", "prev_hash", "seq"})


@dataclass(slots=True)
class CheckedRow:
    line: int | None  # 1-based line of a JSONL export; None for SQLite rows
    seq: int | None  # None when the row has no usable seq
    kind: str | None
    payload_text: str | None  # canonical payload JSON, when the payload is a JSON object
    prev_hash: str | None
    hash: str | None
    content_ok: bool  # the fields hash to the stored hash
    problem: str | None  # malformed / non-canonical / hash mismatch, as found
    problem_kind: str | None  # "malformed" or "edited"
    recomputed: str | None = None


def check_fields(
    line: int | None, seq: Any, kind: Any, payload: Any, prev_hash: Any, entry_hash: Any
) -> CheckedRow:
    """Type-check one entry's fields and recompute its hash."""
    usable = isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= MAX_SEQ
    usable_seq = seq if usable else None
    row = CheckedRow(line, usable_seq, None, None, None, None, False, None, "malformed")
    if usable_seq is None:
        row.problem = f"seq must be an integer in 0..2**62, found {_short(seq)}"
        return row
    if not isinstance(kind, str):
        row.problem = f"kind must be a string, found {_short(kind)}"
        return row
    if not isinstance(payload, dict):
        row.problem = f"payload must be a JSON object, found {_short(payload)}"
        return row
    if not is_hash_hex(prev_hash) or not is_hash_hex(entry_hash):
        row.problem = "prev_hash and hash must be 64 lowercase hex digits"
        return row
    try:
        payload_text = encode_canonical(payload)
    except (ValueError, RecursionError) as error:
        row.problem = f"payload is not plain JSON: {error}"
        return row
    row.kind, row.payload_text, row.prev_hash, row.hash = kind, payload_text, prev_hash, entry_hash
    row.recomputed = hash_text(hashed_text(usable_seq, kind, payload_text, prev_hash))
    if row.recomputed != entry_hash:
        row.problem_kind = "edited"
        row.problem = "content does not match its hash (entry edited or forged)"
        return row
    row.content_ok = True
    row.problem = row.problem_kind = None
    return row


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- SQLite ------------------------------------------------------------------------------------


def sqlite_missing_triggers(path: Path) -> list[str]:
    with Ledger.open_readonly(path) as ledger:
        return ledger_missing_triggers(ledger)


def ledger_missing_triggers(ledger: Ledger) -> list[str]:
    present = trigger_names(ledger._connection)
    return [name for name in TRIGGER_NAMES if name not in present]


def sqlite_rows(path: Path) -> Iterator[CheckedRow]:
    """Rows in seq order. A stored payload must be exactly its canonical JSON text."""
    with Ledger.open_readonly(path) as ledger:
        yield from ledger_rows(ledger)


def ledger_rows(ledger: Ledger) -> Iterator[CheckedRow]:
    """`sqlite_rows` of an open ledger (one held in memory: `Ledger.from_bytes`)."""
    try:
        for seq, kind, text, prev_hash, entry_hash in ledger._all_rows():
            yield _sqlite_row(seq, kind, text, prev_hash, entry_hash)
    except sqlite3.DatabaseError as error:
        raise ProvebenchError(f"cannot read ledger entries: {error}", path=ledger.path) from error


def _sqlite_row(seq: Any, kind: Any, text: Any, prev_hash: Any, entry_hash: Any) -> CheckedRow:
    intact = _intact_sqlite_row(seq, kind, text, prev_hash, entry_hash)
    if intact is not None:
        return intact
    if not isinstance(text, str):
        return check_fields(None, seq, kind, text, prev_hash, entry_hash)
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError):
        row = check_fields(None, seq, kind, {}, prev_hash, entry_hash)
        row.content_ok, row.problem_kind = False, "malformed"
        row.problem = "stored payload is not JSON"
        return row
    row = check_fields(None, seq, kind, payload, prev_hash, entry_hash)
    if row.content_ok and row.payload_text != text:
        row.problem_kind = "edited"
        row.problem = "stored payload is not in canonical JSON form"
    return row


def _intact_sqlite_row(
    seq: Any, kind: Any, text: Any, prev_hash: Any, entry_hash: Any
) -> CheckedRow | None:
    """The common case, checked with fewer steps: exact types, stored text hashes to the stored
    hash, and the text is the canonical encoding of what it parses to. Anything else (None)
    goes through `check_fields`, which names the problem."""
    if not (
        type(seq) is int
        and 0 <= seq <= MAX_SEQ
        and type(kind) is str
        and type(text) is str
        and type(prev_hash) is str
        and type(entry_hash) is str
    ):
        return None
    recomputed = hash_text(hashed_text(seq, kind, text, prev_hash))
    if recomputed != entry_hash or not is_hash_hex(prev_hash):
        return None
    try:
        payload = json.loads(text)
        canonical = type(payload) is dict and encode_canonical(payload) == text
    except (ValueError, RecursionError):
        return None
    if not canonical:
        return None
    return CheckedRow(None, seq, kind, text, prev_hash, entry_hash, True, None, None, recomputed)


def _intact_jsonl_row(number: int, text: str, value: dict[str, Any]) -> CheckedRow | None:
    """The common case for a line (see `_intact_sqlite_row`); None means "check in full"."""
    seq, kind, payload = value["seq"], value["kind"], value["payload"]
    prev_hash, entry_hash = value["prev_hash"], value["hash"]
    if not (
        type(seq) is int
        and 0 <= seq <= MAX_SEQ
        and type(kind) is str
        and type(payload) is dict
        and type(prev_hash) is str
        and type(entry_hash) is str
    ):
        return None
    try:
        payload_text = encode_canonical(payload)
    except (ValueError, RecursionError):
        return None
    hashed = hashed_text(seq, kind, payload_text, prev_hash)
    if export_line(entry_hash, hashed) != text or not is_hash_hex(prev_hash):
        return None
    recomputed = hash_text(hashed)
    if recomputed != entry_hash:
        return None
    return CheckedRow(
        number, seq, kind, payload_text, prev_hash, entry_hash, True, None, None, recomputed
    )


# -- JSONL -------------------------------------------------------------------------------------


def jsonl_rows(path: Path) -> Iterator[CheckedRow]:
    """Lines of an export. A line must be exactly the canonical encoding of its entry."""
    try:
        handle = path.open("rb")
    except OSError as error:
        raise ProvebenchError(f"cannot read ledger export: {error.strerror}", path=path) from error
    with handle:
        yield from jsonl_lines(handle, path)


def jsonl_lines(handle: Iterable[bytes], path: Path) -> Iterator[CheckedRow]:
    """`jsonl_rows` of lines already open (an export's bytes held in memory)."""
    for number, raw in enumerate(handle, start=1):
        yield _jsonl_row(path, number, raw)


def _jsonl_row(path: Path, number: int, raw: bytes) -> CheckedRow:
    def malformed(message: str, seq: Any = None) -> CheckedRow:
        row = check_fields(number, seq, None, None, None, None)
        row.problem, row.problem_kind, row.content_ok = message, "malformed", False
        return row

    has_newline = raw.endswith(b"\n")
    body = raw[:-1] if has_newline else raw
    try:
        text = body.decode("utf-8")
        value = json.loads(text)
    except (ValueError, RecursionError):
        if number == 1:
            raise ProvebenchError(
                "not a provebench ledger export (line 1 is not a JSON entry)", path=path, line=1
            ) from None
        return malformed("line is not valid UTF-8 JSON")
    if not isinstance(value, dict) or set(value) != _EXPORT_KEYS:
        if number == 1:
            raise ProvebenchError(
                "not a provebench ledger export (line 1 does not have the fields "
                "hash, kind, payload, prev_hash, seq)",
                path=path,
                line=1,
            )
        seq = value.get("seq") if isinstance(value, dict) else None
        return malformed("line is not a ledger entry (wrong fields)", seq)
    if has_newline:
        intact = _intact_jsonl_row(number, text, value)
        if intact is not None:
            return intact
    row = check_fields(
        number, value["seq"], value["kind"], value["payload"], value["prev_hash"], value["hash"]
    )
    if not row.content_ok:
        return row
    assert row.seq is not None and row.kind is not None and row.payload_text is not None
    assert row.prev_hash is not None and row.hash is not None
    canonical = export_line(
        row.hash, hashed_text(row.seq, row.kind, row.payload_text, row.prev_hash)
    )
    if canonical != text:
        row.problem_kind = "edited"
        row.problem = "line is not in canonical form (bytes changed without changing the content)"
    elif not has_newline:
        row.problem_kind = "malformed"
        row.problem = "last line has no newline (export cut short?)"
    return row


__all__ = [
    "CheckedRow",
    "check_fields",
    "jsonl_lines",
    "jsonl_rows",
    "ledger_missing_triggers",
    "ledger_rows",
    "sqlite_missing_triggers",
    "sqlite_rows",
]
