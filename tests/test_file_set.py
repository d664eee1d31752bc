"""`FileSet`: whole files published together, complete or absent, at one flush per commit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from provebench import _file_set
from provebench._errors import ProvebenchError
from provebench._file_set import FileSet


def _names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


class _Recorder:
    """Records the order of flushes and renames (and still does them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[str] = []
        real_syncfs = _file_set._syncfs()
        assert real_syncfs is not None, "these tests need syncfs (Linux)"

        def syncfs(fd: int) -> int:
            self.events.append("flush")
            return real_syncfs(fd)

        real_replace = Path.replace

        def replace(path: Path, target: str | Path) -> Path:
            self.events.append(f"rename {Path(target).name}")
            return real_replace(path, target)

        monkeypatch.setattr(_file_set, "_syncfs", lambda: syncfs)
        monkeypatch.setattr(Path, "replace", replace)


def test_a_set_is_published_whole_after_one_flush(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = _Recorder(monkeypatch)
    with FileSet() as files:
        for name in ("a.json", "b.json", "c.json"):
            files.stage(tmp_path / name, name.encode())
        assert _names(tmp_path) != ["a.json", "b.json", "c.json"]  # nothing published yet
        assert not any((tmp_path / name).exists() for name in ("a.json", "b.json", "c.json"))
        files.commit()
        # One flush for the three files' content, before any of them is renamed into place.
        assert recorder.events == ["flush", "rename a.json", "rename b.json", "rename c.json"]
    # Leaving the block flushes once more: the renames are durable.
    assert recorder.events[-1] == "flush" and recorder.events.count("flush") == 2
    assert _names(tmp_path) == ["a.json", "b.json", "c.json"]
    assert (tmp_path / "b.json").read_bytes() == b"b.json"


def test_the_next_commits_flush_also_makes_the_last_renames_durable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = _Recorder(monkeypatch)
    with FileSet() as files:
        for round_ in range(3):
            files.stage(tmp_path / f"{round_}.json", b"{}")
            files.commit()
    # A flush per commit and one at the end; never a flush per file and folder.
    assert recorder.events.count("flush") == 4


def test_published_files_get_a_plain_opens_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        with FileSet() as files:
            files.stage(tmp_path / "x.json", b"x")
    finally:
        os.umask(umask)
    assert (tmp_path / "x.json").stat().st_mode & 0o777 == 0o644


def test_an_error_in_the_block_publishes_nothing_staged_and_leaves_no_temporary(
    tmp_path: Path,
) -> None:
    (tmp_path / "old.json").write_bytes(b"old")
    with pytest.raises(RuntimeError), FileSet() as files:
        files.stage(tmp_path / "kept.json", b"kept")
        files.commit()
        files.stage(tmp_path / "old.json", b"new")
        files.stage(tmp_path / "other.json", b"other")
        raise RuntimeError("stopped")
    # What was committed before the error stays; what was staged after it never appears.
    assert _names(tmp_path) == ["kept.json", "old.json"]
    assert (tmp_path / "old.json").read_bytes() == b"old"


def test_discard_removes_the_staged_files(tmp_path: Path) -> None:
    files = FileSet()
    files.stage(tmp_path / "a.json", b"a")
    assert files.pending == 1 and len(_names(tmp_path)) == 1
    files.discard()
    assert _names(tmp_path) == [] and files.pending == 0
    files.close()
    assert _names(tmp_path) == []


def test_a_folder_in_the_way_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    (tmp_path / "x.json").mkdir()
    with pytest.raises(ProvebenchError, match=r"x\.json"), FileSet() as files:
        files.stage(tmp_path / "x.json", b"x")
    assert _names(tmp_path) == ["x.json"] and (tmp_path / "x.json").is_dir()


def test_a_missing_folder_is_one_error_naming_the_target(tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match="nowhere"), FileSet() as files:
        files.stage(tmp_path / "nowhere" / "x.json", b"x")


def test_without_syncfs_each_file_and_folder_is_fsynced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(str(Path(f"/proc/self/fd/{fd}").readlink()))
        real_fsync(fd)

    monkeypatch.setattr(_file_set, "_syncfs", lambda: None)
    monkeypatch.setattr(_file_set.os, "fsync", fsync)
    with FileSet() as files:
        files.stage(tmp_path / "a.json", b"a")
        files.stage(tmp_path / "b.json", b"b")
    # The two temporary files before their renames, then the folder once.
    assert len(synced) == 3 and synced[-1] == str(tmp_path)
    assert all(Path(name).name.endswith(".tmp") for name in synced[:2])
    assert _names(tmp_path) == ["a.json", "b.json"]


def test_a_failed_flush_publishes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_file_set, "_syncfs", lambda: lambda fd: -1)
    files = FileSet()
    files.stage(tmp_path / "a.json", b"a")
    with pytest.raises(ProvebenchError, match="cannot write"):
        files.commit()
    assert _names(tmp_path) == []
