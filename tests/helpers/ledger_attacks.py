"""Attacks on a ledger file, done the way an attacker with file-system write access would.

SQLite: open the file with plain `sqlite3`, drop the append-only triggers, then UPDATE, DELETE or
INSERT. JSONL export: edit lines as text, drop, duplicate, swap or cut them. Nothing here goes
through the `Ledger` API, which would refuse.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from provebench._canonical import compact_json

ENTRY_TRIGGERS = ("entries_append_only", "entries_no_update", "entries_no_delete")


def sql(
    path: Path,
    *statements: str,
    params: tuple[object, ...] = (),
    restore_triggers: bool = False,
) -> None:
    """Run statements on the raw file after dropping the triggers that would refuse them.

    With `restore_triggers`, the attacker puts the original triggers back afterwards, so the
    schema looks untouched and only the chain can tell.
    """
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        saved = connection.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'entries'"
        ).fetchall()
        for name in ENTRY_TRIGGERS:
            connection.execute(f"DROP TRIGGER IF EXISTS {name}")
        for statement in statements:
            connection.execute(statement, params if "?" in statement else ())
        if restore_triggers:
            for (trigger_sql,) in saved:
                connection.execute(trigger_sql)
    finally:
        connection.close()


def row(path: Path, seq: int) -> dict[str, object]:
    connection = sqlite3.connect(path)
    try:
        found = connection.execute(
            "SELECT seq, kind, payload, prev_hash, hash FROM entries WHERE seq = ?", (seq,)
        ).fetchone()
    finally:
        connection.close()
    seq_value, kind, payload, prev_hash, entry_hash = found
    return {
        "seq": seq_value,
        "kind": kind,
        "payload": json.loads(payload),
        "prev_hash": prev_hash,
        "hash": entry_hash,
    }


def forged_hash(seq: int, kind: str, payload: dict[str, object], prev_hash: str) -> str:
    """What an attacker who read docs/ledger.md computes to make a forged entry self-consistent."""
    document = {"seq": seq, "kind": kind, "payload": payload, "prev_hash": prev_hash}
    return hashlib.sha256(compact_json(document).encode("utf-8")).hexdigest()


def forged_line(seq: int, kind: str, payload: dict[str, object], prev_hash: str) -> str:
    entry = {"seq": seq, "kind": kind, "payload": payload, "prev_hash": prev_hash}
    return compact_json({**entry, "hash": forged_hash(seq, kind, payload, prev_hash)})


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write_lines(path: Path, new_lines: list[str]) -> None:
    path.write_text("".join(f"{line}\n" for line in new_lines), encoding="utf-8")


__all__ = ["forged_hash", "forged_line", "lines", "row", "sql", "write_lines"]
