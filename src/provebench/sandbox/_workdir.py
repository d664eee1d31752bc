"""The size check of a candidate's work directory after its cycle (docs/sandbox.md, 'Limits').

One file is bounded while it is written (`RLIMIT_FSIZE`); the folder as a whole is measured when
the cycle ends, and a folder over the limit is not carried into the next cycle (the cycle's
`agent_error` says so). Links are counted as links, never followed. The measure counts what a
copy writes — each file's apparent size under each of its names, and `ENTRY_COST_BYTES` an
entry — and the entries themselves (`Limits.work_dir_entries`); the launch takes the same
measure of `/sandbox` before it copies anything back to the host (`_launch._copy_back`; sandbox
red team 44, G1-1 … G1-3).

A name in the folder that is not UTF-8 is refused the same way when the cycle ends (pilot red
team 36, A9): the run's record names work/'s files in UTF-8 JSON (run.json, the log's
listings), which cannot hold such a name, so a file named `bad\xff` left by the candidate
stopped `pilot run` with an internal error and no run.json. The candidate's code folder is
refused for the same reason (`_candidate.py`, "a name in the candidate's code is not UTF-8").

So is a name holding a character no reader reads as stored (pilot red team 37, H3): a control,
DELETE, a bidi control, tab, newline or a line separator (`_unreadable.unreadable_name_character`,
the rule the laboratory applies to a report's text, a name being one line). The names of work/'s
files are published (run.json's `files_sha256`, the in-toto subjects of run.dsse.json): a name
`esc\\x1b[2J\\r\\nstatus,imported` or `\\u202eevil` showed a reader of the record other text than
it holds. The cycle's `agent_error` is `WorkDirectoryNameUnreadable`, naming the first such path
escaped and the character.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from provebench._errors import ProvebenchError, shown
from provebench._read_once import copy_tree_once, empty_folder, open_folder
from provebench._unreadable import unreadable_name_character
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
    """A private folder for one sealed cycle, removed afterwards: the launch copies it into the
    sandbox's `/sandbox`, a tmpfs of the work limit, and back when the launch ends (sandbox red
    team 43, G2-1: the writes are bounded while they happen; the size is checked here again, as
    links are counted). Its `work/`
    starts as a copy of the importer's work directory — checked by `guard` after copying, so
    that what the candidate is given is what the laboratory committed, whatever was written in
    the run folder meanwhile (red team round 10, A6) — and is carried back when the cycle ends —
    however it ends, as an in-process importer's own directory would keep what it wrote — unless
    it grew over the limit or holds a name that is not UTF-8 or holds an unreadable character:
    then it is dropped, work/ stays what
    was committed, and the cycle fails with `CandidateFailed`."""
    folder = private_folder("cycle", parent)
    try:
        copy_tree(work_dir, folder / "work")
        if guard is not None:
            guard.check_copy(folder / "work")
        try:
            yield folder
        finally:
            # Paths bounded by what the host names under this folder and under the run's work
            # directory, both read by path on the host (sandbox red team 46, F2).
            refused = work_dir_refused(folder / "work", limits, kept_at=work_dir)
            if refused is None:
                if guard is not None:
                    guard.keep(folder / "work")
                replace_tree(work_dir, folder / "work")
        if refused is not None:
            raise CandidateFailed(*refused)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# What each entry — a file, folder, link or anything else — costs in the measure besides its
# bytes: a name is an inode and a directory entry wherever it is copied. Counted by `lstat`'s size
# alone, 200 000 empty files with long names held about 4 MiB (a tmpfs folder's size is 20 bytes an
# entry) and were carried to the host's disk, 1.3 million inodes in three cycles (sandbox red team
# 44, G1-1). A folder's own size is not counted: it differs between the tmpfs and the host's disk.
ENTRY_COST_BYTES = 4096


# How deep the folders of a measured tree may nest: a tree past it is refused before anything is
# copied, as one over the size limit. The laboratory's readers, copiers and listings of a work
# folder go one level at a time (`read_tree_once`, `TreeWriter`, `work_listing`): a chain of 3 000
# nested folders passed the measure and then failed the copy back with a `RecursionError`, shown
# as a missing folder (sandbox red team 45, A3). An honest work folder nests a few levels.
MAX_TREE_DEPTH = 64
# Linux's PATH_MAX, the terminating NUL included: the longest path a system call takes. The host
# side names a kept work folder's files by their full path in places (`work_listing`), so a path
# in the tree may be at most what the host can create under the folder it is copied to:
# `tree_path_bound`. It was a fixed 1024 bytes, a quarter of that, which refused an honest importer
# mirroring five levels of Drive folder titles (~1 080 bytes) every cycle (sandbox red team 46,
# F2); names past PATH_MAX are still refused before they are copied (red team 45, A1).
PATH_MAX_BYTES = 4096


def tree_path_bound(root: Path) -> int:
    """The longest path, in bytes from `root`, that the host can name under `root`: PATH_MAX
    less `root`'s own path, the separator after it and the terminating NUL."""
    return PATH_MAX_BYTES - len(os.fsencode(root.absolute())) - 2


