"""Lazy re-exports for package `__init__` modules (PEP 562).

A package lists its public names and the private module each comes from; a name's module is
imported on first access, so `provebench` starts without importing every area it could need.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`(__getattr__, __dir__)` for `package`, resolving each name from its module on first use."""
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value  # later lookups bypass this function
        return value

    def __dir__() -> list[str]:
        return sorted(public)

    return __getattr__, __dir__


__all__ = ["lazy_exports"]
