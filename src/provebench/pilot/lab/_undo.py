"""Undoing a run attempt that failed before its first committed cycle (fail closed, pilot §6).

Events are validated as they stream, a cycle ahead of the cycle that uses them (validating the
whole corpus first would cost 10-16 % of a 100k-event run: docs/pilot-lab.md, "Crash safety").
So a corpus error, like any other lab error, can stop a run after it created its directory. Until
the first cycle is committed the folder holds no evidence, only what this attempt created:
`identity.json`, an empty ledger, `checkpoint/`, `work/`. Left behind, they would tie the folder
to this corpus, and a retry on the corrected corpus would be refused as "another run". So they
are removed again, and only they: whatever existed before the attempt (the rest of an earlier
attempt, files someone left) is never touched.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from provebench.pilot.record._rundir import (
    CHECKPOINT_DIR,
    IDENTITY_FILE,
    LEDGER_FILE,
    WORK_DIR,
)

# Everything `execute_run` creates before its first commit; SQLite adds the two companions.
_CREATED_BEFORE_FIRST_COMMIT = (
    IDENTITY_FILE,
    LEDGER_FILE,
    f"{LEDGER_FILE}-wal",
    f"{LEDGER_FILE}-shm",
    f"{LEDGER_FILE}-journal",
    WORK_DIR,
    CHECKPOINT_DIR,
)


class AttemptPaths:
    """Which of a run folder's own paths existed before this attempt (taken before anything
    is created), so that exactly the others can be removed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.root_existed = root.exists()
        self.existed = {name for name in _CREATED_BEFORE_FIRST_COMMIT if _exists(root / name)}

    def remove_created(self) -> None:
        """Remove what this attempt created; best effort, never masking the error that led
        here (a path that cannot be removed stays, and a retry names it)."""
        for name in _CREATED_BEFORE_FIRST_COMMIT:
            path = self.root / name
            if name in self.existed or not _exists(path):
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
                continue
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)
        if not self.root_existed:
            with contextlib.suppress(OSError):  # only if empty: nothing else is ours to remove
                self.root.rmdir()


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


__all__ = ["AttemptPaths"]
