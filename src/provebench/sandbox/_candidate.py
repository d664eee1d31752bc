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


__all__ = ["CandidateCode", "checked_identity", "command_version", "is_shipped", "locate"]
