"""Where a candidate's `module:Class` or `path.py:Class` lives, found without running it.

The laboratory never imports a candidate it did not ship: that would run the candidate's code
in the laboratory's own process (docs/sandbox.md). It only finds the files the sandbox must show
— a `.py` file's folder, or the top-level package or module of `module:Class` by the import
system's path search (which reads directories and executes nothing) — and the `sys.path` entry
the worker inside will import it from.
"""

from __future__ import annotations

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
from provebench.sandbox._containment import identity_of, lies_inside, linked_files, real_path
from provebench.sandbox._policy import absolute, code_folder

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

    Refused in one line: a file or folder that *is* a hidden one by another name (a hard link,
    a bind mount), a link that resolves into a hidden path — containment by identity — and
    what cannot be identified by its bytes: a FIFO, a socket or a device, a file or folder the
    laboratory cannot read, a name that is not UTF-8."""
    listing: list[tuple[str, str]] = []
    total = 0
    secrets = _Secrets(hidden)
    for index, given in enumerate(paths):
        root = real_path(given)
        for path, relative, status in _walk(root, Path(given).name, secrets, skip_caches, field):
            if len(listing) >= MAX_CODE_FILES or total > MAX_CODE_BYTES:
                raise ProvebenchError(
                    f"the candidate's code under {given} is more than {MAX_CODE_FILES} files "
                    f"or {MAX_CODE_BYTES >> 20} MiB: give the candidate a folder of its own",
                    field=field,
                )
            entry = _entry(path, status, field)
            if stat.S_ISREG(status.st_mode):
                total += status.st_size
            # Relative to its root: the same code in another folder is the same code.
            listing.append((f"{index}/{relative}", entry))
    return listing


FOLDER_ENTRY = "folder"


def _entry(path: Path, status: os.stat_result, field: str) -> str:
    if stat.S_ISDIR(status.st_mode):
        return FOLDER_ENTRY
    if stat.S_ISLNK(status.st_mode):
        target = os.fsencode(path.readlink())
        return "link:" + hashlib.sha256(target).hexdigest()
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ProvebenchError(
            f"cannot read the candidate's code: {error.strerror}", path=path, field=field
        ) from None
    kind = "exec" if status.st_mode & stat.S_IXUSR else "file"
    return f"{kind}:{hashlib.sha256(data).hexdigest()}"


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
    folder by another name, which no mask covers)."""

    def __init__(self, hidden: Sequence[Path]) -> None:
        self.paths = {real_path(h): h for h in hidden}
        self.identities = {i: h for h in hidden if (i := identity_of(h)) is not None}
        # A file under a hidden folder with other names: a hard link of it in the code is it.
        for found, secret in linked_files(hidden).items():
            self.identities.setdefault(found, secret)

    def check(self, path: Path, field: str) -> bool:
        """Whether `path` (met in a code folder, links unfollowed) is hidden there; refuses it
        when it reaches a hidden path in a way the sandbox could not hide."""
        if path in self.paths:
            return True
        if path.is_symlink():
            target = real_path(path)
            reached = next((h for h in self.paths.values() if lies_inside(target, h)), None)
            if reached is not None:
                raise ProvebenchError(
                    f"{path} in the candidate's code is a link into {reached}, which a "
                    "candidate may not see; remove the link",
                    field=field,
                )
            return False
        found = identity_of(path)
        if found is not None and found in self.identities:
            raise ProvebenchError(
                f"{path} in the candidate's code is {self.identities[found]} by another name, "
                "which a candidate may not see; remove it",
                field=field,
            )
        return False


def _walk(
    root: Path, shown_name: str, secrets: _Secrets, skip_caches: bool, field: str
) -> Iterator[tuple[Path, str, os.stat_result]]:
    if secrets.check(root, field):
        return
    status = _shown_status(root, field)
    if status is None:
        return
    if not stat.S_ISDIR(status.st_mode):
        yield root, _utf8_name(root, shown_name, field), status  # named as the code itself
        return
    found: list[tuple[Path, str, os.stat_result]] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as error:
            raise ProvebenchError(
                f"cannot list the candidate's code: {error.strerror}", path=folder, field=field
            ) from None
        for entry in entries:
            path = Path(entry.path)
            if (skip_caches and entry.name in _CACHES) or secrets.check(path, field):
                continue
            status = _shown_status(path, field)
            if status is None:
                continue
            if stat.S_ISDIR(status.st_mode):
                stack.append(path)
            found.append((path, _utf8_name(path, path.relative_to(root).as_posix(), field), status))
    yield from sorted(found, key=lambda item: item[1])


def _shown_status(path: Path, field: str) -> os.stat_result | None:
    """`path`'s status, links unfollowed; None when it vanished. Refused: what has no bytes of
    the candidate's to identify it (a FIFO, a socket, a device: what it does depends on who is
    at the other end), and a file or folder its owner may not read, which a seal could not copy
    as it is."""
    try:
        status = path.lstat()
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
        return CandidateCode(f"{path}:{class_name}", (code_folder(path),), "")
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
    "checked_identity",
    "code_digest",
    "code_listing",
    "command_version",
    "is_shipped",
    "listing_digest",
    "locate",
]
