"""Canonical bytes: deterministic JSON, content hashes and atomic file writes.

Everything provebench scores or publishes goes through here so that the same inputs give the same
output bytes (no wall-clock time, no dict-order accidents, no NaN), and so that no output file is
ever left half-written where a later run could mistake it for a complete one.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sys
import tempfile
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


@contextmanager
def atomic_writer(path: str | Path, *, binary: bool = False) -> Iterator[IO[Any]]:
    """Open `path` for writing so that readers see either the old content or the whole new one.

    The content goes to a temporary file in the same directory, is flushed to disk when the block
    ends, and is then renamed over the target; an exception or a crash at any point leaves no
    partial file under the final name. A target that exists and is not a regular file (a folder,
    FIFO, device, socket or symbolic link) is refused before anything is written: the rename
    would replace it (`provebench._paths`). An OS error of the writer's own steps is one
    `ProvebenchError` naming the target, not the temporary file.
    """
    target = Path(path)
    refuse_to_replace(target)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise _cannot_write(target, error) from None
    try:
        try:
            # mkstemp makes the file owner-only; what provebench writes is handed on (verdicts,
            # evidence, reports), so it gets the mode a plain open() would: 0666 less the umask.
            os.fchmod(fd, 0o666 & ~current_umask())
            with (
                os.fdopen(fd, "wb")
                if binary
                else os.fdopen(fd, "w", encoding="utf-8", newline="\n")
            ) as handle:
                yield handle
                _finish(target, handle)
        except OSError as error:
            # The caller's write to `handle`, or the close that flushes what is still buffered,
            # met a full disk (a file object's errors carry no file name): say which file could
            # not be written. The close matters on its own: content smaller than the buffer is
            # written only there, and after a failed flush the close fails again, which would
            # replace the error `_finish` raised with a bare OSError.
            if error.filename is None and error.errno in _WRITE_FAILURES:
                raise _cannot_write(target, error) from None
            raise
        _rename(Path(tmp_name), target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
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


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write a whole file atomically (see `atomic_writer`)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_writer(path, binary=True) as handle:
        handle.write(payload)


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
    "sha256_bytes",
    "sha256_file",
    "to_jsonable",
    "write_atomic",
    "write_lines_atomic",
]
