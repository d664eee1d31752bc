"""Fixtures for the model client's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.loopback import accepting_every_connection


@pytest.fixture
def listening() -> Iterator[int]:
    """A port on loopback that accepts and holds every connection (tests/helpers/loopback.py)."""
    with accepting_every_connection() as port:
        yield port
