"""Run the final-state scorer on its pure-Python roads: every compiled function (`_plainfields`,
bound in `score_final/_compiled.py`) set to None where its callers keep it, as on an install made
without a C compiler."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from provebench.pilot.score_final import _idjoin, _layout

COMPILED_BINDINGS = (
    (_layout, "_count_equal_fields"),
    (_layout, "_first_fields"),
    (_idjoin, "_plain_widths"),
    (_idjoin, "_hash_first_fields"),
    (_idjoin, "_own_lines"),
    (_idjoin, "_take_met"),
)


@contextmanager
def without_compiled(active: bool = True) -> Iterator[None]:
    """Within the block (when `active`), no compiled function is used. A context, not the
    `monkeypatch` fixture, so that each hypothesis example sets and restores it itself."""
    with pytest.MonkeyPatch.context() as patch:
        for module, name in COMPILED_BINDINGS:
            assert hasattr(module, name), f"{module.__name__}.{name}: the binding moved"
            if active:
                patch.setattr(module, name, None)
        yield
