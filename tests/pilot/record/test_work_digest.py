"""The work directory's digest (record/_work_digest.py): every byte, mode, name and link target
that a checkpoint restores changes it; what a restore does not keep (timestamps) does not."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from provebench.pilot.record._work_digest import EMPTY_WORK_SHA256, work_tree_sha256


def _tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "journal.json").write_bytes(b'{"cycle": 1}\n')
    (root / "sub" / "state").write_bytes(b"abc")
    (root / "link").symlink_to("journal.json")
    return root


CHANGES: dict[str, Callable[[Path], None]] = {
    "bytes": lambda root: (root / "sub" / "state").write_bytes(b"abd"),
    "mode": lambda root: (root / "journal.json").chmod(0o600),
    "name": lambda root: (root / "sub" / "state").rename(root / "sub" / "stat"),
    "link target": lambda root: ((root / "link").unlink(), (root / "link").symlink_to("sub"))[0],
    "empty folder": lambda root: (root / "new").mkdir(),
    "file moved up": lambda root: (root / "sub" / "state").rename(root / "sub-state"),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_change_a_restore_would_carry_changes_the_digest(tmp_path: Path, change: str) -> None:
    root = _tree(tmp_path / "work")
    before = work_tree_sha256(root)
    CHANGES[change](root)
    assert work_tree_sha256(root) != before


def test_a_copy_made_as_a_snapshot_makes_it_has_the_same_digest(tmp_path: Path) -> None:
    root = _tree(tmp_path / "work")
    copy = tmp_path / "copy"
    shutil.copytree(root, copy, symlinks=True)
    os.utime(copy / "journal.json", (0, 0))  # timestamps are not part of it
    assert work_tree_sha256(copy) == work_tree_sha256(root)


def test_an_empty_folder_has_the_empty_digest(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    assert work_tree_sha256(tmp_path / "work") == EMPTY_WORK_SHA256
