"""The SQLite file format of the ledger: tables, the triggers that make it append-only, meta.

The triggers are a guard against accidents and against anyone who writes through SQL without
first changing the schema. They are not the security boundary: whoever can write the file can
drop them. What cannot be done undetected is described in docs/ledger.md (pilot §7, §15).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.ledger._entry import FORMAT_NAME, FORMAT_VERSION, GENESIS_HASH

SQLITE_MAGIC = b"SQLite format 3\x00"

# Trigger names are checked by `verify`: a missing trigger means the schema was changed.
TRIGGER_NAMES = (
    "entries_append_only",
    "entries_no_update",
    "entries_no_delete",
    "meta_no_insert",
    "meta_no_update",
    "meta_no_delete",
)

_CREATE_TABLES = f"""
CREATE TABLE meta (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) STRICT;
INSERT INTO meta (key, value) VALUES
    ('format', '{FORMAT_NAME}'),
    ('version', '{FORMAT_VERSION}'),
    ('hash', 'sha256'),
    ('genesis', '{GENESIS_HASH}');
CREATE TABLE entries (
    seq INTEGER PRIMARY KEY NOT NULL CHECK (seq >= 0),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    prev_hash TEXT NOT NULL CHECK (length(prev_hash) = 64),
    hash TEXT NOT NULL CHECK (length(hash) = 64)
) STRICT;
CREATE TRIGGER entries_append_only BEFORE INSERT ON entries
WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq) + 1, 0) FROM entries)
  OR NEW.prev_hash IS NOT COALESCE(
        (SELECT hash FROM entries ORDER BY seq DESC LIMIT 1), '{GENESIS_HASH}')
BEGIN
    SELECT RAISE(ABORT, 'provebench ledger: append must extend the head (seq, prev_hash)');
END;
CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN
    SELECT RAISE(ABORT, 'provebench ledger: entries are immutable (UPDATE refused)');
END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN
    SELECT RAISE(ABORT, 'provebench ledger: entries are immutable (DELETE refused)');
END;
CREATE TRIGGER meta_no_insert BEFORE INSERT ON meta
BEGIN
    SELECT RAISE(ABORT, 'provebench ledger: meta is immutable (INSERT refused)');
END;
CREATE TRIGGER meta_no_update BEFORE UPDATE ON meta
BEGIN
    SELECT RAISE(ABORT, 'provebench ledger: meta is immutable (UPDATE refused)');
END;
CREATE TRIGGER meta_no_delete BEFORE DELETE ON meta
BEGIN
    SELECT RAISE(ABORT, 'provebench ledger: meta is immutable (DELETE refused)');
END;
"""


def create_schema(connection: sqlite3.Connection) -> None:
    """Create tables, meta rows and triggers in one transaction (all or nothing)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        if _table_names(connection):
            connection.execute("ROLLBACK")
            return
        for statement in _statements(_CREATE_TABLES):
            connection.execute(statement)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """Split the schema script; trigger bodies contain ';' so split on the trigger END only."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        in_trigger = text.startswith("CREATE TRIGGER")
        if (in_trigger and line.strip() == "END;") or (not in_trigger and line.endswith(";")):
            statements.append(text)
            current = []
    return statements


def _table_names(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(row[0]) for row in rows}


def trigger_names(connection: sqlite3.Connection) -> set[str]:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    return {str(row[0]) for row in rows}


def is_empty_database(connection: sqlite3.Connection) -> bool:
    return not _table_names(connection)


def check_meta(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a file that is not a provebench ledger of a known version, in one line."""
    tables = _table_names(connection)
    if "meta" not in tables or "entries" not in tables:
        raise ProvebenchError(
            "not a provebench ledger (an SQLite database without the ledger's meta and "
            "entries tables)",
            path=path,
        )
    try:
        rows = connection.execute("SELECT key, value FROM meta").fetchall()
    except sqlite3.DatabaseError as error:
        raise ProvebenchError(f"unreadable ledger meta table: {error}", path=path) from error
    meta = {str(key): value for key, value in rows}
    if meta.get("format") != FORMAT_NAME:
        raise ProvebenchError(
            f"not a provebench ledger: meta format is {meta.get('format')!r}, "
            f"expected {FORMAT_NAME!r}",
            path=path,
            field="meta.format",
        )
    if meta.get("version") != str(FORMAT_VERSION):
        raise ProvebenchError(
            f"unsupported ledger version {meta.get('version')!r}: this provebench reads "
            f"version {FORMAT_VERSION}",
            path=path,
            field="meta.version",
        )
    if meta.get("hash") != "sha256" or meta.get("genesis") != GENESIS_HASH:
        raise ProvebenchError(
            "ledger meta does not match format version 1 (hash algorithm or genesis hash)",
            path=path,
            field="meta",
        )


def looks_like_sqlite(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC


__all__ = [
    "SQLITE_MAGIC",
    "TRIGGER_NAMES",
    "check_meta",
    "create_schema",
    "is_empty_database",
    "looks_like_sqlite",
    "trigger_names",
]
