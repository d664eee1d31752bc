"""`NAME | module:Class | path.py:Class`: resolving a user-named class (an importer, an agent).

Shared by every `--agent` option: the pilot laboratory's importers and the SI laboratory's
diagnosis agents. Each caller passes its own built-in names and checks the class it gets back
against its own interface; resolution and its one-line errors are the same everywhere.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

from provebench._canonical import is_utf8_text, sha256_bytes
from provebench._errors import ProvebenchError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def resolve_class(spec: str, builtins: Mapping[str, str], *, field: str = "--agent") -> type:
    """The class `spec` names: a built-in name, `module:Class` or `path.py:Class`.

    Every failure is a one-line `ProvebenchError` naming `field`. A `path.py` file is executed
    as a module of its own (named after the hash of its resolved path), so two files with the
    same base name never collide.
    """
    target = builtins.get(spec, spec)
    if ":" not in target:
        known = ", ".join(sorted(builtins))
        raise ProvebenchError(
            f"unknown agent {spec!r}: use one of {known}, module:Class or path.py:Class",
            field=field,
        )
    where, _, class_name = target.rpartition(":")
    if not _IDENT.fullmatch(class_name):
        raise ProvebenchError(f"not a class name: {class_name!r}", field=field)
    if where.endswith(".py"):
        module = _load_path(Path(where), field)
    elif _MODULE.fullmatch(where):
        try:
            module = importlib.import_module(where)
        except ImportError as error:
            raise ProvebenchError(f"cannot import {where!r}: {error}", field=field) from error
        except _IMPORT_FAILURES as error:  # the module's own code failed while importing
            raise ProvebenchError(
                f"cannot import {where!r}: {_failure(error)}", field=field
            ) from error
    else:
        raise ProvebenchError(f"not a module or .py path: {where!r}", field=field)
    # getattr, not vars(): a package may export its names lazily (PEP 562).
    candidate = getattr(module, class_name, None)
    if not isinstance(candidate, type):
        raise ProvebenchError(f"{where} has no class {class_name!r}", field=field)
    return candidate


def identity_of(candidate: type, *, field: str = "--agent") -> tuple[str, str]:
    """The class attributes `name` and `version`, which must be non-empty strings."""
    name = getattr(candidate, "name", None)
    version = getattr(candidate, "version", None)
    if not isinstance(name, str) or not name or not isinstance(version, str) or not version:
        raise ProvebenchError(
            f"{candidate.__name__} must define non-empty str class attributes `name` and `version`",
            field=field,
        )
    if not is_utf8_text(name) or not is_utf8_text(version):
        # Both are written into the evidence and the log, as UTF-8 text.
        raise ProvebenchError(
            f"{candidate.__name__}: `name` and `version` must be text UTF-8 can hold "
            "(no lone surrogate)",
            field=field,
        )
    return name, version


def _load_path(path: Path, field: str) -> ModuleType:
    if not path.is_file():
        raise ProvebenchError("agent file not found", path=path, field=field)
    module_name = "provebench_agent_" + sha256_bytes(str(path.resolve()).encode())[:16]
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise ProvebenchError("cannot load agent file", path=path, field=field)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except _IMPORT_FAILURES as error:
        sys.modules.pop(module_name, None)
        raise ProvebenchError(f"agent file failed to load: {_failure(error)}", path=path) from error
    return module


# What a module's code may raise while it is imported. SystemExit too: `sys.exit()` in an agent
# file must not end provebench with that file's status (exit 0, nothing done, nothing said).
# KeyboardInterrupt is left alone: it is the user's Ctrl-C, and ends the command as one.
_IMPORT_FAILURES = (Exception, SystemExit)


def _failure(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


__all__ = ["identity_of", "resolve_class"]
