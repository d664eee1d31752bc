"""Reading a ledger never writes beside it: a copied ledger verifies in a read-only folder.

A WAL ledger copied without its `-wal`/`-shm` files into a folder its reader cannot write used to
fail with "attempt to write a readonly database". Tests may run as root, who can write anywhere,
so the unwritable folder is read by a forked child that runs as `nobody`; in-process, the check
is that nothing is created in the folder.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.ledger import Ledger, verify_ledger

NOBODY = 65534


def _filled(path: Path, count: int = 6) -> str:
    with Ledger.open(path) as ledger:
        entries = ledger.append_many([("event", {"i": i}) for i in range(count)])
    return entries[-1].hash


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_reading_a_copy_without_its_wal_creates_no_file(tmp_path: Path) -> None:
    _filled(tmp_path / "ledger.sqlite")
    folder = tmp_path / "copy"
    folder.mkdir()
    shutil.copy(tmp_path / "ledger.sqlite", folder / "ledger.sqlite")
    assert verify_ledger(folder / "ledger.sqlite", expect_length=6).ok
    with Ledger.open_readonly(folder / "ledger.sqlite") as ledger:
        assert len(list(ledger.entries())) == 6
    assert _listing(folder) == ["ledger.sqlite"]  # no -wal, no -shm


@pytest.fixture
def folder() -> Iterator[Path]:
    """Outside pytest's private (0700) temporary root, so that `nobody` can reach it."""
    made = Path(tempfile.mkdtemp(prefix="provebench-ro-"))
    yield made
    made.chmod(0o700)
    shutil.rmtree(made, ignore_errors=True)


def _verify_as_reader(target: Path, **expected: Any) -> dict[str, Any]:
    """`verify_ledger` in a forked child that cannot write the folder: as `nobody` when the
    tests run as root (who can write anywhere), else as this user with the folder 0555."""
    if os.geteuid() == 0:
        try:
            pwd.getpwuid(NOBODY)
        except KeyError:
            pytest.skip("no unprivileged user to read as")
    target.parent.chmod(0o555)
    for path in target.parent.iterdir():
        path.chmod(0o444)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root, verify, report as JSON, never return into pytest
        outcome: dict[str, Any] = {}
        try:
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            report = verify_ledger(target, **expected)
            outcome = {"ok": report.ok, "summary": report.summary()}
        except ProvebenchError as error:
            outcome = {"error": error.one_line()}
        except BaseException as error:  # anything else is the test's failure
            outcome = {"crash": repr(error)}
        finally:
            os.write(write_end, json.dumps(outcome).encode())
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as handle:
        text = handle.read()
    os.waitpid(pid, 0)
    result: dict[str, Any] = json.loads(text)
    return result


def test_a_copy_without_its_wal_verifies_in_a_read_only_folder(
    tmp_path: Path, folder: Path
) -> None:
    head = _filled(tmp_path / "ledger.sqlite")
    shutil.copy(tmp_path / "ledger.sqlite", folder / "ledger.sqlite")
    done = _verify_as_reader(folder / "ledger.sqlite", expect_head=head)
    assert done.get("ok") is True, done
    assert done["summary"].startswith(f"intact: 6 entries, head seq 5, head hash {head}")
    assert _listing(folder) == ["ledger.sqlite"]


def test_an_empty_wal_left_beside_it_is_no_obstacle(tmp_path: Path, folder: Path) -> None:
    _filled(tmp_path / "ledger.sqlite")
    shutil.copy(tmp_path / "ledger.sqlite", folder / "ledger.sqlite")
    (folder / "ledger.sqlite-wal").write_bytes(b"")
    (folder / "ledger.sqlite-shm").write_bytes(b"\0" * 32768)
    done = _verify_as_reader(folder / "ledger.sqlite", expect_length=6)
    assert done.get("ok") is True, done
    assert _listing(folder) == ["ledger.sqlite", "ledger.sqlite-shm", "ledger.sqlite-wal"]


def test_a_wal_holding_entries_in_a_read_only_folder_is_refused(
    tmp_path: Path, folder: Path
) -> None:
    """Entries still in the -wal cannot be read without writing its index: refused, named."""
    with Ledger.open(tmp_path / "ledger.sqlite") as ledger:
        ledger.append_many([("event", {"i": i}) for i in range(6)])
        for name in ("ledger.sqlite", "ledger.sqlite-wal"):  # copied before the checkpoint
            shutil.copy(tmp_path / name, folder / name)
    assert (folder / "ledger.sqlite-wal").stat().st_size > 0
    done = _verify_as_reader(folder / "ledger.sqlite")
    assert "ledger.sqlite-wal holds entries not yet in ledger.sqlite" in done.get("error", ""), done
