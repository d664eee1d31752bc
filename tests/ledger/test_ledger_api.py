"""The ledger's public API: append, read back, chain links, read-only handles, bad input."""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from pathlib import Path

import pytest

from provebench._canonical import compact_json
from provebench._errors import ProvebenchError
from provebench.ledger import GENESIS_HASH, Ledger, LedgerEntry, verify_ledger
from provebench.ledger._entry import GENESIS_PREIMAGE


def _fill(path: Path, count: int) -> list[LedgerEntry]:
    with Ledger.open(path) as ledger:
        return [ledger.append("event", {"i": i, "name": f"file_{i}.mp3"}) for i in range(count)]


def test_genesis_hash_is_the_documented_domain_separated_constant() -> None:
    assert hashlib.sha256(GENESIS_PREIMAGE).hexdigest() == GENESIS_HASH


def test_round_trip_and_chain_links(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Ledger.open(path) as ledger:
        assert ledger.head() is None
        assert len(ledger) == 0
        first = ledger.append("drive.list", {"page": 1, "names": ["a", "é"]})
        batch = ledger.append_many([("sheets.append", {"row": i}) for i in range(3)])
        assert [e.seq for e in [first, *batch]] == [0, 1, 2, 3]
        assert first.prev_hash == GENESIS_HASH
        for before, after in zip([first, *batch], batch, strict=False):
            assert after.prev_hash == before.hash
        assert ledger.head() == batch[-1]
        assert len(ledger) == 4
        assert list(ledger.entries()) == [first, *batch]
        assert [e.seq for e in ledger.entries(2)] == [2, 3]
    with Ledger.open_readonly(path) as reader:
        assert list(reader.entries()) == [first, *batch]


def test_hash_is_sha256_of_the_documented_canonical_bytes(tmp_path: Path) -> None:
    (entry,) = _fill(tmp_path / "log.sqlite", 1)
    document = {
        "seq": entry.seq,
        "kind": entry.kind,
        "payload": entry.payload,
        "prev_hash": entry.prev_hash,
    }
    expected = hashlib.sha256(compact_json(document).encode("utf-8")).hexdigest()
    assert entry.hash == expected
    assert entry.hashed_text() == compact_json(document)
    assert json.loads(entry.export_line()) == {**document, "hash": entry.hash}


def test_reopen_continues_the_chain(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    entries = _fill(path, 3)
    with Ledger.open(path) as ledger:
        nxt = ledger.append("event", {"i": 3})
    assert nxt.seq == 3 and nxt.prev_hash == entries[-1].hash
    assert verify_ledger(path).ok


def test_readonly_handle_refuses_appends(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    _fill(path, 1)
    with Ledger.open_readonly(path) as reader, pytest.raises(ProvebenchError, match="read-only"):
        reader.append("event", {})


@pytest.mark.parametrize(
    ("payload", "named"),
    [
        ({"x": math.nan}, "NaN"),
        ({"x": [1, math.inf]}, "payload.x[1]"),
        ({1: "a"}, "not a string"),
        ({"x": {2: "b"}}, "key 2"),
        ({"x": b"bytes"}, "bytes is not JSON"),
        ({"x": (1, 2)}, "tuple is not JSON"),
        ({"x": {1, 2}}, "set is not JSON"),
        ({"x": "\ud800"}, "surrogate"),
        (["not", "a", "mapping"], "must be a JSON object"),
    ],
)
def test_unsafe_payload_is_refused_with_a_clear_error(
    tmp_path: Path, payload: object, named: str
) -> None:
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        with pytest.raises(ProvebenchError, match="payload") as caught:
            ledger.append("event", payload)  # type: ignore[arg-type]
        assert named in str(caught.value)
        assert len(ledger) == 0


def test_a_bad_item_leaves_the_whole_batch_unwritten(tmp_path: Path) -> None:
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        with pytest.raises(ProvebenchError, match="item 2"):
            ledger.append_many([("ok", {}), ("ok", {}), ("bad", {"x": math.nan})])
        assert len(ledger) == 0


@pytest.mark.parametrize("kind", ["", "x" * 129, "line\nbreak", 7])
def test_bad_kind_is_refused(tmp_path: Path, kind: object) -> None:
    with Ledger.open(tmp_path / "log.sqlite") as ledger, pytest.raises(ProvebenchError):
        ledger.append(kind, {})  # type: ignore[arg-type]


def test_payload_is_detached_from_the_callers_object(tmp_path: Path) -> None:
    payload = {"names": ["a"]}
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        entry = ledger.append("event", payload)
        payload["names"].append("b")
        assert entry.payload == {"names": ["a"]}
        assert ledger.head() == entry


def test_not_a_ledger_is_a_one_line_error(tmp_path: Path) -> None:
    text = tmp_path / "notes.sqlite"
    text.write_text("hello\n")
    with pytest.raises(ProvebenchError, match="not a provebench ledger"):
        Ledger.open(text)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    for opener in (Ledger.open, Ledger.open_readonly):
        with pytest.raises(ProvebenchError, match="not a provebench ledger") as caught:
            opener(other)
        assert "\n" not in caught.value.one_line()


def test_unknown_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    _fill(path, 1)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TRIGGER meta_no_update")
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
    connection.close()
    with pytest.raises(ProvebenchError, match="unsupported ledger version '99'"):
        Ledger.open(path)
    with pytest.raises(ProvebenchError, match="unsupported ledger version"):
        verify_ledger(path)


def test_missing_directory_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match="directory does not exist"):
        Ledger.open(tmp_path / "no" / "log.sqlite")
    with pytest.raises(ProvebenchError, match="not found"):
        Ledger.open_readonly(tmp_path / "absent.sqlite")
    with pytest.raises(ProvebenchError, match="not found"):
        verify_ledger(tmp_path / "absent.sqlite")


def test_file_is_wal_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Ledger.open(path) as ledger:
        ledger.append("event", {})
        connection = ledger._connection
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_export_is_canonical_jsonl_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    entries = _fill(path, 5)
    out = tmp_path / "log.jsonl"
    with Ledger.open_readonly(path) as reader:
        assert reader.export_jsonl(out) == 5
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == [e.export_line() for e in entries]
    report = verify_ledger(out, expect_head=entries[-1].hash, expect_length=5)
    assert report.ok and report.length == 5 and report.head_hash == entries[-1].hash


def test_a_batch_that_fails_midway_leaves_nothing(tmp_path: Path) -> None:
    """append_many is one transaction: a failure at the fourth insert undoes the first three."""
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        ledger.append("before", {})
        ledger._connection.execute(
            "CREATE TEMP TRIGGER fail_at_4 BEFORE INSERT ON entries WHEN NEW.seq = 4 "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
        )
        with pytest.raises(ProvebenchError, match="injected failure"):
            ledger.append_many([("batch", {"i": i}) for i in range(5)])
        assert len(ledger) == 1
        ledger._connection.execute("DROP TRIGGER fail_at_4")
        assert [e.seq for e in ledger.append_many([("batch", {})] * 2)] == [1, 2]
    assert verify_ledger(tmp_path / "log.sqlite").ok


def test_trusted_entries_behave_like_validated_ones(tmp_path: Path) -> None:
    """append returns entries built without validation; they must be indistinguishable."""
    from pydantic import ValidationError

    from provebench.ledger._entry import trusted_entry

    fields = {"seq": 3, "kind": "k", "payload": {"a": [1]}, "prev_hash": "a" * 64, "hash": "b" * 64}
    built = trusted_entry(3, "k", {"a": [1]}, "a" * 64, "b" * 64)
    validated = LedgerEntry(**fields)
    assert built == validated and validated == built
    assert built.model_dump() == validated.model_dump() == fields
    assert built.model_dump_json() == validated.model_dump_json()
    assert built.model_fields_set == validated.model_fields_set
    assert repr(built) == repr(validated)
    with pytest.raises(ValidationError):
        built.seq = 4  # frozen, like a validated entry
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        appended = ledger.append("k", {"a": [1]})
        assert type(appended) is LedgerEntry
        assert appended == ledger.head()
        assert LedgerEntry.model_validate(appended.model_dump()) == appended


@pytest.mark.parametrize("umask", [0o002, 0o077])
def test_a_new_ledger_takes_the_users_umask(tmp_path: Path, umask: int) -> None:
    # The ledger is signed and handed on with the run: SQLite alone made it 0644 less the
    # umask, so 0644 under 002 (the 002 case fails without `_create_empty`).
    import os
    import stat

    path = tmp_path / "log.sqlite"
    previous = os.umask(umask)
    try:
        _fill(path, 2)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    with Ledger.open(path) as ledger:
        assert len(ledger) == 2
