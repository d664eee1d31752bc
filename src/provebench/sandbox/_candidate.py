"""Where a candidate's `module:Class` or `path.py:Class` lives, found without running it.

The laboratory never imports a candidate it did not ship: that would run the candidate's code
in the laboratory's own process (docs/sandbox.md). It only finds the files the sandbox must show
— a `.py` file's folder, or the top-level package or module of `module:Class` by the import
system's path search (which reads directories and executes nothing) — and the `sys.path` entry
the worker inside will import it from.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from provebench._canonical import canonical_json, is_utf8_text, sha256_bytes
from provebench._errors import ProvebenchError
from provebench._read_once import (
    KeyMaterialCheck,
    _open_folder,
    _open_regular,
    _read_descriptor,
    key_folder_identities,
)
from provebench.sandbox._answer_copies import HiddenCopies
from provebench.sandbox._bytecode import held_folders
from provebench.sandbox._containment import (
    files_by_identity,
    identity_of,
    lies_inside,
    real_path,
)
from provebench.sandbox._corpus_folders import CORPUS_MANIFEST_FILE, holds_corpus_manifest
from provebench.sandbox._known_secrets import known_secret_marks
from provebench.sandbox._mounts import host_paths, mounts, unprovable_mount
from provebench.sandbox._other_names import OtherNames
from provebench.sandbox._outputs import output_kind
from provebench.sandbox._policy import (
    PACKAGE_DIR,
    NeverShownBelow,
    absolute,
    code_folder,
    never_shown,
    never_shown_below,
)
from provebench.sandbox._private import is_private_root

# Module prefixes whose classes are provebench's own code. provebench's test suite adds its own
# `tests.` package (tests/conftest.py): its instrumented importers share state with the tests
# and run in the test process. Nothing a candidate or its operator passes changes this list.
SHIPPED_MODULE_PREFIXES: list[str] = ["provebench."]


@dataclass(frozen=True)
class CandidateCode:
    """A candidate class spec as the sandboxed worker is to load it."""

    spec: str  # as the worker resolves it: an absolute `path.py:Class`, or `module:Class`
    shown: tuple[Path, ...]  # what the sandbox shows of it, read-only
    path_entry: str  # prepended to the worker's sys.path ("" for none)


def checked_identity(said: object, field: str) -> tuple[str, str]:
    """The `name` and `version` a candidate announced from inside the sandbox, checked as the
    laboratory checks a class's (non-empty text UTF-8 can hold): it is the candidate's word."""
    name = said.get("name") if isinstance(said, dict) else None
    version = said.get("version") if isinstance(said, dict) else None
    if not (isinstance(name, str) and name and is_utf8_text(name)):
        raise ProvebenchError("the candidate's name must be non-empty text", field=field)
    if not (isinstance(version, str) and version and is_utf8_text(version)):
        raise ProvebenchError("the candidate's version must be non-empty text", field=field)
    return name, version


def command_version(command: str) -> str:
    """An `--agent-cmd` candidate's version: a digest of the command as written (its name is
    `external`): the same command, the same identity, on any machine."""
    return hashlib.sha256(command.encode("utf-8")).hexdigest()[:16]


# The candidate's code is identified by the bytes a sandbox shows of it (the seal of a fresh
# control, docs/attestation.md). A code folder holding more than this is not one program: the
# operator is asked to give the candidate a folder of its own.
MAX_CODE_FILES = 20_000
MAX_CODE_BYTES = 1 << 30
# Python's bytecode caches. provebench's own package leaves them out of its digest (they change
# as it runs, and it is trusted); a candidate's are counted like every other byte shown, and a
# seal never copies them, so a sealed candidate's Python compiles the sealed sources.
BYTECODE_CACHE = "__pycache__"


def code_listing(
    paths: Sequence[Path], hidden: Sequence[Path] = (), *, field: str, skip_caches: bool = False
) -> list[tuple[str, str]]:
    """`(root-index/relative-path, entry)` of everything a sandbox shows under `paths`, in path
    order — every folder (an empty one too: its existence is something the code can test), every
    file with its bytes and whether it is executable, every link by its target text, never
    followed (the sandbox shows it as a link); a root as the sandbox binds it, its links
    followed — leaving out only what the sandbox hides (the corpus, the run folder: they change
    as the run goes, and the candidate never sees them). Data files, bytecode, everything else:
    whatever the candidate can observe is something that can change what it does, so the same
    listing means the same code (docs/attestation.md, "What the seal covers").

    An `entry` is `folder`, `file:SHA256`, `exec:SHA256` (the owner's execute bit set) or
    `link:SHA256` (of the target text).

    Read once (`read_shown`): each entry is checked and read through a held descriptor of its
    folder, and each file's bytes are those of the file checked. Refused in one line: a file or
    folder that *is* a hidden one by another name (a hard link, a bind mount), a link that
    resolves into a hidden path — containment by identity — an entry put in another's place
    while it was read, and what cannot be identified by its bytes: a FIFO, a socket or a
    device, a file or folder the laboratory cannot read, a name that is not UTF-8."""
    listing: list[tuple[int, str, str]] = [
        (item.index, item.relative, item.entry)
        for item in read_shown(paths, hidden, field=field, skip_caches=skip_caches)
    ]
    # Relative to its root (the same code in another folder is the same code), roots in the
    # order given, each root's entries in path order.
    return [(f"{index}/{relative}", entry) for index, relative, entry in sorted(listing)]


FOLDER_ENTRY = "folder"


@dataclass(frozen=True)
class ShownEntry:
    """One entry a sandbox shows of a candidate's code, as read once: its listing name and entry,
    and what a copy of it needs (a file's bytes and mode, a link's target text)."""

    index: int  # which shown path it lies under
    relative: str  # below that path (a shown path that is one file: its name)
    entry: str  # the listing's entry (`code_listing`)
    data: bytes = b""  # a file's bytes, exactly those hashed
    mode: int = 0  # a file's or folder's permission bits, from the descriptor read
    link: str = ""  # a link's target text
    root_file: bool = False  # the shown path itself, which is one file


def listing_digest(listing: Sequence[tuple[str, str]]) -> str:
    # Canonical JSON: a name holding a line break cannot pass for two entries.
    return sha256_bytes(canonical_json([list(item) for item in listing]).encode("utf-8"))


def code_digest(
    paths: Sequence[Path], hidden: Sequence[Path] = (), *, field: str, skip_caches: bool = False
) -> str:
    """sha256 of a candidate's code as the sandbox shows it (`code_listing`)."""
    return listing_digest(code_listing(paths, hidden, field=field, skip_caches=skip_caches))


class _Secrets:
    """The hidden paths, by real path (hidden where they lie) and by identity (the same file or
    folder by another name, which no mask covers): every hidden path and every file under one,
    whatever its number of names, and every file of the laboratory's key folder; every seal's
    opening and control file by its recorded bytes, wherever it was moved or copied
    (`_known_secrets`); and this namespace's mount points."""

    def __init__(self, hidden: Sequence[Path]) -> None:
        self.paths = {real_path(h): h for h in hidden}
        self.identities = {i: h for h in hidden if (i := identity_of(h)) is not None}
        # A file under a hidden folder: a hard link of it in the code is it — one made, or
        # renamed in, after this look too, so every file is kept, not only those with other
        # names now (red team round 13c, A1).
        for found, secret in files_by_identity(hidden, pruned=held_folders()).items():
            self.identities.setdefault(found, secret)
        self.key_files = key_folder_identities()  # never read by any name (`_read_once`)
        # …and looked at again once every file is read: a key made or renamed in meanwhile
        self.key_material = KeyMaterialCheck()
        # What is never shown, as met below a shown path (a mount in the candidate's folder)
        self.below = never_shown_below()
        # Every seal's opening and control file, moved or copied away from its recorded path: by
        # the bytes a move and a copy keep (pilot red team round 20, H4).
        self.marks = known_secret_marks()
        # A mount point below a shown path, whatever its source (pilot red team round 20, H2).
        # …and what each shown path is by a mount's other names (pilot red team round 22, A14):
        # one read of the mount table for both
        self.mount_table = mounts()
        self.mounts = frozenset(mount.point for mount in self.mount_table)
        # Every name of the code whose file has others: one named outside it is refused once
        # the walk has found all the names inside (`_other_names`)
        self.other_names = OtherNames()
        # The run's hidden files (its scenario, readings, corpus answer files) by content: a
        # copy kept in the code as a fixture (sandbox red team 39b, H1b)
        self.copies = HiddenCopies(hidden)
        # Whether the root walked is a candidate's (provebench's own package, digested by the
        # same walk, ships example evidence, and no candidate output is found there)
        self.outputs_checked = True

    def refuse_mount(self, path: Path, field: str) -> None:
        """Refuse `path` (met below a shown path, or a shown file) when something is mounted
        there: nothing below the host's top-level folders is known by identity, so a bind of
        `/etc/shadow` or `/etc/ssh` in the candidate's folder passed every other check."""
        if path in self.mounts:
            raise ProvebenchError(
                f"{path} in the candidate's code is a mount point (a file system or a host "
                "file or folder mounted there); a sandbox never shows one, nor a seal copies it "
                "— unmount it",
                field=field,
            )

    def refuse_host_source(self, path: Path, field: str) -> None:
        """Refuse a shown path that the host shows, through the mount it lies on, under a name
        that is never shown (`_mounts.host_paths`, `_policy.never_shown`): the candidate's
        folder bound from `/etc/dpkg`, or an overlay over it (pilot red team round 22, A14). A
        folder on a volume no other mount shows (a container's) is walked as before."""
        layered = unprovable_mount(path, self.mount_table)
        if layered is not None:
            raise ProvebenchError(
                f"{path} lies on a {layered.fs_type} mount at {layered.point}, whose content no "
                "mount table can prove (an overlay's layers are named as they were given); a "
                "sandbox shows no candidate code from one, nor a seal copies it — copy the code "
                "to an ordinary folder",
                field=field,
            )
        for source in host_paths(path, self.mount_table):
            reason = never_shown(source)
            if reason is not None:
                raise ProvebenchError(
                    f"{path} is {source} by a mount, which {reason}; a sandbox never shows it, "
                    "nor a seal copies it",
                    field=field,
                )

    def refuse_private_root(self, folder: Path, names: Sequence[str], field: str) -> None:
        """Refuse a folder of the code that is a laboratory's private root, any laboratory's,
        wherever it lies (`_private.is_private_root`: by its marker, or an earlier build's name),
        before anything in it is read (pilot red team round 20, H5)."""
        if is_private_root(set(names), folder.name):
            raise ProvebenchError(
                f"{folder} in the candidate's code is a laboratory's private folder (its keys "
                "and sockets), which a candidate may not see; move it out",
                field=field,
            )

    def refuse_bytes(self, path: Path, size: int, sha256: str, field: str) -> None:
        """Refuse a file of the code whose bytes are a recorded secret's (a copy of a seal's
        opening or of a control's answer key), compared only where a secret has its size."""
        secret = self.marks.file_with_bytes(size, sha256)
        if secret is not None:
            raise ProvebenchError(
                f"{path} in the candidate's code is a copy of {secret}, a seal's opening or a "
                "control corpus's file, which a candidate may not see; remove it",
                field=field,
            )

    def refuse_answer(self, path: Path, size: int, sha256: str, data: bytes, field: str) -> None:
        """Refuse a file of the code that is a provebench output (`_outputs`: a verdict, an
        evidence, a run record, whatever its name) or a copy of one of the run's hidden files
        (`_answer_copies`): each names the answer a candidate is scored on (sandbox red team 39b,
        H1 and H1b)."""
        if not self.outputs_checked:
            return
        kind = output_kind(data)
        if kind is not None:
            raise ProvebenchError(
                f"{path} in the candidate's code is {kind}, a provebench output that names a "
                "run's answer, which a sandbox never shows; move it out of the code folder",
                field=field,
            )
        copied = self.copies.copy_of(size, sha256, data)
        if copied is not None:
            raise ProvebenchError(
                f"{path} in the candidate's code is a copy of {copied}, which the run hides from "
                "the candidate; remove it",
                field=field,
            )

    def hides(self, path: Path) -> bool:
        """Whether `path` (met in a code folder, links unfollowed) is a hidden path, hidden where
        it lies."""
        return path in self.paths

    def refuse_identity(self, path: Path, status: os.stat_result, field: str) -> None:
        """Refuse `path` when `status` (its lstat, or the fstat of what was opened) is a hidden
        file or folder, or a file of the key folder."""
        found = (status.st_dev, status.st_ino)
        if found in self.identities:
            raise ProvebenchError(
                f"{path} in the candidate's code is {self.identities[found]} by another name, "
                "which a candidate may not see; remove it",
                field=field,
            )
        if found in self.key_files:
            raise ProvebenchError(
                f"{path} in the candidate's code is a file of the laboratory's key folder by "
                "another name, which a candidate may not see; remove it",
                field=field,
            )

    def refuse_link(self, path: Path, target: str, field: str) -> None:
        """Refuse the link `path` when its target text, resolved as the kernel would from the
        link's folder, leads into a hidden path."""
        resolved = real_path(path.parent / target)  # an absolute target replaces the folder
        reached = next((h for h in self.paths.values() if lies_inside(resolved, h)), None)
        if reached is not None:
            raise ProvebenchError(
                f"{path} in the candidate's code is a link into {reached}, which a candidate "
                "may not see; remove the link",
                field=field,
            )


def read_shown(
    paths: Sequence[Path], hidden: Sequence[Path] = (), *, field: str, skip_caches: bool = False
) -> Iterator[ShownEntry]:
    """Every entry a sandbox shows under `paths` (`code_listing`), read once, a folder before
    what it holds: each folder is held open by descriptor from its own listing on, each entry
    is looked at (`lstat`), checked against the hidden paths, then opened in that held folder
    with no link followed (`_read_once`'s opener), and what was opened must be what was looked
    at — the same (st_dev, st_ino), and no hidden file or key file by any name. A file renamed
    over a listed one between the look and the read is refused in one line naming it, never
    read (red team round 13c, A1: a hard link of a hidden scenario renamed in after the checks
    was hashed, copied and shown to a sealed agent)."""
    secrets = _Secrets(hidden)
    counted = _Budget(paths, field)
    package = real_path(PACKAGE_DIR)
    for index, given in enumerate(paths):
        root = real_path(given)
        secrets.outputs_checked = root != package
        status = None if secrets.hides(root) else _shown_status(root, field)
        if status is None:
            continue
        secrets.refuse_identity(root, status, field)
        _refuse_never_shown(root, status, secrets.below, field)
        secrets.refuse_host_source(root, field)
        if not stat.S_ISDIR(status.st_mode):
            # A file named as the code is one the candidate chose: bound there, it is a host file
            # by another name. A shown folder may be a mount (a container's volume): what is
            # below it is walked.
            secrets.refuse_mount(root, field)
            name = _utf8_name(root, Path(given).name, field)  # named as the code itself
            counted.add(status)
            yield _read_file(root, None, index, name, status, secrets, field, root_file=True)
            continue
        with _in_code(field):
            top = _open_folder(root)
        try:
            _same(root, status, os.fstat(top), field)
            yield from _read_folder(root, top, index, "", secrets, skip_caches, counted, field)
        finally:
            os.close(top)
    with _in_code(field):
        secrets.key_material.refuse_now()  # red team round 14b, A1
    secrets.other_names.refuse_unfound(field)  # a key's link is named as one, first


def _read_folder(
    folder: Path,
    fd: int,
    index: int,
    prefix: str,
    secrets: _Secrets,
    skip_caches: bool,
    counted: _Budget,
    field: str,
) -> Iterator[ShownEntry]:
    try:
        with os.scandir(fd) as found:
            names = sorted(entry.name for entry in found)
    except OSError as error:
        raise ProvebenchError(
            f"cannot list the candidate's code: {error.strerror}", path=folder, field=field
        ) from None
    secrets.refuse_private_root(folder, names, field)
    _refuse_corpus_folder(folder, fd, names, field)
    for name in names:
        path = folder / name
        if skip_caches and name in _CACHES:
            continue
        status = None if secrets.hides(path) else _shown_status(path, field, dir_fd=fd, name=name)
        if status is None:
            continue
        secrets.refuse_mount(path, field)
        if not stat.S_ISLNK(status.st_mode):  # what the walk looked at, then what it opens
            secrets.refuse_identity(path, status, field)
            _refuse_never_shown(path, status, secrets.below, field)
        relative = _utf8_name(path, f"{prefix}{name}", field)
        counted.add(status)
        if stat.S_ISLNK(status.st_mode):
            try:
                target = os.readlink(name, dir_fd=fd)
            except OSError:
                raise _changed(path, field) from None
            secrets.refuse_link(path, target, field)  # a link is shown as a link: its target
            digest = hashlib.sha256(os.fsencode(target)).hexdigest()
            yield ShownEntry(index, relative, "link:" + digest, link=target)
        elif stat.S_ISDIR(status.st_mode):
            with _in_code(field):
                child = _open_folder(path, dir_fd=fd, name=name)
            try:
                _same(path, status, os.fstat(child), field)
                mode = stat.S_IMODE(status.st_mode)  # what a copy keeps, less writing
                yield ShownEntry(index, relative, FOLDER_ENTRY, mode=mode)
                yield from _read_folder(
                    path, child, index, f"{relative}/", secrets, skip_caches, counted, field
                )
            finally:
                os.close(child)
        else:
            yield _read_file(path, fd, index, relative, status, secrets, field)


def _read_file(
    path: Path,
    folder_fd: int | None,
    index: int,
    relative: str,
    status: os.stat_result,
    secrets: _Secrets,
    field: str,
    *,
    root_file: bool = False,
) -> ShownEntry:
    """The file `path` (its name in the held folder `folder_fd`), opened with no link followed
    and read once, refused unless it is the file `status` looked at and no hidden one."""
    with _in_code(field):
        fd, info = _open_regular(path, dir_fd=folder_fd, name=path.name, refused=secrets.key_files)
    try:
        secrets.refuse_identity(path, info, field)
        _same(path, status, info, field)
    except BaseException:
        os.close(fd)
        raise
    with _in_code(field):
        held = _read_descriptor(fd, info, path, MAX_CODE_BYTES)  # closes it
    secrets.key_material.note(path, info, held.sha256)
    secrets.other_names.note(path, info)
    secrets.refuse_bytes(path, info.st_size, held.sha256, field)
    secrets.refuse_answer(path, info.st_size, held.sha256, held.data, field)
    mode = stat.S_IMODE(info.st_mode)
    kind = "exec" if mode & stat.S_IXUSR else "file"
    entry = f"{kind}:{held.sha256}"
    return ShownEntry(index, relative, entry, data=held.data, mode=mode, root_file=root_file)


def _refuse_corpus_folder(folder: Path, fd: int, names: Sequence[str], field: str) -> None:
    """Refuse a folder of the code that is a corpus folder, any corpus's, told by its manifest
    (`_corpus_folders`, the rule `never_shown` applies to a named path), before anything in it
    is read: an older matrix's `corpora/control-5` left in a candidate's folder was shown to the
    next matrix's sandbox (pilot red team 28, A6). The run's own corpus is hidden where it lies
    and never walked into."""
    if CORPUS_MANIFEST_FILE in names and holds_corpus_manifest(None, dir_fd=fd):
        raise ProvebenchError(
            f"{folder} in the candidate's code is a corpus folder (it holds a corpus manifest: "
            "an answer key and a fault schedule), which a sandbox never shows; move it out",
            field=field,
        )


def _refuse_never_shown(
    path: Path, status: os.stat_result, below: NeverShownBelow, field: str
) -> None:
    """Refuse an entry of the code that is never shown (`NeverShownBelow`), before it is read:
    a `proc` mounted in the candidate's folder shows the laboratory's own environment with no
    `/proc` in the path (pilot red team round 19, A4)."""
    reason = below.reason(status)
    if reason is not None:
        raise ProvebenchError(
            f"{path} in the candidate's code {reason}; a sandbox never shows it, nor a seal "
            "copies it — remove it",
            field=field,
        )


@contextlib.contextmanager
def _in_code(field: str) -> Iterator[None]:
    """The opener's one-line refusal (`_read_once`), given this check's field."""
    try:
        yield
    except ProvebenchError as error:
        raise ProvebenchError(error.message, path=error.path, field=field) from None


def _same(path: Path, looked: os.stat_result, opened: os.stat_result, field: str) -> None:
    if (looked.st_dev, looked.st_ino) != (opened.st_dev, opened.st_ino):
        raise _changed(path, field)


def _changed(path: Path, field: str) -> ProvebenchError:
    return ProvebenchError(
        "the candidate's code changed while it was read (another file or link was put in the "
        "place of one listed); identify it again",
        path=path,
        field=field,
    )


class _Budget:
    """The code size limits, counted as the entries are met: a file's size before it is read."""

    def __init__(self, paths: Sequence[Path], field: str) -> None:
        self.paths, self.field = paths, field
        self.entries = self.total = 0

    def add(self, status: os.stat_result) -> None:
        self.entries += 1
        if stat.S_ISREG(status.st_mode):
            self.total += status.st_size
        if self.entries > MAX_CODE_FILES or self.total > MAX_CODE_BYTES:
            where = ", ".join(str(path) for path in self.paths)
            raise ProvebenchError(
                f"the candidate's code under {where} is more than {MAX_CODE_FILES} files "
                f"or {MAX_CODE_BYTES >> 20} MiB: give the candidate a folder of its own",
                field=self.field,
            )


def _shown_status(
    path: Path, field: str, *, dir_fd: int | None = None, name: str | None = None
) -> os.stat_result | None:
    """`path`'s status (`name` in the held folder `dir_fd`), links unfollowed; None when it
    vanished. Refused: what has no bytes of the candidate's to identify it (a FIFO, a socket,
    a device: what it does depends on who is at the other end), and a file or folder its owner
    may not read, which a seal could not copy as it is."""
    try:
        status = os.stat(path if dir_fd is None else (name or path.name), dir_fd=dir_fd,
                         follow_symlinks=False)  # fmt: skip
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ProvebenchError(
            f"cannot inspect the candidate's code: {error.strerror}", path=path, field=field
        ) from None
    mode = status.st_mode
    if stat.S_ISLNK(mode):
        return status
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise ProvebenchError(
            "the candidate's code holds a FIFO, a socket or a device, which cannot be identified "
            "by its bytes; remove it",
            path=path,
            field=field,
        )
    needed = stat.S_IRUSR | (stat.S_IXUSR if stat.S_ISDIR(mode) else 0)
    if mode & needed != needed:
        raise ProvebenchError(
            "the candidate's code holds a file or folder its owner may not read; make it readable "
            "or remove it",
            path=path,
            field=field,
        )
    return status


def _utf8_name(path: Path, relative: str, field: str) -> str:
    """`relative`, refused unless UTF-8: a name's bytes are part of the code (a program can list
    its folder), and a name decoded with replacement would let two names read the same."""
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:
        raise ProvebenchError(
            "a name in the candidate's code is not UTF-8; rename it", path=path, field=field
        ) from None
    return relative


_CACHES = frozenset({BYTECODE_CACHE, ".mypy_cache", ".ruff_cache", ".pytest_cache"})


def is_shipped(spec: str, builtins: dict[str, str]) -> bool:
    """A built-in name, or `module:Class` in provebench's own package: provebench's code."""
    if spec in builtins:
        return True
    where, _, _ = spec.rpartition(":")
    return not where.endswith(".py") and where.startswith(tuple(SHIPPED_MODULE_PREFIXES))


def locate(spec: str, field: str) -> CandidateCode:
    """Find `spec`'s code on disk (one-line `ProvebenchError` when it cannot be found)."""
    where, sep, class_name = spec.rpartition(":")
    if not sep or not where or not class_name:
        raise ProvebenchError(
            f"unknown agent {spec!r}: use a built-in name, module:Class or path.py:Class",
            field=field,
        )
    if where.endswith(".py"):
        path = absolute(where)
        if not path.is_file():
            raise ProvebenchError("agent file not found", path=where, field=field)
        return CandidateCode(f"{path}:{class_name}", (code_folder(path, field=field),), "")
    top = where.split(".")[0]
    found = importlib.machinery.PathFinder.find_spec(top, [p or str(Path.cwd()) for p in sys.path])
    if found is None or found.origin in (None, "built-in", "frozen"):
        raise ProvebenchError(
            f"cannot import {where!r}: no module {top!r} on the import path", field=field
        )
    if found.submodule_search_locations:
        package = Path(next(iter(found.submodule_search_locations)))
        return CandidateCode(spec, (package,), str(package.parent))
    module = Path(str(found.origin))
    return CandidateCode(spec, (module,), str(module.parent))


__all__ = [
    "BYTECODE_CACHE",
    "FOLDER_ENTRY",
    "CandidateCode",
    "ShownEntry",
    "checked_identity",
    "code_digest",
    "code_listing",
    "command_version",
    "is_shipped",
    "listing_digest",
    "locate",
    "read_shown",
]