@dataclass(frozen=True)
class TreeMeasure:
    """What a folder's copy would write: `entries` (every name under it, at any depth) and
    `size` (each regular file's and link's apparent size, once per name, plus
    `ENTRY_COST_BYTES` an entry). A sparse file counts its apparent size and a hard link counts
    again under each name — what a copy writes (sandbox red team 44, G1-2 and G1-3). A walk
    stops once either is over `limits`, or a folder nests deeper than `MAX_TREE_DEPTH`
    (`too_deep`) or a path is longer than the bound it was given (`too_long`, that bound in
    bytes): `over` says so, and the counts are then partial."""

    entries: int
    size: int
    over: bool
    too_deep: bool = False
    too_long: int | None = None


def measure_held(fd: int, limits: Limits, max_path_bytes: int) -> TreeMeasure:
    """Measure the folder held by `fd` (the caller keeps it) through held descriptors of its
    folders, opened with no link followed; nothing is read or followed, and the walk stops as
    soon as the work limit, the entry limit or the depth limit is passed, so a flood of names is
    not walked to its end. An entry that vanishes or changes while it is walked is refused in
    one line (`ProvebenchError`): a folder is measured when no process writes it any more.

    Depth first, one descriptor a level: a folder's names are listed and its listing closed
    before any is walked, and a subfolder is opened only when it is walked (sandbox red team 45,
    F1/A2: each listed subfolder was opened at once, so 1 200 sibling folders under a common
    `ulimit -n` of 1024 failed every cycle of an honest importer with `EMFILE`). At most
    `MAX_TREE_DEPTH` + 1 descriptors are held, whatever the tree's breadth. A path from the
    folder longer than `max_path_bytes` (`tree_path_bound` of where it is copied) stops it."""
    max_size, max_entries = limits.work_dir_mib * MIB, limits.work_dir_entries
    entries = size = 0
    # The folders being walked, outermost first: (held descriptor, the names of its subfolders
    # not walked yet, its path's length in bytes from the measured folder).
    stack: list[tuple[int, list[bytes], int]] = []
    try:
        folder, name, length = os.dup(fd), b".", 0
        while True:
            stack.append((folder, [], length))
            count, counted, names = _measure_listing(folder, os.fsdecode(name))
            stack[-1] = (folder, names, length)
            entries, size = entries + count, size + counted
            if entries > max_entries or size > max_size:
                return TreeMeasure(entries, size, over=True)
            while stack and not stack[-1][1]:
                os.close(stack.pop()[0])
            if not stack:
                return TreeMeasure(entries, size, over=False)
            parent, subfolders, parent_length = stack[-1]
            name = subfolders.pop()
            length = parent_length + len(name) + 1  # a separator a level
            if len(stack) > MAX_TREE_DEPTH:
                return TreeMeasure(entries, size, over=True, too_deep=True)
            if length > max_path_bytes:
                return TreeMeasure(entries, size, over=True, too_long=max_path_bytes)
            folder = open_folder(Path(os.fsdecode(name)), dir_fd=parent)
    finally:
        for held, _, _ in stack:
            os.close(held)


