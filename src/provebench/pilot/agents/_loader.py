"""`--agent NAME | module:Class | path.py:Class`: finding the importer a run should use."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from provebench._canonical import sha256_bytes
from provebench._errors import ProvebenchError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class LoadedAgent:
    """An importer class ready to be instantiated once per cycle."""

    spec: str
    name: str
    version: str
    factory: Callable[[], object]


def builtin_agents() -> dict[str, str]:
    """Built-in importers by name, as `module:Class` (imported only when chosen)."""
    return {
        "reference": "provebench.pilot.agents._reference:ReferenceImporter",
        "noop": "provebench.pilot.agents._noop:NoopImporter",
    }


def load_agent(spec: str) -> LoadedAgent:
    """Resolve `spec` to an importer class; a one-line `ProvebenchError` when that fails."""
    builtins = builtin_agents()
    target = builtins.get(spec, spec)
    if ":" not in target:
        known = ", ".join(sorted(builtins))
        raise ProvebenchError(
            f"unknown agent {spec!r}: use one of {known}, module:Class or path.py:Class",
            field="--agent",
        )
    where, _, class_name = target.rpartition(":")
    if not _IDENT.fullmatch(class_name):
        raise ProvebenchError(f"not a class name: {class_name!r}", field="--agent")
    if where.endswith(".py"):
        namespace = _load_path(Path(where), spec)
    elif _MODULE.fullmatch(where):
        try:
            namespace = vars(importlib.import_module(where))
        except ImportError as error:
            raise ProvebenchError(f"cannot import {where!r}: {error}", field="--agent") from error
    else:
        raise ProvebenchError(f"not a module or .py path: {where!r}", field="--agent")
    candidate = namespace.get(class_name)
    if not isinstance(candidate, type):
        raise ProvebenchError(f"{where} has no class {class_name!r}", field="--agent")
    name = getattr(candidate, "name", None)
    version = getattr(candidate, "version", None)
    if not isinstance(name, str) or not name or not isinstance(version, str) or not version:
        raise ProvebenchError(
            f"{class_name} must define non-empty str class attributes `name` and `version`",
            field="--agent",
        )
    if not callable(getattr(candidate, "run_cycle", None)):
        raise ProvebenchError(f"{class_name} has no run_cycle(ctx) method", field="--agent")
    return LoadedAgent(spec=spec, name=name, version=version, factory=candidate)


def _load_path(path: Path, spec: str) -> dict[str, object]:
    if not path.is_file():
        raise ProvebenchError("agent file not found", path=path, field="--agent")
    module_name = "provebench_agent_" + sha256_bytes(str(path.resolve()).encode())[:16]
    module_spec = importlib.util.spec_from_file_location(module_name, path)
    if module_spec is None or module_spec.loader is None:
        raise ProvebenchError("cannot load agent file", path=path, field="--agent")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        sys.modules.pop(module_name, None)
        raise ProvebenchError(
            f"agent file failed to load: {type(error).__name__}: {error}", path=path
        ) from error
    return vars(module)


__all__ = ["LoadedAgent", "builtin_agents", "load_agent"]
