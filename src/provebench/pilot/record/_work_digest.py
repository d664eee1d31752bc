"""The digest of the importer's work directory, recorded in the log with each committed cycle.

The laboratory restores work/ from a checkpoint snapshot when a run resumes (docs/pilot-lab.md,
"Crash safety"). The snapshot is a plain folder beside the log, so without a record of what it
held, whoever resumes a run could change what the importer finds there (its journal, a mode
switch) and the published run would not show it. Each `cycle_confirmed` entry therefore carries
`work_sha256`, the digest of work/ as the cycle left it — exactly what the next cycle's snapshot
copies — and a resume verifies the snapshot (or work/ itself) against it before anything runs
(pilot §6: the log is the record; everything else is derived from it or checked against it).

The digest covers what a snapshot copies (`RunDir.snapshot_work`): folders, regular files and
symbolic links, by relative path in byte order, with each one's permission bits, a file's bytes
and a link's target. A FIFO, socket or device is not copied and not digested. Timestamps are left
out: a restore does not keep them exactly, and the importer's behaviour must not depend on them.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from provebench._errors import ProvebenchError

# The digest of an empty work directory: work/ at the start of cycle 1.
EMPTY_WORK_SHA256 = hashlib.sha256().hexdigest()

_CHUNK = 1 << 20


# One entry of a work directory as digested: (kind, mode, relative path, content) — a file's
# content is the hex digest of its bytes, a link's its target, a folder's nothing.
WorkEntry = tuple[bytes, bytes, bytes, bytes]
WorkListing = tuple[WorkEntry, ...]


def work_tree_sha256(root: Path) -> str:
    """The digest of the folder `root`'s contents (not of `root` itself). An entry that cannot be
    read is one error naming it."""
    return listing_sha256(work_listing(root))


def work_listing(root: Path) -> WorkListing:
    """What `work_tree_sha256` digests, entry by entry: kept in memory by the laboratory between
    cycles, so that a copy can be compared with it and the first entry that differs named."""
    listing: list[WorkEntry] = []
    for relative, entry, info in _entries(root, b""):
        kind = _kind(info.st_mode)
        if kind is None:
            continue
        if kind == b"f":
            content = _file_sha256(entry)
        elif kind == b"l":
            content = _read_link(entry)
        else:
            content = b""
        mode = b"" if kind == b"l" else b"%o" % stat.S_IMODE(info.st_mode)
        listing.append((kind, mode, relative, content))
    return tuple(listing)


def listing_sha256(listing: WorkListing) -> str:
    """The digest of a work listing (`work_tree_sha256` of the folder it was read from)."""
    digest = hashlib.sha256()
    for kind, mode, relative, content in listing:
        # Each field length-prefixed: no two different trees give the same stream.
        for field in (kind, mode, relative, content):
            digest.update(b"%d:" % len(field))
            digest.update(field)
    return digest.hexdigest()


def first_difference(found: WorkListing, expected: WorkListing) -> str | None:
    """The relative path of the first entry (in byte order) that is in one listing and not as
    it is in the other; None when they are equal."""
    if found == expected:
        return None
    by_path = {entry[2]: entry for entry in found}
    wanted = {entry[2]: entry for entry in expected}
    for relative in sorted(by_path.keys() | wanted.keys()):
        if by_path.get(relative) != wanted.get(relative):
            return os.fsdecode(relative)
    return ""  # the same entries in another order: not from `work_listing`


def _entries(folder: Path, prefix: bytes) -> list[tuple[bytes, Path, os.stat_result]]:
    """Every entry under `folder`, depth first, names in byte order; links are not followed."""
    try:
        names = sorted(os.fsencode(entry.name) for entry in folder.iterdir())
    except OSError as error:
        raise ProvebenchError(f"cannot read: {error.strerror}", path=folder) from error
    found: list[tuple[bytes, Path, os.stat_result]] = []
    for name in names:
        entry = folder / os.fsdecode(name)
        relative = prefix + name
        try:
            info = entry.lstat()
        except OSError as error:
            raise ProvebenchError(f"cannot read: {error.strerror}", path=entry) from error
        found.append((relative, entry, info))
        if stat.S_ISDIR(info.st_mode):
            found.extend(_entries(entry, relative + b"/"))
    return found


def _kind(mode: int) -> bytes | None:
    if stat.S_ISDIR(mode):
        return b"d"
    if stat.S_ISREG(mode):
        return b"f"
    if stat.S_ISLNK(mode):
        return b"l"
    return None


def _file_sha256(path: Path) -> bytes:
    digest = hashlib.sha256()
    try:
        # O_NOFOLLOW: the entry was a regular file by lstat; a link swapped in is refused.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except OSError as error:
        raise ProvebenchError(f"cannot read: {error.strerror}", path=path) from error
    return digest.hexdigest().encode("ascii")


def _read_link(path: Path) -> bytes:
    try:
        return os.fsencode(str(path.readlink()))
    except OSError as error:
        raise ProvebenchError(f"cannot read: {error.strerror}", path=path) from error


__all__ = [
    "EMPTY_WORK_SHA256",
    "WorkListing",
    "first_difference",
    "listing_sha256",
    "work_listing",
    "work_tree_sha256",
]
