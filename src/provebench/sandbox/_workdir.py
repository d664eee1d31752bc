"""The size check of a candidate's work directory after its cycle (docs/sandbox.md, 'Limits').

One file is bounded while it is written (`RLIMIT_FSIZE`); the folder as a whole is measured when
the cycle ends, and a folder over the limit is not carried into the next cycle (the cycle's
`agent_error` says so). Links are counted as links, never followed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from provebench._errors import ProvebenchError
from provebench._read_once import copy_tree_once, empty_folder, open_folder
from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._limits import MIB, Limits
from provebench.sandbox._private import private_folder


def copy_tree(source: Path, target: Path) -> None:
    """Copy a work directory: links as links, special files left out, every file through the
    one opener from a held folder descriptor (red team round 13b, H4: a file swapped for a
    link after the listing is refused, never followed to the key); a refusal removes `target`
    and is a one-line `ProvebenchError`."""
    copy_tree_once(source, target)


def replace_tree(target: Path, source: Path) -> None:
    """Make `target` hold exactly what `source` holds (links as links, special files left
    out). `target` is held by one descriptor, opened with no link followed, that is emptied and
    then filled (`empty_folder`, `copy_tree_once`'s `target_fd`): a link put at its name
    mid-cycle (the run folder's `work/` swapped for a link to another folder) is refused in one
    line, and nothing where it leads is deleted or written (red team round 14b, C1)."""
    held = open_folder(target)
    try:
        try:
            empty_folder(held)
        except OSError as error:
            raise ProvebenchError(f"cannot empty folder: {error.strerror}", path=target) from None
        copy_tree_once(source, target, into_empty=True, target_fd=held)  # the one opener (H4)
    finally:
        os.close(held)


class WorkFolderGuard(Protocol):
    """The laboratory's check of a cycle's work/ (`pilot.lab._work_guard`): the copy a cycle
    receives must be what was committed, and what it leaves is read once, from the cycle's own
    folder."""

    def check_copy(self, folder: Path) -> None: ...

    def keep(self, folder: Path) -> None: ...


@contextlib.contextmanager
def cycle_folder(
    work_dir: Path,
    limits: Limits,
    parent: Path | None = None,
    guard: WorkFolderGuard | None = None,
) -> Iterator[Path]:
    """A private folder for one sealed cycle (`/sandbox` inside), removed afterwards. Its `work/`
    starts as a copy of the importer's work directory — checked by `guard` after copying, so
    that what the candidate is given is what the laboratory committed, whatever was written in
    the run folder meanwhile (red team round 10, A6) — and is carried back when the cycle ends —
    however it ends, as an in-process importer's own directory would keep what it wrote — unless
    it grew over the limit: then it is dropped and the cycle fails with `CandidateFailed`."""
    folder = private_folder("cycle", parent)
    try:
        copy_tree(work_dir, folder / "work")
        if guard is not None:
            guard.check_copy(folder / "work")
        try:
            yield folder
        finally:
            oversized = work_dir_over_limit(folder / "work", limits)
            if oversized is None:
                if guard is not None:
                    guard.keep(folder / "work")
                replace_tree(work_dir, folder / "work")
        if oversized is not None:
            raise CandidateFailed("WorkDirectoryTooLarge", oversized)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tree_bytes(root: Path) -> int:
    total = 0
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in (*dirs, *files):
            try:
                total += (Path(folder) / name).lstat().st_size
            except OSError:
                continue
    return total


def work_dir_over_limit(root: Path, limits: Limits) -> str | None:
    """None when `root` is within the limit, else the agent_error message."""
    size = tree_bytes(root)
    if size <= limits.work_dir_mib * MIB:
        return None
    return (
        f"the work directory holds {size // MIB} MiB, over the {limits.work_dir_mib} MiB limit; "
        "it was not kept"
    )


__all__ = [
    "WorkFolderGuard",
    "copy_tree",
    "cycle_folder",
    "replace_tree",
    "tree_bytes",
    "work_dir_over_limit",
]
