"""The final-state scorer's compiled functions (`_plainfields.c`), or None for each where the
install had no C compiler (hatch_build.py): the pure-Python roads then answer alone, with the
same results (docs/score-final.md, "The compiled comparison").

Each function answers exactly or declines (None) and its caller's own road decides; so the
callers bind these names as module globals, which the tests set to None to run those roads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from provebench.pilot.score_final._csv import QuotedRecord, Record


class Compiled(NamedTuple):
    count_equal_fields: (
        Callable[[list[Record], list[Record], int, int, type[QuotedRecord]], tuple[int, int] | None]
        | None
    ) = None
    first_fields: Callable[[list[Record]], list[str] | None] | None = None
    plain_widths: Callable[[list[Record], int, type[QuotedRecord]], bool | None] | None = None
    hash_first_fields: (
        Callable[[list[Record], int, bool], tuple[bytes | None, list[Record], list[int]] | None]
        | None
    ) = None
    own_lines: (
        Callable[
            [str, int, bool, bool],
            tuple[int, bytes | None, list[str], list[int], list[tuple[int, str]]] | None,
        ]
        | None
    ) = None
    take_met: Callable[[dict[int, Record], list[int], str], list[Record | None] | None] | None = (
        None
    )


def _load() -> Compiled:
    try:
        from provebench.pilot.score_final import _plainfields
    except ImportError:
        return Compiled()
    return Compiled(
        _plainfields.count_equal_fields,
        _plainfields.first_fields,
        _plainfields.plain_widths,
        _plainfields.hash_first_fields,
        _plainfields.own_lines,
        _plainfields.take_met,
    )


COMPILED = _load()

__all__ = ["COMPILED", "Compiled"]
