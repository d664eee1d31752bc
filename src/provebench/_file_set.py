"""Durable writes of many whole files at the cost of one flush per group, not one per file.

`write_atomic` makes each file durable on its own: an fsync of the file, then one of its folder,
two journal commits per file. A run that writes three or four files per scenario over fifty
scenarios paid some 300 of them, which dominated its wall time. A `FileSet` keeps the guarantee
that matters — under its final name a file is complete or absent, after a crash as before — and
pays for durability per group:

1. `stage` writes each file to a temporary name beside its target, without flushing it;
2. `commit` makes every staged file's content durable with one flush of the filesystem
   (``syncfs``), then renames each over its target. A rename is published only after the
   content it points to is on disk, so a crash can lose a rename, never expose a short file;
3. the renames become durable with the next commit's flush, or with `close`'s.

`close` (or leaving the ``with`` block normally) commits what is staged and makes every rename
durable; leaving it by an exception removes the temporary files not yet published. Where
``syncfs`` is not available (not Linux), each staged file and each folder is fsynced instead:
the same guarantee at the old price.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from provebench._canonical import _cannot_write, create_temporary, record_written
from provebench._errors import ProvebenchError
from provebench._paths import refuse_to_replace


@functools.cache
def _syncfs() -> Callable[[int], int] | None:
    """libc's syncfs(2), or None where there is none."""
    try:
        function = ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, OSError):
        return None
    function.argtypes = [ctypes.c_int]
    function.restype = ctypes.c_int
    return function


def _flush_filesystems(paths: list[Path]) -> None:
    """Make every write so far to the filesystems holding `paths` durable: one syncfs each."""
    syncfs = _syncfs()
    assert syncfs is not None
    devices: set[int] = set()
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as error:
            raise _cannot_write(path, error) from None
        try:
            device = os.fstat(fd).st_dev
            if device in devices:
                continue
            devices.add(device)
            if syncfs(fd) != 0:
                number = ctypes.get_errno() or errno.EIO
                raise _cannot_write(path, OSError(number, os.strerror(number)))
        finally:
            os.close(fd)


def _fsync_path(path: Path, named: Path) -> None:
    """fsync `path`; an error names `named` (the target a temporary file stands for)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as error:
        raise _cannot_write(named, error) from None
    try:
        os.fsync(fd)
    except OSError as error:
        raise _cannot_write(named, error) from None
    finally:
        os.close(fd)


# A fresh file only (never one that exists, never through a link), not inherited by children.
class FileSet:
    """Whole files written together, durable at one flush per commit (module docstring)."""

    def __init__(self) -> None:
        # (temporary, target, sha256 of the bytes staged: what a signature covers once published)
        self._staged: list[tuple[Path, Path, str]] = []
        self._unflushed_folders: set[Path] = set()  # folders with renames not yet durable

    def stage(self, path: str | Path, data: bytes) -> None:
        """Write `data` for `path` under a temporary name; `commit` publishes it."""
        target = Path(path)
        refuse_to_replace(target)
        # Mode 0o666: the kernel applies the umask, so what is published gets a plain open()'s
        # mode without a chmod per file.
        fd, temporary = create_temporary(target, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise _cannot_write(target, error) from None
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        self._staged.append((temporary, target, hashlib.sha256(data).hexdigest()))

    @property
    def pending(self) -> int:
        """How many staged files are not yet published."""
        return len(self._staged)

    def commit(self) -> None:
        """Flush the staged files' content once, then publish each under its name."""
        if not self._staged:
            return
        staged, self._staged = self._staged, []
        try:
            if _syncfs() is not None:
                # The flush also makes the previous commit's renames durable.
                _flush_filesystems([staged[0][1].parent, *self._unflushed_folders])
                self._unflushed_folders.clear()
            else:
                for temporary, target, _ in staged:
                    _fsync_path(temporary, target)
            for index, (temporary, target, digest) in enumerate(staged):
                try:
                    temporary.replace(target)
                except OSError as error:
                    for left, _, _ in staged[index:]:
                        left.unlink(missing_ok=True)
                    raise _cannot_write(target, error) from None
                record_written(target, digest)
                self._unflushed_folders.add(target.parent)
        except BaseException:
            for temporary, _, _ in staged:
                temporary.unlink(missing_ok=True)
            raise

    def close(self) -> None:
        """Commit what is staged and make every published rename durable."""
        self.commit()
        folders = sorted(self._unflushed_folders)
        self._unflushed_folders.clear()
        if not folders:
            return
        if _syncfs() is not None:
            _flush_filesystems(folders)
        else:
            for folder in folders:
                _fsync_path(folder, folder)

    def discard(self) -> None:
        """Remove the staged files not yet published."""
        staged, self._staged = self._staged, []
        for temporary, _, _ in staged:
            temporary.unlink(missing_ok=True)

    def __enter__(self) -> FileSet:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()
            return
        self.discard()
        # What was published before the error stays, and durably so; if that fails too, the
        # error already leaving the block is the one to report.
        with contextlib.suppress(ProvebenchError):
            self.close()


__all__ = ["FileSet"]
