"""Reading an input file once: the bytes that are hashed are the bytes that are used.

A check that hashes a file and a reader that opens it again by path judge two different files
when someone can rename another in between (red team round 11, A9/A13/A19: the evaluator checked
one run.json, ledger or register and scored another). So every input a verdict rests on is read
here, once: opened without following a symbolic link, refused unless it is a regular file,
capped in size, and returned with the sha256 of exactly those bytes. A consumer is given those
bytes, never a path: a "private" copy on disk is no boundary against a process of the same
user, which can rename other bytes over it (red team round 12, A1-A6), so the evaluator
verifies, parses and scores from memory only (SQLite through `Ledger.from_bytes`, the scorer
through `HeldCsv`, the corpus through `load_corpus(in_memory=True)`).

No file of the laboratory's key folder is ever an input (red team round 13, H4: publish copied
a run file hard-linked to the private key, and a `--risks` link to it, into a bundle that
verified). A hard link is a regular file and the folder checks (`_paths`) see only folders, so
the opener compares the identity of what it opened, (st_dev, st_ino), with every file the key
folder holds — the current pair and the retired ones — and refuses a match in one line: every
reader and copier built on it inherits the refusal.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._key_location import KEY_DIR_ENV, key_dir

# Far above any run file or corpus file a laboratory writes; a larger one is refused, not read.
MAX_INPUT_BYTES = 1 << 34


@dataclass(frozen=True)
class HeldBytes:
    """A file's bytes as read once, and their sha256."""

    data: bytes
    sha256: str


def key_folder_identities() -> frozenset[tuple[int, int]]:
    """(st_dev, st_ino) of every file the laboratory's key folder holds, at any depth (the
    current key pair, `retired/`): the files no input may be, by any name. A file is taken as
    the key reader takes it (a link in the folder by its target); an unreadable entry is
    skipped, a missing folder holds none."""
    found: set[tuple[int, int]] = set()
    for folder, _, names in os.walk(key_dir()):
        for name in names:
            try:
                info = (Path(folder) / name).stat()
            except OSError:
                continue
            found.add((info.st_dev, info.st_ino))
    return frozenset(found)


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """A read descriptor of the regular file at `path`, and its status: O_NOFOLLOW and
    O_NONBLOCK on the open (a link, FIFO or device is never read), the type checked on the
    descriptor itself, and never a file of the key folder by any name (module docstring);
    one-line `ProvebenchError` naming the file otherwise, nothing left open."""
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ProvebenchError("file not found", path=path) from None
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link: said as what it is
            raise ProvebenchError(
                "cannot read file: a symbolic link, which is not followed", path=path
            ) from None
        raise ProvebenchError(f"cannot read file: {error.strerror}", path=path) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            error_message = "not a regular file"
        elif (info.st_dev, info.st_ino) in key_folder_identities():
            error_message = (
                f"is a file of the laboratory's key folder {key_dir()} ({KEY_DIR_ENV}), by "
                "this name or another: provebench never reads or copies one as an input"
            )
        else:
            return fd, info
    except OSError as error:
        error_message = f"cannot read file: {error.strerror}"
    os.close(fd)
    raise ProvebenchError(error_message, path=path)


def read_once(path: Path, *, max_bytes: int = MAX_INPUT_BYTES) -> HeldBytes:
    """The bytes of the regular file at `path` and their sha256, from one open (one-line
    `ProvebenchError` naming the file otherwise). A symbolic link, FIFO or device is refused
    without being read: O_NOFOLLOW and O_NONBLOCK on the open, the type checked on the open
    descriptor itself."""
    fd, info = _open_regular(path)
    try:
        if info.st_size > max_bytes:
            raise ProvebenchError(f"larger than {max_bytes} bytes", path=path)
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > max_bytes:  # grown while read: refused, never a partial file
                raise ProvebenchError(f"larger than {max_bytes} bytes", path=path)
            chunks.append(chunk)
    except OSError as error:
        raise ProvebenchError(f"cannot read file: {error.strerror}", path=path) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    return HeldBytes(data=data, sha256=hashlib.sha256(data).hexdigest())


def copy_once(path: Path, target: Path, *, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Copy the regular file at `path` to `target` (created, 0600) from one open, and return
    the sha256 of the bytes copied: `read_once` for files too large to hold in memory (the
    laboratory's closed log, a bundle's copies). The copy is no boundary against a process of
    the same user (module docstring); what rests on it says so (docs/attestation.md)."""
    fd, _ = _open_regular(path)
    digest = hashlib.sha256()
    try:
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(out, "wb") as handle:
            total = 0
            while chunk := os.read(fd, 1 << 20):
                total += len(chunk)
                if total > max_bytes:
                    raise ProvebenchError(f"larger than {max_bytes} bytes", path=path)
                digest.update(chunk)
                handle.write(chunk)
    except OSError as error:
        raise ProvebenchError(f"cannot read file: {error.strerror}", path=path) from None
    finally:
        os.close(fd)
    return digest.hexdigest()


__all__ = [
    "MAX_INPUT_BYTES",
    "HeldBytes",
    "copy_once",
    "key_folder_identities",
    "read_once",
]
