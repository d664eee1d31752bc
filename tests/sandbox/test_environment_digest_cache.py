"""The environment digest's per-file cache (`_manifest`): one file per environment, holding only
the keys of its last walk. One file kept across every change grew without end (60 MB on a
machine with a few environments, read at every sandboxed launch)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from provebench.sandbox import _manifest
from provebench.sandbox._manifest import environment_digest, forget_environment_digest
from tests.sandbox.environment_helpers import fresh_digest  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("fresh_digest")


def _environment(top: Path, *names: str) -> list[Path]:
    roots = [top / "venv", top / "pkg"]
    for root in roots:
        root.mkdir(parents=True)
    for name in names:
        (roots[1] / name).write_text(f"NAME = {name!r}\n", encoding="utf-8")
    return roots


@pytest.fixture
def private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "private"
    root.mkdir(mode=0o700)
    monkeypatch.setattr(_manifest, "private_root", lambda: root)
    monkeypatch.setattr(_manifest, "_left_out", list)
    return root


def _digest_of(roots: list[Path], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(_manifest, "environment_roots", lambda: roots)
    forget_environment_digest()
    return environment_digest()


def _kept(private: Path) -> dict[str, dict[str, str]]:
    return {
        kept.name: json.loads(kept.read_text(encoding="utf-8"))
        for kept in sorted((private / "environment-digests").glob("*.json"))
    }


def test_the_cache_holds_only_the_last_walk_s_files(
    tmp_path: Path, private: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roots = _environment(tmp_path / "one", "a.py", "b.py", "c.py")
    first = _digest_of(roots, monkeypatch)
    [(name, keys)] = _kept(private).items()
    assert len(keys) == 3
    (roots[1] / "b.py").unlink()
    (roots[1] / "c.py").write_text("NAME = 'changed'\n", encoding="utf-8")
    second = _digest_of(roots, monkeypatch)
    assert second != first
    [(again, keys_now)] = _kept(private).items()
    assert again == name
    assert len(keys_now) == 2  # b.py's key and c.py's old key are gone
    assert not set(keys) <= set(keys_now)


def test_two_environments_keep_a_file_each_and_a_long_unread_one_goes(
    tmp_path: Path, private: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = _environment(tmp_path / "one", "a.py")
    two = _environment(tmp_path / "two", "a.py", "b.py")
    _digest_of(one, monkeypatch)
    _digest_of(two, monkeypatch)
    kept = _kept(private)
    assert sorted(len(keys) for keys in kept.values()) == [1, 2]
    # The first environment's file, read again, is not rewritten: its walk found every key.
    [one_file] = [n for n, keys in kept.items() if len(keys) == 1]
    before = (private / "environment-digests" / one_file).stat().st_ino
    _digest_of(one, monkeypatch)
    assert (private / "environment-digests" / one_file).stat().st_ino == before
    # Unread for longer than kept: removed when another environment's file is saved.
    old = 40 * 86400
    stale = private / "environment-digests" / one_file
    os.utime(stale, (stale.stat().st_atime - old, stale.stat().st_mtime - old))
    (two[1] / "c.py").write_text("NAME = 'new'\n", encoding="utf-8")
    _digest_of(two, monkeypatch)
    assert sorted(len(keys) for keys in _kept(private).values()) == [3]
