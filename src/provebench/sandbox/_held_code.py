"""A run's snapshot of a candidate's code, held in sealed memory and shown from it (red team
round 10, A10; docs/attestation.md, "What runs is what was identified").

A copy of the code in a folder of the laboratory's user protects nothing from that user: a
read-only mode is a `chmod` its owner undoes. So, once the run's snapshot is taken and its
listing digested into the run's identity, every file of the snapshot is read once into a
`memfd`, its bytes checked against the listing, and the memfd sealed (`F_SEAL_WRITE`,
`F_SEAL_SHRINK`, `F_SEAL_GROW`, then `F_SEAL_SEAL`): nobody, the laboratory included, can change
those bytes afterwards. The folder on disk is removed. At every launch bubblewrap copies each
file from its memfd into the sandbox's own file system (`--file`, or `--ro-bind-data` for a code
path that is one file), rebuilds the folders and links as listed, and makes the code read-only
there (`--remount-ro`): no path outside the sandbox holds the bytes a candidate runs.

The laboratory is not dumpable (`_protect`), so no process of its user can open its memfds
through `/proc/PID/fd` nor read its memory. What such a process can still reach is a sandbox
while it runs (docs/sandbox.md, "Trust boundary").
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import resource
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from provebench._errors import ProvebenchError
from provebench.sandbox._candidate import FOLDER_ENTRY
from provebench.sandbox._protect import protect_laboratory

Listing = list[tuple[str, str]]

_SEALS = fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL
# File descriptors a launch needs besides the code's (bwrap's status pipe, the channel, stdio).
_FD_MARGIN = 256
# bubblewrap parses at most 9,000 arguments in all, those it reads through `--args FD` included
# (its MAX_ARGS): `--args` does not lift the limit. Held code is rebuilt by arguments, a few an
# entry (`mount_args`), so the code may take `MAX_CODE_ARGUMENTS` of them; the launch's own
# options (isolation, the system, the masks, the interpreter) and the command have the rest.
BWRAP_MAX_ARGUMENTS = 9000
MAX_CODE_ARGUMENTS = 8000
# A shown folder's `--perms 555 --tmpfs PATH` and `--remount-ro PATH`; a shown file's
# `--perms MODE --ro-bind-data FD PATH` is one fewer.
_SHOWN_PATH_ARGUMENTS = 6
_ENTRY_ARGUMENTS = {"folder": 2, "exec": 5, "file": 3, "link": 3}


@dataclass(frozen=True)
class _Held:
    relative: str  # below the shown path ("" for a shown path that is one file)
    kind: str  # "folder", "file" or "link"
    mode: int = 0
    fd: int = -1  # a file's sealed memfd
    target: str = ""  # a link's target


class HeldCode:
    """Every shown path's snapshot, in sealed memory: where the sandbox shows it, and its
    entries in listing order (a folder before what it holds)."""

    def __init__(self, roots: dict[Path, tuple[bool, tuple[_Held, ...]]]) -> None:
        self._roots = roots
        self._closed = False

    def __contains__(self, shown: object) -> bool:
        return shown in self._roots

    @property
    def shown(self) -> tuple[Path, ...]:
        return tuple(self._roots)

    def mount_args(self, shown: Path, opened: list[int]) -> list[str]:
        """bwrap's options that rebuild `shown` from memory; each file's memfd is opened anew
        (its own offset, read from the start by bwrap) and added to `opened`, for the caller
        to pass to bwrap and close once it started."""
        if self._closed:  # never the folder instead: a launch after the run ended is a bug
            raise RuntimeError("the run's held code was released")
        is_file, entries = self._roots[shown]
        if is_file:
            (entry,) = entries
            return ["--perms", f"{entry.mode:o}", "--ro-bind-data", _reopen(entry, opened),
                    str(shown)]  # fmt: skip
        # As few arguments an entry as bubblewrap allows (`launch_arguments`): no mode for a
        # folder (0755) nor a plain file (0666), since the whole tree is remounted read-only
        # once filled (`read_only_args`) and no mode lets anything write there; an executable
        # file keeps its execute bits (0555), which decide what the candidate can run.
        args = ["--perms", "555", "--tmpfs", str(shown)]
        for entry in entries:
            where = f"{shown}/{entry.relative}"
            if entry.kind == "folder":
                args += ["--dir", where]
            elif entry.kind == "link":
                args += ["--symlink", entry.target, where]
            elif entry.mode & stat.S_IXUSR:
                args += ["--perms", "555", "--file", _reopen(entry, opened), where]
            else:
                args += ["--file", _reopen(entry, opened), where]
        return args

    def read_only_args(self) -> list[str]:
        """Last of a launch's options: every shown folder read-only, with everything put in it
        (a hidden path's mask included)."""
        args: list[str] = []
        for shown, (is_file, _) in self._roots.items():
            if not is_file:
                args += ["--remount-ro", str(shown)]
        return args

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for _, entries in self._roots.values():
            for entry in entries:
                if entry.fd >= 0:
                    os.close(entry.fd)


def launch_arguments(listing: Listing, shown: int) -> int:
    """The most bubblewrap arguments that showing this code from memory takes (`mount_args`
    and `read_only_args`), from its listing alone: so a seal and every launch of its code count
    the same (`shown`: how many paths the code is shown at)."""
    total = _SHOWN_PATH_ARGUMENTS * shown
    for _, entry in listing:
        total += _ENTRY_ARGUMENTS[entry.partition(":")[0]]
    return total


def check_launchable(listing: Listing, shown: Sequence[Path], *, field: str) -> None:
    """One line, before anything runs, when no sandbox can show this code: it needs more of
    bubblewrap's arguments than a launch has for code (at `pilot seal`, and for every run's
    snapshot: a seal never succeeds for code no run of it can launch)."""
    needed = launch_arguments(listing, len(shown))
    if needed > MAX_CODE_ARGUMENTS:
        where = ", ".join(str(path) for path in shown)
        raise ProvebenchError(
            f"the candidate's code under {where} is {len(listing)} files, folders and links, "
            f"which need {needed} sandbox arguments, over the limit of {MAX_CODE_ARGUMENTS} "
            "(3 a file or link, 5 an executable file, 2 a folder: about 2,600 files); "
            "give the candidate fewer files",
            field=field,
        )


def _reopen(entry: _Held, opened: list[int]) -> str:
    fd = os.open(f"/proc/self/fd/{entry.fd}", os.O_RDONLY | os.O_CLOEXEC)
    opened.append(fd)
    return str(fd)


def hold_code(
    shown: Sequence[Path], roots: Sequence[Path], listing: Listing, *, field: str
) -> HeldCode:
    """Read the snapshot under `roots` (one per shown path) into sealed memory, each file once,
    and check what was read against `listing` (the snapshot's, as the run's identity digests
    it): one line naming the first entry that differs — the snapshot was changed after it was
    taken."""
    from provebench.sandbox._policy import absolute  # the policy's spelling of a shown path

    protect_laboratory()  # no process of this user may open the memfds through /proc/PID/fd
    check_launchable(listing, shown, field=field)
    _room_for(len(listing), field)
    held: dict[Path, tuple[bool, tuple[_Held, ...]]] = {}
    read: Listing = []
    made: list[_Held] = []  # every entry held so far: released if anything fails
    try:
        for index, (path, root) in enumerate(zip(shown, roots, strict=True)):
            is_file = not stat.S_ISDIR(root.lstat().st_mode)
            found = [("", root)] if is_file else _walk(root)
            start = len(made)
            for relative, where in found:
                made.append(
                    _hold_file(where, "", field) if is_file else _hold(where, relative, field)
                )
                name = root.name if is_file else relative
                read.append((f"{index}/{name}", _entry_of(made[-1])))
            held[absolute(path)] = (is_file, tuple(made[start:]))
    except BaseException as error:
        HeldCode({Path(): (False, tuple(made))}).close()
        if isinstance(error, OSError):  # a folder or link of the snapshot gone or unreadable
            raise ProvebenchError(
                "the run's snapshot of the candidate's code was changed after it was "
                f"identified ({error.strerror}); the run is stopped",
                path=error.filename, field=field,
            ) from None  # fmt: skip
        raise
    code = HeldCode(held)
    if read != listing:
        code.close()
        changed = _first_difference(read, listing)
        raise ProvebenchError(
            f"the run's snapshot of the candidate's code was changed after it was identified "
            f"({changed}); the run is stopped",
            field=field,
        )
    return code


def _walk(root: Path) -> list[tuple[str, Path]]:
    """Every entry below `root`, links unfollowed, by relative name (the listing's order)."""
    found: list[tuple[str, Path]] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        for entry in os.scandir(folder):
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                stack.append(path)
            found.append((path.relative_to(root).as_posix(), path))
    return sorted(found)


def _hold(path: Path, relative: str, field: str) -> _Held:
    mode = path.lstat().st_mode
    if stat.S_ISDIR(mode):
        return _Held(relative, "folder")
    if stat.S_ISLNK(mode):
        return _Held(relative, "link", target=str(path.readlink()))
    return _hold_file(path, relative, field)


def _hold_file(path: Path, relative: str, field: str) -> _Held:
    """The file's bytes, read once through one descriptor (a link swapped in is refused), into
    a sealed memfd."""
    try:
        # Non-blocking: a FIFO put in its place is refused below, never waited on.
        source = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the run's snapshot of the candidate's code: {error.strerror}",
            path=path, field=field,
        ) from None  # fmt: skip
    try:
        info = os.fstat(source)
        if not stat.S_ISREG(info.st_mode):
            raise ProvebenchError(
                "the run's snapshot of the candidate's code was changed after it was identified",
                path=path, field=field,
            )  # fmt: skip
        memfd = os.memfd_create(
            f"code:{relative or path.name}", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING
        )
        try:
            while chunk := os.read(source, 1 << 20):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(memfd, view) :]
            fcntl.fcntl(memfd, fcntl.F_ADD_SEALS, _SEALS)
        except BaseException:
            os.close(memfd)
            raise
    finally:
        os.close(source)
    executable = info.st_mode & stat.S_IXUSR
    return _Held(relative, "file", 0o555 if executable else 0o444, memfd)


