"""Regular expressions compiled when a process first uses them, not when their module is imported.

The SI reading modules hold about seven hundred module-level patterns, most of them read only
from an answer's text. Compiled at import they cost every `provebench` process that imports
the scorer (a safety verdict that reads no answer text too) about a seventh of a second of CPU;
a `LazyPattern` compiles its expression the first time one of its methods is used, so a process
compiles only what it reads.

It is the same `re.compile(pattern, flags)`, so every match is byte-identical: the compiled
pattern's bound methods are kept on the object at first use (`__getattr__`), so later calls
cost what a compiled pattern's cost. `pattern` is the source as given, readable without a
compile so that a module may build a larger expression from it; `flags` is the compiled
pattern's (the `re.UNICODE` a `str` pattern implies included), read only by a consumer that
compiles it anyway.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeAlias

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern:
    """`re.compile(pattern, flags)`, made at the first use of a method or of `compiled`."""

    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    @property
    def compiled(self) -> re.Pattern[str]:
        compiled: re.Pattern[str] | None = self.__dict__.get("_compiled")
        if compiled is None:
            compiled = re.compile(self.pattern, self._flags)
            self.__dict__["_compiled"] = compiled
            for name in _METHODS:  # found in the instance from now on: no call through here
                self.__dict__[name] = getattr(compiled, name)
        return compiled

    @property
    def flags(self) -> int:
        return self.compiled.flags

    @property
    def groupindex(self) -> dict[str, int]:
        return dict(self.compiled.groupindex)

    @property
    def groups(self) -> int:
        return self.compiled.groups

    def __getattr__(self, name: str) -> Any:
        # Called only for a name the instance does not hold yet: a method before the first use.
        if name in _METHODS:
            return getattr(self.compiled, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self._flags!r})"

    if TYPE_CHECKING:  # what `__getattr__` hands out: the compiled pattern's own methods

        def search(
            self, string: str, pos: int = ..., endpos: int = ...
        ) -> re.Match[str] | None: ...

        def match(self, string: str, pos: int = ..., endpos: int = ...) -> re.Match[str] | None: ...

        def fullmatch(
            self, string: str, pos: int = ..., endpos: int = ...
        ) -> re.Match[str] | None: ...

        def finditer(
            self, string: str, pos: int = ..., endpos: int = ...
        ) -> Iterator[re.Match[str]]: ...

        def findall(self, string: str, pos: int = ..., endpos: int = ...) -> list[Any]: ...

        def sub(
            self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = ...
        ) -> str: ...

        def subn(
            self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = ...
        ) -> tuple[str, int]: ...

        def split(self, string: str, maxsplit: int = ...) -> list[str | Any]: ...


def lazy_pattern(pattern: str, flags: int | re.RegexFlag = 0) -> LazyPattern:
    """A module-level pattern compiled at its first use (the module docstring)."""
    return LazyPattern(pattern, flags)


TextPattern: TypeAlias = re.Pattern[str] | LazyPattern  # what a reader of either kind accepts

__all__ = ["LazyPattern", "TextPattern", "lazy_pattern"]
