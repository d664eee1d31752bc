"""Canonical bytes: deterministic JSON, content hashes and atomic file writes.

Everything provebench scores or publishes goes through here so that the same inputs give the same
output bytes (no wall-clock time, no dict-order accidents, no NaN), and so that no output file is
ever left half-written where a later run could mistake it for a complete one.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from provebench._errors import ProvebenchError
from provebench._paths import refuse_to_replace

_CHUNK = 1 << 20


def to_jsonable(value: Any) -> Any:
    """Plain JSON data for a pydantic model (in field order) or any JSON-ready value.

    pydantic is looked up, not imported: where it was never imported no value is a model, and
    a process that only hashes and writes (a sandboxed worker) does not pay for importing it."""
    pydantic = sys.modules.get("pydantic")
    if pydantic is not None and isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    return value


def canonical_json(value: Any, *, indent: int | None = 2) -> str:
    """Deterministic JSON text ending in a newline.

    Key order is the order of the model fields (or of the dict as built), which is part of the
    documented output format; NaN and infinities are refused because they are not JSON.
    """
    return json.dumps(to_jsonable(value), ensure_ascii=False, indent=indent, allow_nan=False) + "\n"


def compact_json(value: Any) -> str:
    """One-line deterministic JSON with sorted keys, used for hashing and JSONL records."""
    return json.dumps(
        to_jsonable(value),
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
        allow_nan=False,
    )


def is_utf8_text(text: str) -> bool:
    """Whether UTF-8 can hold `text` (no lone surrogate), as every file provebench writes is."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    """Streaming sha256 of a file's bytes, as lowercase hex."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class _HashingFile(io.RawIOBase):
    """A file descriptor open for writing that hashes every byte as it is written: the digest
    of a file provebench wrote is of the bytes it wrote, never of the file read back (red team
    round 11, A2/A4: a file renamed over, or rewritten through its temporary name, between the
    write and a re-read was signed)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self.digest = hashlib.sha256()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        written = os.write(self._fd, view)
        self.digest.update(view[:written])
        return written

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


# The sha256 of what this process last wrote at each path (absolute, as named): what a
# signature covers (`written_sha256`, `attest._envelope.sign_files`).
_WRITTEN: dict[str, str] = {}
_TEMPORARY_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def written_sha256(path: str | Path) -> str | None:
    """The sha256 of the bytes this process wrote at `path` with `atomic_writer` (the last
    time), or None when it wrote nothing there."""
    return _WRITTEN.get(str(Path(path).absolute()))


def record_written(path: str | Path, sha256: str) -> None:
    """Note that this process has just put bytes with `sha256` at `path` (a writer other than
    `atomic_writer`, such as `FileSet`), for `written_sha256`."""
    _WRITTEN[str(Path(path).absolute())] = sha256


def still_written(path: str | Path) -> str:
    """The sha256 of what this process wrote at `path`, once the regular file there is checked
    to hold exactly those bytes; otherwise one-line `ProvebenchError`, checked last, just before
    a signature (red team round 11, A2/A4: a file renamed over, or rewritten through the
    writer's temporary file, after it was written was signed)."""
    written = written_sha256(path)
    try:
        found = sha256_file(path) if stat.S_ISREG(os.lstat(path).st_mode) else None
    except OSError:
        found = None
    if written is None or found != written:
        raise ProvebenchError(
            "the file is not the one this process wrote (changed or replaced after it was "
            "written); nothing is signed",
            path=Path(path),
        )
    return written


def create_temporary(target: Path, mode: int = 0o600) -> tuple[int, Path]:
    """A new temporary file beside `target` (`.NAME.RANDOM.tmp`), open for writing, and its
    path: created exclusively and without following a link (never a file or link someone put
    at the name first), under an unpredictable name (128 random bits), so nobody can aim a
    write at it while it is filled (red team round 11, A4). `mode` 0o600 keeps it owner-only
    until it is renamed; `FileSet` asks 0o666 so that the kernel applies the umask once."""
    for _ in range(16):
        temporary = target.parent / f".{target.name}.{secrets.token_hex(16)}.tmp"
        try:
            return os.open(temporary, _TEMPORARY_FLAGS, mode), temporary
        except FileExistsError:
            continue
        except OSError as error:
            raise _cannot_write(target, error) from None
    raise ProvebenchError("cannot write: no free temporary name", path=target)


@contextmanager
def atomic_writer(
    path: str | Path, *, binary: bool = False, private: bool = False
) -> Iterator[IO[Any]]:
    """Open `path` for writing so that readers see either the old content or the whole new one.

    The content goes to a temporary file in the same directory, is flushed to disk when the block
    ends, and is then renamed over the target; an exception or a crash at any point leaves no
    partial file under the final name. A target that exists and is not a regular file (a folder,
    FIFO, device, socket or symbolic link) is refused before anything is written: the rename
    would replace it (`provebench._paths`). An OS error of the writer's own steps is one
    `ProvebenchError` naming the target, not the temporary file. The sha256 of the bytes written
    is kept for `written_sha256` once the file is in place.
    """
    target = Path(path)
    refuse_to_replace(target)
    fd, temporary = create_temporary(target)
    try:
        raw = _HashingFile(fd)
        try:
            buffered = io.BufferedWriter(raw)
            with (
                buffered if binary else io.TextIOWrapper(buffered, encoding="utf-8", newline="\n")
            ) as handle:
                yield handle
                _finish(target, handle)
                # Owner-only while it was filled; what provebench writes is handed on
                # (verdicts, evidence, reports), so it gets the mode a plain open() would — a
                # `private` file (a key) keeps owner-only. Given through the descriptor that
                # wrote it, never by path: a link put at either name is never followed.
                if not private:
                    os.fchmod(fd, 0o666 & ~current_umask())
        except OSError as error:
            # The caller's write to `handle`, or the close that flushes what is still buffered,
            # met a full disk (a file object's errors carry no file name): say which file could
            # not be written. The close matters on its own: content smaller than the buffer is
            # written only there, and after a failed flush the close fails again, which would
            # replace the error `_finish` raised with a bare OSError.
            if error.filename is None and error.errno in _WRITE_FAILURES:
                raise _cannot_write(target, error) from None
            raise
        finally:
            raw.close()
        _rename(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _WRITTEN[str(target.absolute())] = raw.digest.hexdigest()
    fsync_directory(target.parent)


# What a write to the temporary file can meet: a full disk or quota, a file-size limit, an I/O
# error of the device.
_WRITE_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def current_umask() -> int:
    """The process's umask, read without changing it where Linux says it (/proc, 4.7+)."""
    try:
        with Path("/proc/self/status").open(encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: the classic read-and-restore
    os.umask(mask)
    return mask


def _finish(target: Path, handle: IO[Any]) -> None:
    try:
        handle.flush()
        os.fsync(handle.fileno())
    except OSError as error:  # e.g. the disk is full
        raise _cannot_write(target, error) from None


def _rename(temporary: Path, target: Path) -> None:
    try:
        temporary.replace(target)
    except OSError as error:
        raise _cannot_write(target, error) from None


def _cannot_write(target: Path, error: OSError) -> ProvebenchError:
    return ProvebenchError(f"cannot write: {error.strerror or error}", path=target)


def write_atomic(path: str | Path, data: bytes | str, *, private: bool = False) -> str:
    """Write a whole file atomically (see `atomic_writer`; `private`: owner-only, 0600);
    returns the sha256 of the bytes written."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_writer(path, binary=True, private=private) as handle:
        handle.write(payload)
    return hashlib.sha256(payload).hexdigest()


def write_lines_atomic(path: str | Path, lines: Iterable[str]) -> None:
    """`write_atomic` for a stream of text lines (each written with a trailing newline)."""
    write_atomic(path, "".join(f"{line}\n" for line in lines))


def fsync_directory(directory: Path) -> None:
    """Make a rename or create inside `directory` durable (best effort where unsupported)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


__all__ = [
    "atomic_writer",
    "canonical_json",
    "compact_json",
    "fsync_directory",
    "is_utf8_text",
    "record_written",
    "sha256_bytes",
    "sha256_file",
    "still_written",
    "to_jsonable",
    "write_atomic",
    "write_lines_atomic",
    "written_sha256",
]
