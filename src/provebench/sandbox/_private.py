"""The laboratory's private folders: one per sealed cycle, per identification, per emulator.

Each is made by `mkdtemp` (mode 0700) under the system's temporary folder and removed when its
work is done. A laboratory killed with SIGKILL cannot remove its own, so each name carries the
process id that made it, and the first private folder a process makes sweeps the folders whose
process no longer runs. A process id that was reused keeps a stale folder for a while longer,
never the other way round.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from provebench.sandbox._limits import process_gone

_PREFIX = "provebench-"
_swept = False


def private_folder(kind: str, parent: Path | None = None) -> Path:
    """A new private folder `provebench-KIND-PID-XXXXXXXX` (in `parent`, or the temp folder)."""
    global _swept
    if not _swept and parent is None:
        _swept = True
        sweep_stale_folders(Path(tempfile.gettempdir()))
    return Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{kind}-{os.getpid()}-", dir=parent))


def sweep_stale_folders(root: Path) -> list[Path]:
    """Remove the private folders in `root` whose process no longer runs; the ones removed."""
    removed: list[Path] = []
    uid = os.getuid()
    for entry in root.glob(f"{_PREFIX}*-*-*"):
        parts = entry.name[len(_PREFIX) :].split("-")
        if len(parts) < 3 or not parts[1].isdigit():
            continue
        try:
            ours = entry.is_dir() and not entry.is_symlink() and entry.lstat().st_uid == uid
        except OSError:
            continue
        if ours and process_gone(int(parts[1])):
            remove_private_folder(entry)
            removed.append(entry)
    return removed


def remove_private_folder(folder: Path) -> None:
    """Remove a private folder and everything in it, read-only folders too (a snapshot of a
    candidate's code is made read-only, and a folder without write permission keeps its
    entries from `rmtree`)."""
    for where, _, _ in os.walk(folder):
        try:
            Path(where).chmod(0o700)
        except OSError:
            continue
    shutil.rmtree(folder, ignore_errors=True)


__all__ = ["private_folder", "remove_private_folder", "sweep_stale_folders"]
