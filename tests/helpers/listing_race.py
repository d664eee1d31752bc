"""A link swapped in at the instant a copier has listed a folder (red team round 13b, H4/H6):
the race the attacks won by timing, reproduced at the point the attacker acts."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


class _Listed:
    """What `os.scandir` returns, already read (copytree reads it whole, then copies)."""

    def __init__(self, entries: list[os.DirEntry[str]]) -> None:
        self._entries = entries

    def __enter__(self) -> _Listed:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def __iter__(self) -> Iterator[os.DirEntry[str]]:
        return iter(self._entries)

    def close(self) -> None:
        return None


def swap_for_link_after_listing(
    monkeypatch: pytest.MonkeyPatch, folder: Path, name: str, link_to: Path, *, listing: int = 1
) -> list[Path]:
    """Once `folder` has been listed `listing` times (by `os.scandir` or `os.listdir`, by path
    or by a descriptor of it), replace its entry `name` with a symbolic link to `link_to`.
    Returns a list that holds the swapped path once the swap happened."""
    done: list[Path] = []
    seen: list[int] = []
    identity = folder.stat()
    real_scandir, real_listdir = os.scandir, os.listdir

    def is_folder(where: Any) -> bool:
        try:
            info = os.stat(where)  # noqa: PTH116 (a descriptor as well as a path)
        except (OSError, TypeError):
            return False
        return (info.st_dev, info.st_ino) == (identity.st_dev, identity.st_ino)

    def swap() -> None:
        seen.append(1)
        if done or len(seen) < listing:
            return
        target = folder / name
        if target.is_dir() and not target.is_symlink():
            for child in sorted(target.rglob("*"), reverse=True):
                child.rmdir() if child.is_dir() else child.unlink()
            target.rmdir()
        else:
            target.unlink()
        target.symlink_to(link_to)
        done.append(target)

    def scandir(where: Any = ".") -> Any:
        listed = real_scandir(where)
        if not is_folder(where):
            return listed
        with listed:
            entries = list(listed)
        swap()
        return _Listed(entries)

    def listdir(where: Any = ".") -> list[str]:
        names = real_listdir(where)
        if is_folder(where):
            swap()
        return names

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", listdir)
    return done


def files_holding(root: Path, secret: bytes) -> list[Path]:
    """Every regular file under `root` (links not followed) whose bytes hold `secret`."""
    return [
        path
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink() and secret in path.read_bytes()
    ]
