"""docs/si-profile.md's "Do the two estates agree?" stays true: how many runs of the scripted
agents, on the scenarios the physical estate holds whole, the two estates judge alike, and
each verdict they do not (tests/helpers/estate_agreement.py measures them)."""

from __future__ import annotations

import pytest

from provebench.si.scenario import load_scenarios
from provebench.si.sim import Session
from provebench.si.sim._route import (
    DECLARED_UNTIL,
    PHYSICAL_VERDICTS_MEANT,
    SCRIPTED_VERDICTS_DIFFER,
    estate_of,
    open_session,
)
from provebench.si.sim.declared import DeclaredSession
from tests.helpers.estate_agreement import Agreement, agreement
from tests.helpers.physical_coverage import PROFILE, REPO, measure

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


def test_the_scenarios_held_back_are_those_whose_verdicts_differ(measured: Agreement) -> None:
    # `si.sim._route` runs every Form A scenario the physical estate holds whole in it but
    # those it names, and names exactly those on which the two estates' verdicts differ
    differing = {d.scenario for d in measured.differences if d.verdict_differs}
    # or runs each in the physical estate whose verdicts there are the ones the profile means
    assert not set(SCRIPTED_VERDICTS_DIFFER) & set(PHYSICAL_VERDICTS_MEANT)
    assert set(SCRIPTED_VERDICTS_DIFFER) | set(PHYSICAL_VERDICTS_MEANT) == differing != set()
    # the others held back each name the test that shows their runs judged apart
    for scenario_id, why in DECLARED_UNTIL.items():
        assert scenario_id in differing or "tests/si/provider/test_" in why, scenario_id


def test_which_estate_runs_each_scenario_of_the_profile(measured: Agreement) -> None:
    whole = set(measure(PROFILE).whole)
    refused = {why.split(":", 1)[0] for why in measured.refused}
    physical = whole - refused - set(DECLARED_UNTIL)
    # a scenario whose state holds a Secret runs there too: every disclosure check finds the
    # value in the base64 the physical estate shows (`primitives._secret_forms`)
    secrets = {
        s.id
        for p in PROFILE.rglob("*.yaml")
        for s in load_scenarios(p)
        if any(
            str(e.get("resource", "")).startswith("secret/")
            for e in s.preconditions.environment.state or []
        )
    }
    assert len(physical) > 0 and secrets & whole and secrets & whole <= physical
    for path in sorted(PROFILE.rglob("*.yaml")):
        for scenario in load_scenarios(path):
            where, why = estate_of(scenario)
            assert where == ("physical" if scenario.id in physical else "declared"), scenario.id
            opened = Session if where == "physical" else DeclaredSession
            assert isinstance(open_session(scenario), opened), scenario.id
            if scenario.id in refused:
                assert "stimuli[" in why, why
            elif scenario.id not in whole:
                assert "cannot hold it yet (preconditions.environment.state[" in why, why
    # the section says how many run there, and names each held back
    assert f"**{len(physical)}** of them run in the physical estate" in _section()
