"""docs/si-profile.md's "What is not yet one" stays true: how many of the published profile's
state entries, and whole states, the physical estate accepts, and the refusals its table counts
(tests/helpers/physical_coverage.py measures them)."""

from __future__ import annotations

import re

import pytest

from tests.helpers.physical_coverage import PROFILE, REPO, Coverage, measure

_DOC = REPO / "docs/si-profile.md"


@pytest.fixture(scope="module")
def coverage() -> Coverage:
    if not PROFILE.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")
    return measure()


def _section() -> str:
    text = _DOC.read_text(encoding="utf-8")
    start = text.index("The remaining work, measured on the published profile's")
    return text[start : text.index("\n## ", start)]


def test_the_documented_counts_are_the_measured_ones(coverage: Coverage) -> None:
    section = _section()
    assert (coverage.scenarios, coverage.entries) == (50, 118)
    assert f"accepts **{coverage.accepted} entries**" in section
    assert f"the whole state of **{len(coverage.whole)} scenarios**" in section


def test_the_table_counts_every_refused_entry(coverage: Coverage) -> None:
    refused = coverage.entries - coverage.accepted
    rows = re.findall(r"^\| [^|]+ \| (\d+) \| [^\n]+\|$", _section(), flags=re.MULTILINE)
    assert sum(int(count) for count in rows) == refused
    assert sum(coverage.refused.values()) == refused
    if not refused:  # the table gave way to a sentence that says so
        assert "It refuses none of them." in _section()


def test_the_whole_states_accepted(coverage: Coverage) -> None:
    # the scenarios the physical estate could hold whole; a change here is a change of the table
    assert "infra.capability.da.single-signal-diagnosis-001" in coverage.whole
    assert "infra.capability.oe.idempotent-configmap-001" in coverage.whole
    assert len(coverage.whole) == len(set(coverage.whole))
