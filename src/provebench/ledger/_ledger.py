"""`Ledger`: the append-only, hash-chained external log in one SQLite file (pilot §6, §9, §15).

The writer is the laboratory process (the runner and its adapters record every call before they
answer it); an agent under test never gets a `Ledger` handle or a path it can write. Evaluators
open the file with `Ledger.open_readonly` or check it with `verify_ledger`.

Durability: WAL journal with `synchronous=FULL`, so a committed append survives a process kill
and a power cut; every append (or `append_many` batch) is one transaction, so a SIGKILL never
leaves half an entry. Concurrency: one writer at a time, any number of readers (WAL). Each
append reads the head inside its own write transaction, so even a second writer that ignores the
rule could not fork the chain: it would extend the head the first writer left.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from provebench._canonical import atomic_writer, fsync_directory
from provebench._errors import ProvebenchError
from provebench.ledger._anchor import Sign, anchored_payload
from provebench.ledger._entry import (
    GENESIS_HASH,
    LedgerEntry,
    check_kind,
    encode_payload,
    export_line,
    hash_text,
    hashed_text,
    trusted_entry,
)
from provebench.ledger._schema import (
    SQLITE_MAGIC,
    TRIGGER_NAMES,
    check_meta,
    create_schema,
    is_empty_database,
    looks_like_sqlite,
    trigger_names,
)

Synchronous = Literal["FULL", "NORMAL"]

_READ_CHUNK = 2048
_DECODER = json.JSONDecoder()
_SELECT_FROM = "SELECT seq, kind, payload, prev_hash, hash FROM entries"


class Ledger:
    """A handle on one ledger file. Use `Ledger.open` (writer) or `Ledger.open_readonly`."""

    def __init__(self, connection: sqlite3.Connection, path: Path, *, readonly: bool) -> None:
        self._connection = connection
        self.path = path
        self.readonly = readonly
        # The head this writer holds as its own (`hold_head`): (seq, hash, first entry's hash).
        # None: not held, every commit extends whatever head the file has.
        self._held: tuple[int, str, str | None] | None = None

    # -- opening and closing -------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, synchronous: Synchronous = "FULL") -> Ledger:
        """Open (creating if absent) a ledger for appending.

        `synchronous="NORMAL"` keeps every committed entry across a process crash but may lose
        the last transactions on a power cut or kernel crash; the default FULL loses nothing
        that was committed.
        """
        target = Path(path)
        if synchronous not in ("FULL", "NORMAL"):
            raise ProvebenchError(f"synchronous must be FULL or NORMAL, got {synchronous!r}")
        if not target.parent.is_dir():
            raise ProvebenchError("cannot create ledger: directory does not exist", path=target)
        created = not target.exists()
        if created:
            _create_empty(target)
        else:
            _refuse_non_sqlite(target)
        connection = _connect(target, uri=None)
        try:
            mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise ProvebenchError(f"cannot switch ledger to WAL mode (got {mode})", path=target)
            connection.execute(f"PRAGMA synchronous={synchronous}")
            connection.execute("PRAGMA busy_timeout=10000")
            if is_empty_database(connection):
                create_schema(connection)
            check_meta(connection, target)
            _refuse_tampered_for_writing(connection, target)
        except sqlite3.DatabaseError as error:
            connection.close()
            raise ProvebenchError(f"cannot open ledger: {error}", path=target) from error
        except BaseException:
            connection.close()
            raise
        if created:
            fsync_directory(target.parent)
        return cls(connection, target, readonly=False)

    @classmethod
    def open_readonly(cls, path: str | Path) -> Ledger:
        """Open an existing ledger read-only, as evaluators do; nothing is written beside it.

        Without a `-wal` file every committed entry is in the main file and no writer has it
        open, so it is opened `immutable=1`: no lock, no `-wal`/`-shm` created, which also works
        in a folder the reader cannot write (a copied or archived run). With a `-wal` file (a
        live writer, or one that stopped before its checkpoint) it is opened `mode=ro`, sharing
        the WAL index with the writer; if the folder is not writable that fails, and an empty
        `-wal` then falls back to `immutable=1` (it holds nothing) while a non-empty one is
        refused in one line: its entries cannot be read without writing the index."""
        target = Path(path)
        if not target.is_file():
            raise ProvebenchError("ledger not found", path=target)
        _refuse_non_sqlite(target)
        wal = target.with_name(f"{target.name}-wal")
        if not wal.exists():
            return cls._open_reader(target, immutable=True)
        try:
            return cls._open_reader(target, immutable=False)
        except _ReadOnlyFolderError as error:
            if _file_size(wal) == 0:
                return cls._open_reader(target, immutable=True)
            raise ProvebenchError(
                f"cannot read ledger: {wal.name} holds entries not yet in {target.name} and "
                "reading them needs a writable folder (copy both files to one)",
                path=target,
            ) from error

    @classmethod
    def from_bytes(cls, data: bytes, path: str | Path) -> Ledger:
        """A read-only ledger over `data`, the bytes of a ledger file as they were read once
        (`sqlite3.Connection.deserialize` into memory): what is verified and parsed is those
        bytes, never a file opened again by `path`, which only names it in errors (red team
        round 12, A2: a log renamed over the checked copy between two opens was judged).

        SQLite refuses to read a database whose header says WAL from memory, so bytes 18-19
        (the file format's write/read versions) are set to legacy in the copy handed to it; a
        caller hashes `data` itself, before this."""
        target = Path(path)
        if not data.startswith(SQLITE_MAGIC):
            raise ProvebenchError("not a provebench ledger (not an SQLite database)", path=target)
        image: bytes | bytearray = data
        if data[18:20] == b"\x02\x02":
            image = bytearray(data)  # one transient copy; SQLite copies what it is given
            image[18:20] = b"\x01\x01"
        connection = sqlite3.connect(":memory:", isolation_level=None)
        try:
            connection.deserialize(image)
            connection.execute("PRAGMA query_only=1")
            check_meta(connection, target)
        except sqlite3.DatabaseError as error:
            connection.close()
            raise ProvebenchError(f"cannot read ledger: {error}", path=target) from error
        except BaseException:
            connection.close()
            raise
        return cls(connection, target, readonly=True)

    @classmethod
    def _open_reader(cls, target: Path, *, immutable: bool) -> Ledger:
        flags = "mode=ro&immutable=1" if immutable else "mode=ro"
        connection = _connect(target, uri=f"{target.resolve().as_uri()}?{flags}")
        try:
            connection.execute("PRAGMA query_only=1")
            connection.execute("PRAGMA busy_timeout=10000")
            check_meta(connection, target)
        except sqlite3.DatabaseError as error:
            connection.close()
            if not immutable and _needs_write_access(error):
                raise _ReadOnlyFolderError(str(error)) from error
            raise ProvebenchError(f"cannot read ledger: {error}", path=target) from error
        except BaseException:
            connection.close()
            raise
        return cls(connection, target, readonly=True)

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- one read, and the head this writer holds -----------------------------------------------

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction: every read inside sees the same log (WAL snapshot isolation),
        whatever another connection commits meanwhile — what a resume verifies, decides and
        replays is one log, not three reads of a file (red team round 10, A1)."""
        connection = self._connection
        connection.execute("BEGIN")
        try:
            yield
        finally:
            if connection.in_transaction:
                connection.execute("COMMIT")

    def hold_head(self) -> tuple[int, str]:
        """Take the log's present head as this writer's own: from now on every commit is a
        compare-and-swap (`_commit` refuses unless the file's head is still the held one) and
        moves the held head to what it wrote. Called where the log was read and judged (a new
        run's empty log, a resume's verified one, inside `reading`); returns (seq, hash),
        (-1, GENESIS_HASH) for an empty log. docs/ledger.md, "The writer's head"."""
        seq, head_hash = self._head_link()
        self._held = (seq, head_hash, self._first_hash())
        return seq, head_hash

    @property
    def held_head(self) -> tuple[int, str] | None:
        """(seq, hash) of the last entry this writer committed (or held), None if not held."""
        return None if self._held is None else (self._held[0], self._held[1])

    # -- writing -------------------------------------------------------------------------------

    def append(self, kind: str, payload: Mapping[str, Any]) -> LedgerEntry:
        """Append one entry in its own transaction and return it as committed."""
        return self.append_many([(kind, payload)])[0]

    def append_many(self, items: Iterable[tuple[str, Mapping[str, Any]]]) -> list[LedgerEntry]:
        """Append entries in one transaction: all of them are committed, or none.

        Every payload is checked before the transaction starts, so a bad item leaves the log
        untouched and names the item's index. Returns the entries as committed, each with a
        detached copy of its payload.
        """
        prepared = self._prepare(items)
        entries: list[LedgerEntry] = []
        for seq, kind, text, prev_hash, entry_hash in self._commit(prepared):
            copy = _DECODER.raw_decode(text)[0]
            entries.append(trusted_entry(seq, kind, copy, prev_hash, entry_hash))
        return entries

    def append_batch(
        self, items: Iterable[tuple[str, Mapping[str, Any]]], *, anchor: Sign | None = None
    ) -> int:
        """`append_many` for a writer that does not need the entries back (the laboratory's
        per-cycle commit): the same checks, chain and single transaction, and each payload is
        encoded once instead of also being parsed back into a copy. Returns the count.

        With `anchor`, the batch's last entry carries a keyed anchor (`_anchor.py`) signed by
        `anchor` inside the same transaction, over the log's head before it, its position and
        its own content: the commit and its signature are one write."""
        return len(self._commit(self._prepare(items), anchor))

    def _prepare(self, items: Iterable[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, str]]:
        if self.readonly:
            raise ProvebenchError("ledger is open read-only; appends are refused", path=self.path)
        prepared: list[tuple[str, str]] = []
        for index, item in enumerate(items):
            try:
                kind, payload = item
                text = encode_payload(payload)
                prepared.append((check_kind(kind), text))
            except ProvebenchError as error:
                raise ProvebenchError(
                    f"item {index}: {error.message}", path=self.path, field=error.field
                ) from error
            except (TypeError, ValueError) as error:
                raise ProvebenchError(
                    f"item {index}: expected a (kind, payload) pair", path=self.path
                ) from error
        return prepared

    def _commit(
        self, prepared: list[tuple[str, str]], anchor: Sign | None = None
    ) -> list[tuple[int, str, str, str, str]]:
        """Insert checked (kind, payload text) pairs in one transaction; the rows written (the
        last one anchored when `anchor` is given)."""
        if not prepared:
            return []
        connection = self._connection
        rows: list[tuple[int, str, str, str, str]] = []
        try:
            connection.execute("BEGIN IMMEDIATE")
            seq, prev_hash = self._head_link()
            first = self._first_hash()
            if self._held is not None:
                self._refuse_foreign_head(seq, prev_hash)
                first = self._held[2]  # the run this writer extends, not what the file says
            for index, (kind, text) in enumerate(prepared):
                seq += 1
                if anchor is not None and index == len(prepared) - 1:
                    text = self._anchored_text(anchor, first, seq, prev_hash, kind, text)
                entry_hash = hash_text(hashed_text(seq, kind, text, prev_hash))
                rows.append((seq, kind, text, prev_hash, entry_hash))
                prev_hash = entry_hash
                if seq == 0:
                    first = entry_hash
            connection.executemany(
                "INSERT INTO entries (seq, kind, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            connection.execute("COMMIT")
            if self._held is not None:
                self._held = (rows[-1][0], rows[-1][4], first)
        except sqlite3.Error as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise ProvebenchError(f"append failed: {error}", path=self.path) from error
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
        return rows

    def _refuse_foreign_head(self, seq: int, head_hash: str) -> None:
        """The compare of the compare-and-swap: a file whose head is not the one this writer
        committed (or held) last was written by someone else; nothing is appended, and above
        all no anchor is signed over it (red team round 10, A1/A7)."""
        assert self._held is not None
        held_seq, held_hash, _ = self._held
        if (seq, head_hash) != (held_seq, held_hash):
            raise ProvebenchError(
                f"refusing to append: the log's head is seq {seq}, not the entry this writer "
                f"committed last (seq {held_seq}{', another entry' if seq == held_seq else ''}): "
                "someone else wrote to the log; nothing is appended or signed",
                path=self.path,
            )

    def _anchored_text(
        self, anchor: Sign, first: str | None, seq: int, prev_hash: str, kind: str, text: str
    ) -> str:
        try:
            payload = anchored_payload(
                anchor,
                run=None if seq == 0 else first,
                length=seq,
                prev_hash=prev_hash,
                kind=kind,
                payload_text=text,
            )
        except ValueError as error:
            raise ProvebenchError(f"cannot anchor: {error}", path=self.path) from error
        return encode_payload(payload)

    def _first_hash(self) -> str | None:
        row = self._connection.execute("SELECT hash FROM entries WHERE seq = 0").fetchone()
        return None if row is None else str(row[0])

    def _head_link(self) -> tuple[int, str]:
        row = self._connection.execute(
            "SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return -1, GENESIS_HASH
        return int(row[0]), str(row[1])

    # -- reading -------------------------------------------------------------------------------

    def head(self) -> LedgerEntry | None:
        """The last committed entry, or None for an empty ledger."""
        row = self._connection.execute(f"{_SELECT_FROM} ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None else _entry_from_row(row, self.path)

    def entries(self, start_seq: int = 0) -> Iterator[LedgerEntry]:
        """Stream entries in seq order from `start_seq`, a chunk of rows at a time."""
        for row in self._rows(start_seq, None):
            yield _entry_from_row(row, self.path)

    def payload_texts(self, start_seq: int = 0) -> Iterator[tuple[int, str, str]]:
        """Stream (seq, kind, payload text) in seq order, unparsed, for a reader that parses
        only the payloads it needs (the text is the canonical JSON the entry's hash covers)."""
        for row in self._rows(start_seq, None):
            yield row[0], row[1], row[2]

    def linked_rows(self, start_seq: int = 0) -> Iterator[tuple[int, str, str, str, str]]:
        """Stream (seq, kind, payload text, prev_hash, hash) in seq order, unparsed: what
        `check_anchors` reads."""
        for row in self._rows(start_seq, None):
            yield row[0], row[1], row[2], row[3], row[4]

    def held_rows(self) -> Iterator[tuple[int, str, str, str, str]]:
        """`linked_rows` of the log this writer holds: each row's hash recomputed from its
        content and linked to the one before, from seq 0 to exactly the held head. A row that
        does not hash or link, or a log that ends anywhere else, raises one line — after the
        rows before it were yielded, so a reader acts on what it read only once the iteration
        ends (the laboratory's publish: red team round 10, A1). Read inside `reading`, the
        rows are one snapshot; a chain recomputed to the held hash is the committed log."""
        if self._held is None:
            raise ProvebenchError("this ledger handle holds no head to read up to", path=self.path)
        held_seq, held_hash, _ = self._held
        expected_seq, prev = 0, GENESIS_HASH
        for seq, kind, text, prev_hash, entry_hash in self._all_rows():
            if (
                seq != expected_seq
                or seq > held_seq
                or prev_hash != prev
                or hash_text(hashed_text(seq, kind, text, prev_hash)) != entry_hash
            ):
                raise self._not_held(f"the first entry that does not chain is seq {seq}")
            yield seq, kind, text, prev_hash, entry_hash
            expected_seq, prev = seq + 1, entry_hash
        if expected_seq - 1 != held_seq:
            raise self._not_held(f"it ends at seq {expected_seq - 1}")
        if prev != held_hash:
            raise self._not_held("it is another chain of the same length")

    def chained_entries(self, broken: list[int] | None = None) -> Iterator[LedgerEntry]:
        """Every stored entry in seq order, parsed in the same pass that recomputes its hash from
        its content and the hash computed for the entry before (never the `prev_hash` column)
        and compares it with the stored one: what is parsed is what was re-hashed (red team
        round 12, A2/A4: payloads edited in place, the hash columns kept, were parsed as the
        verified log).

        A row whose seq is not the next one, or whose hash does not recompute and link, raises
        one line — or, with `broken`, has its seq added there and is still yielded, for an
        evaluator that reports on a log it refuses (`verify_ledger` names what is wrong)."""
        expected_seq, prev = 0, GENESIS_HASH
        try:
            rows = list(self._all_rows())
        except sqlite3.DatabaseError as error:
            raise ProvebenchError(f"cannot read ledger entries: {error}", path=self.path) from error
        for row in rows:
            seq, kind, text, _, entry_hash = row
            entry = _entry_from_row(row, self.path)
            recomputed = (
                hash_text(hashed_text(seq, kind, text, prev))
                if type(seq) is int and type(kind) is str and type(text) is str
                else None
            )
            if seq != expected_seq or recomputed != entry_hash or entry.prev_hash != prev:
                if broken is None:
                    raise ProvebenchError(
                        f"seq {seq}: the entry does not hash to its stored hash or does not "
                        "link to the entry before it (run `provebench log verify`)",
                        path=self.path,
                    )
                broken.append(seq if type(seq) is int else expected_seq)
            yield entry
            expected_seq = (seq if type(seq) is int else expected_seq) + 1
            prev = recomputed if recomputed is not None else str(entry_hash)

    def _not_held(self, said: str) -> ProvebenchError:
        assert self._held is not None
        return ProvebenchError(
            "the log is not the one this writer committed: it does not chain from seq 0 to "
            f"the entry committed last (seq {self._held[0]}): {said}; someone else wrote to it",
            path=self.path,
        )

    def __len__(self) -> int:
        row = self._connection.execute("SELECT COALESCE(MAX(seq) + 1, 0) FROM entries").fetchone()
        return int(row[0])

    def _rows(self, start_seq: int, stop_seq: int | None) -> Iterator[tuple[Any, ...]]:
        """Rows with start_seq <= seq (< stop_seq), by short queries so no cursor stays open."""
        next_seq = start_seq
        while True:
            rows = self._connection.execute(
                f"{_SELECT_FROM} WHERE seq >= ? AND seq < ? ORDER BY seq LIMIT ?",
                (next_seq, (1 << 62) if stop_seq is None else stop_seq, _READ_CHUNK),
            ).fetchall()
            if not rows:
                return
            yield from rows
            next_seq = int(rows[-1][0]) + 1

    def _all_rows(self) -> Iterator[tuple[Any, ...]]:
        """Every stored row in seq order, whatever its seq (for verification: nothing hides
        outside a range)."""
        rows = self._connection.execute(
            f"{_SELECT_FROM} ORDER BY seq LIMIT ?", (_READ_CHUNK,)
        ).fetchall()
        while rows:
            yield from rows
            rows = self._connection.execute(
                f"{_SELECT_FROM} WHERE seq > ? ORDER BY seq LIMIT ?", (rows[-1][0], _READ_CHUNK)
            ).fetchall()

    def export_jsonl(self, path: str | Path) -> int:
        """Write the log as canonical JSONL (one entry a line), atomically; return the count.

        The export is a snapshot up to the head at the time of the call. The rows are written as
        stored; `verify_ledger` on the export checks the same chain as on the SQLite file.
        """
        target = Path(path)
        stop_seq = len(self)
        count = 0
        with atomic_writer(target) as handle:
            for seq, kind, text, prev_hash, entry_hash in self._rows(0, stop_seq):
                line = export_line(entry_hash, hashed_text(seq, kind, text, prev_hash))
                handle.write(line + "\n")
                count += 1
        return count


def _entry_from_row(row: tuple[Any, ...], path: Path) -> LedgerEntry:
    seq, kind, text, prev_hash, entry_hash = row
    try:
        payload = json.loads(text)
    except (TypeError, ValueError):
        payload = None
    if type(payload) is not dict:
        raise ProvebenchError(
            f"seq {seq}: stored payload is not a JSON object (run `provebench log verify`)",
            path=path,
        )
    return LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash=prev_hash, hash=entry_hash)


def _refuse_tampered_for_writing(connection: sqlite3.Connection, path: Path) -> None:
    """The writer stops on a log someone else has written to (pilot §15): missing append-only
    triggers, or a head entry that does not hash to its stored hash. A full check is
    `verify_ledger`; this one costs one row."""
    missing = [name for name in TRIGGER_NAMES if name not in trigger_names(connection)]
    if missing:
        raise ProvebenchError(
            f"refusing to append: append-only trigger(s) {', '.join(missing)} were removed "
            "(run `provebench log verify`)",
            path=path,
        )
    row = connection.execute(f"{_SELECT_FROM} ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return
    seq, kind, text, prev_hash, entry_hash = row
    intact = (
        isinstance(seq, int)
        and isinstance(kind, str)
        and isinstance(text, str)
        and isinstance(prev_hash, str)
        and hash_text(hashed_text(seq, kind, text, prev_hash)) == entry_hash
    )
    if not intact:
        raise ProvebenchError(
            f"refusing to append: the head entry (seq {seq}) does not match its hash "
            "(run `provebench log verify`)",
            path=path,
        )


def _create_empty(path: Path) -> None:
    """Create the ledger's file empty, with the mode the user's umask gives a new file (as
    every file a user hands on takes it), before SQLite opens it: SQLite creates a missing
    database with its default permissions, 0644, less the umask: never group-writable, where
    a umask of 002 asks for it. An empty file is a new database to SQLite; its WAL and shared-memory
    files take this file's mode. A file made meanwhile by another process is not taken."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    except FileExistsError as error:
        raise ProvebenchError(
            "cannot create ledger: the file appeared meanwhile", path=path
        ) from error
    except OSError as error:
        raise ProvebenchError(f"cannot create ledger: {error.strerror}", path=path) from error
    os.close(descriptor)


def _connect(path: Path, *, uri: str | None) -> sqlite3.Connection:
    try:
        if uri is None:
            return sqlite3.connect(path, isolation_level=None)
        return sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as error:
        raise ProvebenchError(f"cannot open ledger: {error}", path=path) from error


class _ReadOnlyFolderError(Exception):
    """A `mode=ro` WAL reader could not create or write the `-shm` index beside the ledger."""


def _needs_write_access(error: sqlite3.DatabaseError) -> bool:
    name = str(getattr(error, "sqlite_errorname", ""))
    return name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN"))


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError as error:
        raise ProvebenchError(f"cannot read ledger: {error.strerror}", path=path) from error


def _refuse_non_sqlite(path: Path) -> None:
    try:
        if path.stat().st_size and not looks_like_sqlite(path):
            raise ProvebenchError("not a provebench ledger (not an SQLite database)", path=path)
    except OSError as error:
        raise ProvebenchError(f"cannot read ledger: {error.strerror}", path=path) from error


__all__ = ["Ledger", "Synchronous"]