def _measure_listing(folder: int, shown_as: str) -> tuple[int, int, list[bytes]]:
    """The entries of the held `folder`, what they count (`ENTRY_COST_BYTES` each, and each
    regular file's and link's apparent size) and its subfolders' names, in reverse byte order
    (walked from the end of the list: in byte order). The listing is closed when this returns."""
    entries = size = 0
    names: list[bytes] = []
    try:
        with os.scandir(folder) as listing:
            for entry in listing:
                entries += 1
                size += ENTRY_COST_BYTES
                info = os.stat(entry.name, dir_fd=folder, follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    names.append(os.fsencode(entry.name))
                elif stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode):
                    size += info.st_size
    except OSError as error:
        said = f"cannot measure folder: {error.strerror}"
        raise ProvebenchError(said, path=Path(str(error.filename or shown_as))) from None
    names.sort(reverse=True)
    return entries, size, names


def measure_tree(root: Path, limits: Limits, kept_at: Path | None = None) -> TreeMeasure:
    """`measure_held` of the folder at `root`, opened with no link followed, its paths bounded
    by what the host can name under `root` and under `kept_at`, where it is copied to
    (`tree_path_bound`)."""
    bound = tree_path_bound(root)
    if kept_at is not None:
        bound = min(bound, tree_path_bound(kept_at))
    held = open_folder(root)
    try:
        return measure_held(held, limits, bound)
    finally:
        os.close(held)


def tree_bytes(root: Path) -> int:
    """The measured size of the folder at `root` (`TreeMeasure.size`), walked to its end."""
    unbounded = Limits(work_dir_mib=1 << 40, work_dir_entries=1 << 62)
    return measure_tree(root, unbounded).size


def over_limit_message(measure: TreeMeasure, limits: Limits, what: str) -> str | None:
    """None when `measure` is within `limits`, else the agent_error message naming the limit
    passed (`what` names the folder)."""
    if not measure.over:
        return None
    if measure.too_deep:
        return (
            f"{what} holds folders nested deeper than {MAX_TREE_DEPTH} levels, over the limit "
            "(MAX_TREE_DEPTH); it was not kept"
        )
    if measure.too_long is not None:
        return (
            f"{what} holds a path longer than {measure.too_long} bytes, the longest the host "
            f"can name where it is kept (PATH_MAX, {PATH_MAX_BYTES} bytes, less the path of the "
            "folder it is kept in); it was not kept"
        )
    if measure.entries > limits.work_dir_entries:
        return (
            f"{what} holds more than {limits.work_dir_entries} entries (files, folders and "
            f"links), over the limit of {limits.work_dir_entries} entries "
            "(Limits.work_dir_entries); it was not kept"
        )
    return (
        f"{what} holds over {measure.size // MIB} MiB (each file's apparent size under each of "
        f"its names, and {ENTRY_COST_BYTES} bytes an entry), over the {limits.work_dir_mib} MiB "
        "limit; it was not kept"
    )


def work_dir_refused(
    root: Path, limits: Limits, kept_at: Path | None = None
) -> tuple[str, str] | None:
    """None when the cycle's `root` may be kept (copied to `kept_at`), else the agent_error
    (type, message) that says why not."""
    oversized = work_dir_over_limit(root, limits, kept_at)
    if oversized is not None:
        return "WorkDirectoryTooLarge", oversized
    name = name_not_utf8(root)
    if name is not None:
        return "WorkDirectoryNameNotUtf8", (
            f"the work directory holds a name that is not UTF-8 (work/{name}); it was not kept"
        )
    unreadable = name_unreadable(root)
    if unreadable is not None:
        path, character = unreadable
        return "WorkDirectoryNameUnreadable", (
            f"the work directory holds a name with the control character {character} "
            f"(work/{path}); it was not kept"
        )
    return None


