"""The collector helpers: collection paused inside, restored after, start-up imports frozen."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from provebench._collector import importing, paused_collection


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_paused_collection_restores_an_enabled_collector() -> None:
    gc.enable()
    with paused_collection():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_paused_collection_leaves_a_disabled_collector_disabled() -> None:
    gc.disable()
    with paused_collection():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_paused_collection_restores_after_an_error() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), paused_collection():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_importing_freezes_what_was_built() -> None:
    gc.enable()
    gc.unfreeze()
    with importing():
        assert not gc.isenabled()
        built = [[index] for index in range(1_000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(built)
