"""`make test` installs with a C compiler at hand (hatch_build.py): both compiled modules must
exist and be the roads their callers take, or their speed and their tests (which skip where the
module is missing) silently go. An install made without a compiler on purpose says so with
PROVEBENCH_ALLOW_PURE_PYTHON=1. This module imports them itself, so it is never skipped."""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest

from provebench.pilot.lab import _drive_state
from provebench.pilot.score_final import _idjoin, _layout

pytestmark = pytest.mark.skipif(
    os.environ.get("PROVEBENCH_ALLOW_PURE_PYTHON") == "1",
    reason="pure-Python install allowed by PROVEBENCH_ALLOW_PURE_PYTHON=1",
)


def _compiled(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        pytest.fail(f"{name} was not compiled at install ({error})")


def test_the_install_compiled_the_final_state_scorers_accelerator() -> None:
    plainfields = _compiled("provebench.pilot.score_final._plainfields")
    assert _layout._count_equal_fields is plainfields.count_equal_fields
    assert _layout._first_fields is plainfields.first_fields
    assert _idjoin._plain_widths is plainfields.plain_widths
    assert _idjoin._hash_first_fields is plainfields.hash_first_fields
    assert _idjoin._own_lines is plainfields.own_lines
    assert _idjoin._take_met is plainfields.take_met


def test_the_install_compiled_the_drives_merge() -> None:
    listorder = _compiled("provebench.pilot.lab._listorder")
    assert _drive_state._merge_tail is listorder.merge_tail