def name_unreadable(root: Path) -> tuple[str, str] | None:
    """The first path under `root` (in byte order) whose name holds a character no reader reads
    as stored (`unreadable_name_character`), escaped, and that character as `U+XXXX`; None when
    there is none. Every name is UTF-8 here (`name_not_utf8` is asked first). Links are not
    followed."""
    found: list[tuple[bytes, str]] = []
    for path, name in _names_held(root):
        character = unreadable_name_character(name)
        if character is not None:
            found.append((path, character))
    if not found:
        return None
    path, character = min(found)
    return shown(os.fsdecode(path)), character


def name_not_utf8(root: Path) -> str | None:
    """The first path under `root` (in byte order) whose name is not UTF-8, its bytes that are
    not written as `\\xNN` and its controls escaped; None when every name is UTF-8. Links are
    not followed."""
    found: list[bytes] = []
    for path, name in _names_held(root):
        try:
            os.fsencode(name).decode("utf-8")
        except UnicodeDecodeError:
            found.append(path)
    if not found:
        return None
    return shown(min(found).decode("utf-8", "backslashreplace"))


def _names_held(root: Path) -> Iterator[tuple[bytes, str]]:
    """Every name under `root` at any depth, with its path from `root` (bytes), walked through
    held descriptors of its folders opened with no link followed, one a level. Nothing is
    skipped: a folder that cannot be read is refused in one line naming its path under `work/`,
    never the laboratory's private folder (sandbox red team 45, A1: `os.walk` ignored errors, so
    names under a path past PATH_MAX were never checked, and the refusal that came by chance
    named the laboratory's /tmp path). The depth is bounded by the measure asked first
    (`work_dir_refused`, `MAX_TREE_DEPTH`)."""
    stack: list[tuple[int, bytes, list[tuple[bytes, str]]]] = []
    try:
        folder, prefix = open_folder(root), b""
        while True:
            stack.append((folder, prefix, []))
            subfolders: list[tuple[bytes, str]] = []
            try:
                with os.scandir(folder) as listing:
                    for entry in listing:
                        path = prefix + os.fsencode(entry.name)
                        yield path, entry.name
                        if entry.is_dir(follow_symlinks=False):
                            subfolders.append((path, entry.name))
            except OSError as error:
                where = Path("work", os.fsdecode(prefix)) if prefix else Path("work")
                raise ProvebenchError(f"cannot read folder: {error.strerror}", path=where) from None
            subfolders.sort(reverse=True)
            stack[-1] = (folder, prefix, subfolders)
            while stack and not stack[-1][2]:
                os.close(stack.pop()[0])
            if not stack:
                return
            parent, _, pending = stack[-1]
            path, name = pending.pop()
            folder, prefix = (
                open_folder(Path("work", os.fsdecode(path)), dir_fd=parent, name=name),
                path + b"/",
            )
    finally:
        for held, _, _ in stack:
            os.close(held)


def work_dir_over_limit(root: Path, limits: Limits, kept_at: Path | None = None) -> str | None:
    """None when `root` is within the limits (`measure_tree`), else the agent_error message."""
    return over_limit_message(measure_tree(root, limits, kept_at), limits, "the work directory")


__all__ = [
    "ENTRY_COST_BYTES",
    "MAX_TREE_DEPTH",
    "PATH_MAX_BYTES",
    "TreeMeasure",
    "WorkFolderGuard",
    "copy_tree",
    "cycle_folder",
    "measure_held",
    "measure_tree",
    "name_not_utf8",
    "name_unreadable",
    "over_limit_message",
    "replace_tree",
    "tree_bytes",
    "tree_path_bound",
    "work_dir_over_limit",
    "work_dir_refused",
]
