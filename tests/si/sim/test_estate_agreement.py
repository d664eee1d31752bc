"""docs/si-profile.md's "Do the two estates agree?" stays true: how many runs of the scripted
agents, on the scenarios the physical estate holds whole, the two estates judge alike, and
each verdict they do not (tests/helpers/estate_agreement.py measures them)."""

from __future__ import annotations

import pytest

from tests.helpers.estate_agreement import Agreement, agreement
from tests.helpers.physical_coverage import PROFILE, REPO

_DOC = REPO / "docs/si-profile.md"


@pytest.fixture(scope="module")
def measured() -> Agreement:
    if not PROFILE.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {PROFILE}")
    return agreement()


def _section() -> str:
    text = _DOC.read_text(encoding="utf-8")
    start = text.index("**Do the two estates agree?**")
    return text[start : text.index("\n## ", start)]


def test_the_documented_counts_are_the_measured_ones(measured: Agreement) -> None:
    section = _section()
    assert f"Of the other **{measured.runs} runs**, **{measured.same_verdict}** have" in section
    assert f"**{measured.same_judgement}** the same judgement byte for byte" in section
    differing = measured.runs - measured.same_verdict
    assert f"The {differing}\nverdicts that differ" in section
    assert f"The {measured.same_verdict - measured.same_judgement} runs with the same" in section
    assert f"The physical estate refuses\n**{len(measured.refused)}** of them" in section
    parted = measured.parted()
    # each place the runs part at, as the section words it with its count
    worded = {
        "a pod listing": "a pod listing ({} runs",
        "a namespace listing": "a namespace listing ({}:",
        "orchestration_events": "`orchestration_events` ({}:",
        "no answer": "at no answer ({})",
    }
    for where, count in parted.items():
        assert where in worded, where
        assert worded[where].format(count) in section, where
    assert sum(parted.values()) == measured.same_verdict - measured.same_judgement


def test_every_verdict_that_differs_is_in_the_table(measured: Agreement) -> None:
    rows = [line for line in _section().splitlines() if line.startswith("| ")]
    for difference in measured.differences:
        if not difference.verdict_differs:
            continue
        short = difference.scenario.split(".", 2)[2]  # `ca.historical-context-001`
        assert any(short in row and difference.agent in row for row in rows), difference


def test_a_run_the_estates_judge_alike_is_not_reported(measured: Agreement) -> None:
    # the measure is not vacuous: some runs agree byte for byte, some do not
    assert 0 < measured.same_judgement < measured.runs
    assert len(measured.differences) == measured.runs - measured.same_judgement


def test_each_scenario_refused_is_named(measured: Agreement) -> None:
    section = _section()
    for why in measured.refused:
        short = why.split(":", 1)[0].split(".", 2)[2]  # `pi.data-plane-injection-001`
        assert short in section, why
