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
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from provebench._canonical import is_utf8_text
from provebench._errors import ProvebenchError
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
_SKIPPED_FOLDERS = frozenset({"__pycache__", ".git", ".mypy_cache", ".ruff_cache", ".pytest_cache"})
# What counts as code in a code folder: program text and compiled modules, and any executable
# file. Data beside the code (another run's folder, a log, a corpus copy) is not the candidate,
# and counting it would make the same program two identities.
CODE_SUFFIXES = frozenset(
    {".py", ".pyi", ".pth", ".so", ".sh", ".js", ".mjs", ".cjs", ".rb", ".pl"}
)


def code_digest(paths: Sequence[Path], hidden: Sequence[Path] = (), *, field: str) -> str:
    """sha256 of a candidate's code: every code file (`CODE_SUFFIXES`, or executable) under
    `paths` — a path given as a file always counts — a symbolic link by its target text, never
    followed, as `root-index/relative-path NUL sha256` lines in path order (so the same code in
    another folder has the same digest), leaving out caches,
    VCS folders and what the sandbox hides (the corpus, the run folder: they change as the run
    goes, and the candidate never sees them)."""
    lines: list[str] = []
    total = 0
    hidden_set = {absolute(h) for h in hidden}
    for index, given in enumerate(paths):
        root = absolute(given)
        for path in sorted(_walk(root, hidden_set)):
            if len(lines) >= MAX_CODE_FILES or total > MAX_CODE_BYTES:
                raise ProvebenchError(
                    f"the candidate's code under {root} is more than {MAX_CODE_FILES} files or "
                    f"{MAX_CODE_BYTES >> 20} MiB: give the candidate a folder of its own",
                    field=field,
                )
            if path.is_symlink():
                digest = hashlib.sha256(str(path.readlink()).encode("utf-8", "surrogatepass"))
            else:
                digest = hashlib.sha256(path.read_bytes())
                total += path.stat().st_size
            # Relative to its root: the same code in another folder is the same code.
            where = path.relative_to(root).as_posix() if path != root else path.name
            name = where.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
            lines.append(f"{index}/{name}\0{digest.hexdigest()}")
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def _walk(root: Path, hidden: set[Path]) -> Iterator[Path]:
    if root in hidden:
        return
    if root.is_symlink() or root.is_file():
        yield root  # named as the code itself
        return
    if not root.is_dir():
        return
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry in hidden or entry.name in _SKIPPED_FOLDERS:
                continue
            if entry.is_symlink() or entry.is_file():
                if _is_code(entry):
                    yield entry
            elif entry.is_dir():
                stack.append(entry)


def _is_code(path: Path) -> bool:
    if path.suffix in CODE_SUFFIXES:
        return True
    try:
        return not path.is_symlink() and bool(path.stat().st_mode & 0o111)
    except OSError:
        return False


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
    "CandidateCode",
    "checked_identity",
    "code_digest",
    "command_version",
    "is_shipped",
    "locate",
]
