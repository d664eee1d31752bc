"""`once`: a property computed on first use and then kept, without a lock.

`functools.cached_property` takes a lock on every first use (Python 3.11; 3.12 dropped it),
which costs more than most of what the strict reading computes lazily per answer: a word-game
index is asked for a handful of lists, each once. Scoring runs one transcript at a time in a
process, so nothing here needs the lock. As with `cached_property`, the value is stored in the
instance's `__dict__` under the property's name, which then answers every later look-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

_T = TypeVar("_T")


class once(Generic[_T]):
    """A lock-free `functools.cached_property` (module docstring)."""

    def __init__(self, compute: Callable[[Any], _T]) -> None:
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> once[_T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...
    def __get__(self, instance: object, owner: type | None = None) -> once[_T] | _T:
        if instance is None:
            return self
        value = self._compute(instance)
        instance.__dict__[self._name] = value
        return value


__all__ = ["once"]
