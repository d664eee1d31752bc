"""The laboratory's private folders: one per sealed cycle, per identification, per emulator.

Each is made by `mkdtemp` (mode 0700) inside one folder per user, `/tmp/provebench-private-UID`
(mode 0700, the user's own, never a link), and removed when its work is done. That one folder is
hidden from every sandbox wherever a shown folder holds it (`_policy.policy_for`): a mask over
it covers every laboratory's private folder, those made after the sandbox started included — an
emulator's socket and each cycle's service-account key (pilot red team round 16, A6: a candidate
shown the temporary folder reached another run's laboratory through its socket and key).

Its place does not follow `$TMPDIR`: a laboratory run with another `$TMPDIR` made its root
there, which no other laboratory knew of, and one inside a candidate's folder was sealed whole,
a service-account key included (pilot red team round 20, H5). One place per user on the
machine, whatever the environment, so every laboratory of the user hides the same root; and
the root holds a marker (`ROOT_MARKER`) by which a walk of a candidate's code refuses any
laboratory's root wherever it lies, renamed too (`_candidate.read_shown`).

A laboratory killed with SIGKILL cannot remove its own, so each name carries the process id
that made it, and the first private folder a process makes sweeps the folders whose process no
longer runs — only names of exactly the form it makes, `provebench-KIND-PID-XXXXXXXX`, only the
user's own real folders. A process id that was reused keeps a stale folder for a while longer,
never the other way round.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench._read_once import empty_folder
from provebench.sandbox._limits import process_gone

_PREFIX = "provebench-"
# Exactly what `private_folder` names: kind, process id, `mkdtemp`'s eight characters.
_NAME = re.compile(r"provebench-([a-z]+)-([0-9]+)-[a-z0-9_]{8}")
_swept = False
# Where every laboratory of a user keeps its private folders: the machine's temporary file
# system by its fixed name, never `$TMPDIR` (H5 above).
ROOT_PARENT = Path("/tmp")
# The file every private root holds: a walk of a candidate's code refuses a folder holding it.
ROOT_MARKER = ".provebench-private-root"
# The name of a root, made by this build or an earlier one (which made it in `$TMPDIR`, unmarked).
ROOT_NAME = re.compile(r"provebench-private-[0-9]+")


def private_root() -> Path:
    """The user's one folder of private folders, `/tmp/provebench-private-UID`: made mode 0700
    if missing, with its marker; refused in one line unless it is a real folder of the user's
    own (a link or another user's folder there would hand the keys to its owner)."""
    root = ROOT_PARENT / f"{_PREFIX}private-{os.getuid()}"
    try:
        root.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise ProvebenchError(
            f"cannot make the laboratory's private root: {error.strerror}", path=root
        ) from None
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        fd = os.open(root, flags)
    except OSError:  # a link or a file in its place
        fd = -1
    try:
        status = os.fstat(fd) if fd >= 0 else None
        if status is None or status.st_uid != os.getuid():
            raise ProvebenchError(
                "is not a folder of this user's own (the laboratory's private root); remove it",
                path=root,
            )
        if stat.S_IMODE(status.st_mode) != 0o700:  # made by a wider umask's mkdir, or widened
            os.fchmod(fd, 0o700)
        _mark(fd)
    finally:
        if fd >= 0:
            os.close(fd)
    return root


def _mark(root_fd: int) -> None:
    """Put the marker in the root held open (made once; never through a link at its name)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    with contextlib.suppress(FileExistsError):
        os.close(os.open(ROOT_MARKER, flags | os.O_EXCL, 0o600, dir_fd=root_fd))


def is_private_root(names: frozenset[str] | set[str], name: str) -> bool:
    """Whether a folder called `name` that holds `names` is a laboratory's private root: it
    holds the marker (any root of this build, renamed too), or bears a root's name (one of an
    earlier build, made unmarked)."""
    return ROOT_MARKER in names or ROOT_NAME.fullmatch(name) is not None


def private_folder(kind: str, parent: Path | None = None) -> Path:
    """A new private folder `provebench-KIND-PID-XXXXXXXX` (in `parent`, or `private_root()`)."""
    global _swept
    if parent is None:
        parent = private_root()
        if not _swept:
            _swept = True
            sweep_stale_folders(parent)
            # Left by a laboratory from before the private root: its keys and socket.
            sweep_stale_folders(parent.parent)
            sweep_stale_folders(Path(tempfile.gettempdir()))
    return Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{kind}-{os.getpid()}-", dir=parent))


def working_folder(kind: str) -> Path:
    """A new folder `KIND-XXXXXXXX` in `private_root()` for a laboratory's working output the user
    reads afterwards (`pilot redteam` or `pilot serve` without `--out`): hidden from every
    candidate with the root, never loose in `$TMPDIR`, where a candidate shown that folder read
    a concurrent red team's corpora (pilot red team round 18, A3). Not of the form a sweep
    removes: it stays until its user removes it."""
    return Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=private_root()))


def sweep_stale_folders(root: Path) -> list[Path]:
    """Remove the private folders in `root` whose process no longer runs; the ones removed."""
    removed: list[Path] = []
    uid = os.getuid()
    for entry in sorted(root.glob(f"{_PREFIX}*-*-*")):
        form = _NAME.fullmatch(entry.name)
        if form is None:
            continue
        try:
            ours = entry.is_dir() and not entry.is_symlink() and entry.lstat().st_uid == uid
        except OSError:
            continue
        if ours and process_gone(int(form.group(2))):
            remove_private_folder(entry)
            removed.append(entry)
    return removed


def remove_private_folder(folder: Path) -> None:
    """Remove a private folder and everything in it, read-only folders too (a snapshot of a
    candidate's code is made read-only, and a folder without write permission keeps its
    entries from `rmtree`). The folder is opened with no link followed and emptied through
    descriptors (`empty_folder`): a link put at its name, or at a subfolder's, is never
    followed, so no victim's folder is made writable or emptied (red team round 14b, B2: the
    walk chmodded by path after the snapshot was swapped for a link, and the sweep's own
    `is_symlink` check came before its use). A folder that is not the laboratory's user's is
    left alone."""
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        fd = os.open(folder, flags)
    except OSError:  # gone, or a link or file in its place: nothing of ours to remove
        return
    try:
        if os.fstat(fd).st_uid != os.getuid():
            return
        os.fchmod(fd, 0o700)
        empty_folder(fd, ignore_errors=True)
    except OSError:
        pass
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):  # a link put at its name now is not a folder: kept
        folder.rmdir()


__all__ = [
    "ROOT_MARKER",
    "ROOT_PARENT",
    "is_private_root",
    "private_folder",
    "private_root",
    "remove_private_folder",
    "sweep_stale_folders",
    "working_folder",
]