def _entry_of(entry: _Held) -> str:
    """The listing's entry for what was held (`_candidate._entry`), from memory."""
    if entry.kind == "folder":
        return FOLDER_ENTRY
    if entry.kind == "link":
        return "link:" + hashlib.sha256(os.fsencode(entry.target)).hexdigest()
    digest = hashlib.sha256()
    offset = 0
    while chunk := os.pread(entry.fd, 1 << 20, offset):  # the memfd's bytes, as sealed
        digest.update(chunk)
        offset += len(chunk)
    kind = "exec" if entry.mode & stat.S_IXUSR else "file"
    return f"{kind}:{digest.hexdigest()}"


def _first_difference(read: Listing, listing: Listing) -> str:
    found, expected = dict(read), dict(listing)
    for name in sorted(found.keys() | expected.keys()):
        if found.get(name) != expected.get(name):
            _, _, relative = name.partition("/")
            return relative
    return "the order of its entries"


def _room_for(files: int, field: str) -> None:
    """Each file is one memfd, and one more descriptor while a launch starts: raise the soft
    limit on open files as far as the hard one allows, else refuse in one line."""
    needed = 2 * files + _FD_MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise ProvebenchError(
                f"the candidate's code is {files} files; holding them needs {needed} open "
                f"files, over this system's limit of {hard}",
                field=field,
            )
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


__all__ = [
    "BWRAP_MAX_ARGUMENTS",
    "MAX_CODE_ARGUMENTS",
    "HeldCode",
    "check_launchable",
    "hold_code",
    "launch_arguments",
]
