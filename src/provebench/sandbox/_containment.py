"""Is this path inside that one? Decided by what the file system says, never by spelling.

bubblewrap binds the folder a path *resolves* to, so a secret spelled through a symbolic link
(`/home/op/link/corpus`, the link leading into the candidate's code folder), or a code folder
spelled through one, is exactly as visible as its real path: a decision made by comparing the
spellings hides the wrong place (docs/sandbox.md, "Containment by identity"). Here a path lies
inside a folder when one of its real path's ancestors *is* the folder — the same `(st_dev,
st_ino)` — which also holds across bind mounts and for a file's hard links.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePath, PurePosixPath

FileIdentity = tuple[int, int]


def real_path(path: str | Path) -> Path:
    """`path` with every symbolic link followed, as far as it exists (the rest as written)."""
    return Path(os.path.realpath(path))


def identity_of(path: str | Path) -> FileIdentity | None:
    """The `(st_dev, st_ino)` `path` leads to, links followed; None when it leads nowhere."""
    try:
        status = Path(path).stat()
    except (OSError, ValueError):
        return None
    return status.st_dev, status.st_ino


def place_inside(path: str | Path, folder: str | Path) -> PurePosixPath | None:
    """Where `path` lies inside `folder`, relative to it (`.` when it is the folder itself), by
    identity; None when it does not lie there. A path that does not exist yet (a run folder
    about to be made) lies where its nearest existing ancestor does."""
    wanted = identity_of(folder)
    if wanted is None:
        return None
    # Strings, not `Path`s: the sandbox policy asks this hundreds of times per launch, each over
    # every ancestor, and building a `Path` per ancestor cost more than the `stat` itself.
    target = os.path.realpath(path)
    ancestor = target
    while True:
        if _identity_of_real(ancestor) == wanted:
            below = target[len(ancestor) :].lstrip(os.sep)
            return PurePosixPath(below or ".")
        parent = os.path.dirname(ancestor)  # noqa: PTH120 (cost)
        if parent == ancestor:  # the root, or `//`: no ancestor left
            return None
        ancestor = parent


def _identity_of_real(path: str) -> FileIdentity | None:
    """`identity_of` for a real, absolute path (never empty): `os.stat` on the string."""
    try:
        status = os.stat(path)  # noqa: PTH116 (cost)
    except (OSError, ValueError):
        return None
    return status.st_dev, status.st_ino


def linked_files(
    paths: Iterable[str | Path], *, pruned: Iterable[str | Path] = ()
) -> dict[FileIdentity, Path]:
    """Every file under `paths` that has other names (`st_nlink > 1`), by identity: a hard link
    of a secret placed in a shown folder is the secret itself, and no mask over the secret's own
    name covers it (docs/sandbox.md, "Hard links"). Only files with other names are kept, so a
    shown folder needs checking only when this is not empty. No file under a `pruned` folder
    (what every sandbox is shown anyway: the held bytecode) is looked at."""
    return _files_by_identity(paths, only_linked=True, pruned=pruned)


def files_by_identity(
    paths: Iterable[str | Path], *, pruned: Iterable[str | Path] = ()
) -> dict[FileIdentity, Path]:
    """Every regular file under `paths` (a path that is a file: itself), by identity, whatever
    its number of names: what a reader of shown code compares each file it opened with, since a
    hard link made, or a file renamed in, after the hidden paths were looked at has no other
    name yet when they are (red team round 13c, A1). Not under a `pruned` folder."""
    return _files_by_identity(paths, only_linked=False, pruned=pruned)


def _files_by_identity(
    paths: Iterable[str | Path], *, only_linked: bool, pruned: Iterable[str | Path]
) -> dict[FileIdentity, Path]:
    """Strings, not `Path`s, for the walk: a private root holds tens of thousands of files."""
    left_out = {os.path.realpath(folder) for folder in pruned}
    found: dict[FileIdentity, Path] = {}
    for given in paths:
        root = os.path.realpath(given)
        for path in _files_under(root, left_out):
            try:
                status = os.lstat(path)
            except OSError:
                continue
            identity = (status.st_dev, status.st_ino)
            if (
                stat.S_ISREG(status.st_mode)
                and (status.st_nlink > 1 or not only_linked)
                and identity not in found
            ):
                # The walk's paths are `root` and what it joined below it: the part below is
                # what follows `root` (`os.path.relpath`, without its cost per file).
                found[identity] = Path(given, path[len(root) :].lstrip(os.sep))
    return found


def _files_under(root: str, left_out: set[str]) -> Iterator[str]:
    if not os.path.isdir(root):  # noqa: PTH112 (strings: cost)
        yield root
        return
    for folder, subfolders, files in os.walk(root):  # links are never followed
        if left_out:
            subfolders[:] = [n for n in subfolders if f"{folder}/{n}" not in left_out]
        for name in files:
            yield f"{folder}/{name}"


def ancestor_identities(path: str | Path) -> frozenset[FileIdentity]:
    """The identities of `path`'s real path and of each of its ancestors, one `stat` each:
    `path` lies inside a folder (`lies_inside`) when the folder's identity is one of them. For a
    path checked against many folders (`_policy.never_shown`: every host state folder, every
    secret), which asked the same ancestors again for each folder."""
    found: set[FileIdentity] = set()
    ancestor = os.path.realpath(path)
    while True:
        identity = _identity_of_real(ancestor)
        if identity is not None:
            found.add(identity)
        parent = os.path.dirname(ancestor)  # noqa: PTH120 (cost)
        if parent == ancestor:
            return frozenset(found)
        ancestor = parent


def spelled_inside(path: PurePath, folder: PurePath) -> bool:
    """`path == folder or folder in path.parents`, by spelling (no file system asked), compared
    part by part: `folder in path.parents` built a `Path` for each parent, and the sandbox policy
    asks this of every path it checks against each system and host state folder."""
    above = folder.parts
    if not above:  # `.`: the last parent of every relative path, of no absolute one
        return not path.anchor
    return path.parts[: len(above)] == above


def lies_inside(path: str | Path, folder: str | Path) -> bool:
    """Whether `path` is `folder` or lies inside it, by identity (`place_inside`)."""
    return place_inside(path, folder) is not None


__all__ = [
    "FileIdentity",
    "ancestor_identities",
    "files_by_identity",
    "identity_of",
    "lies_inside",
    "linked_files",
    "place_inside",
    "real_path",
    "spelled_inside",
]
