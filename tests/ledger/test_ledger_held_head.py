"""The writer's head (docs/ledger.md, "Who writes, who reads"): a writer that holds its head
commits only as a compare-and-swap against it and reads back only a log that chains to it —
entries someone else writes through SQLite are never extended, anchored or read as its own."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.ledger import GENESIS_HASH, Ledger


def _foreign_append(path: Path, seq: int, entry_hash: str) -> None:
    """Another writer, beside the holder: one row written straight through SQLite."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute(
            "INSERT INTO entries (seq, kind, payload, prev_hash, hash) VALUES (?, 'x', '{}', ?, ?)",
            (seq, entry_hash, "f" * 64),
        )
    finally:
        connection.close()


def test_a_held_writer_commits_and_reads_back_its_own_log(tmp_path: Path) -> None:
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        assert ledger.held_head is None
        assert ledger.hold_head() == (-1, GENESIS_HASH)
        entries = ledger.append_many([("a", {"i": 1}), ("b", {"i": 2})])
        assert ledger.held_head == (1, entries[-1].hash)
        with ledger.reading():
            assert [row[4] for row in ledger.held_rows()] == [e.hash for e in entries]


def test_a_commit_over_a_head_someone_else_wrote_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Ledger.open(path) as ledger:
        ledger.hold_head()
        [entry] = ledger.append_many([("a", {"i": 1})])
        _foreign_append(path, 1, entry.hash)
        with pytest.raises(ProvebenchError) as refused:
            ledger.append("b", {"i": 2})
        assert "refusing to append" in str(refused.value) and "\n" not in str(refused.value)
        assert len(ledger) == 2  # nothing appended on top of the foreign row
        with pytest.raises(ProvebenchError, match="not the one this writer committed"):
            list(ledger.held_rows())


def test_an_unheld_writer_extends_whatever_head_it_finds(tmp_path: Path) -> None:
    """Without a held head the ledger behaves as before (a plain writer, `log` tools)."""
    path = tmp_path / "log.sqlite"
    with Ledger.open(path) as ledger:
        [entry] = ledger.append_many([("a", {"i": 1})])
        _foreign_append(path, 1, entry.hash)
        assert ledger.append("b", {"i": 2}).seq == 2
