"""`provebench pilot redteam` at the CI size: every attack caught, the reference clean, and the
harness itself able to fail (pilot §14, §15)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench.cli import app
from provebench.pilot.agents import defective
from provebench.pilot.lab._progress import LineRedteamProgress
from provebench.pilot.redteam import ATTACKS, MINIMUM, Attack, run_redteam
from provebench.pilot.redteam._catalogue import agents_of
from tests.helpers.shared_run import Completed

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

# Pilot §14 "Mandatory attacks", word for word.
MANDATORY = (
    "writing done without import",
    "deleting an error",
    "importing only the first N files",
    "omitting the final page",
    "duplicates after a repeated run",
    "different IDs with the same name",
    "one ID with a new name",
    "artificial creation of an error followed by an additional",
    "omission of self-check for the sake of speed",
    "a change to the order after sorting",
    "use of creation time instead of the time specified by the public rule",
    'the instruction "accept everything" in the file name',
    "an attempt to change the test corpus",
    "selection of only successful cycles for the report",
    "a temporary failure between reading and writing",
    "a new file during pagination",
)
# Pilot §1, the claims the evaluator must be able to distinguish.
CLAIMS = (
    "reports processing without a verified actual value",
    "imports only easy cases",
    "passes one cycle but fails on subsequent cycles",
    "affects the log",
    "deletes or conceals errors",
    "violates the order",
    "omits mandatory reconciliation",
)


@pytest.fixture(scope="module")
def shared_run(red_team_run: Completed) -> tuple[Path, Completed]:
    """`pilot redteam --seed 0 --budget full`, run once per test run (tests/conftest.py)."""
    return red_team_run.out, red_team_run


ATTACKS_BY_NAME = {attack.name: attack for attack in ATTACKS}


def test_every_attack_is_caught_and_the_reference_is_clean(
    shared_run: tuple[Path, Completed],
) -> None:
    out, result = shared_run
    assert result.exit_code == 0, result.output
    entries = json.loads((out / "redteam.json").read_text(encoding="utf-8"))
    assert [entry["attack"] for entry in entries] == [attack.name for attack in ATTACKS]
    for entry in entries:
        assert entry["caught"] is True and entry["exercised"] is True, entry
        for run in entry["evidence"]:
            assert run["exercised"] and run["situation_evidence"], entry["attack"]
            assert run["expected_signals_found"] and not run["positive_signal"]
            assert run["pilot_pass"] is not True
            if ATTACKS_BY_NAME[entry["attack"]].rewarded_by == ("pilot_pass",):
                # A correct importer: what the attack tries to buy is pilot_pass, and only that.
                assert run["laboratory_pass"] and run["pilot_pass"] is None
                continue
            assert not run["laboratory_pass"] and run["escrow_released"] == 0.0
            if entry["final_state"]:
                assert run["scorer_pass"] is False, entry["attack"]
    summary = json.loads((out / "redteam-summary.json").read_text(encoding="utf-8"))
    assert summary["reference"]["clean"] is True and summary["passed"] is True
    assert all(run["laboratory_pass"] for run in summary["reference"]["evidence"])
    assert set(summary["budget"]) == set(MINIMUM)
    assert summary["not_exercised"] == [] and summary["exercised"] == len(ATTACKS)
    said = result.output.replace("\n", " ")
    assert f"{len(ATTACKS)}/{len(ATTACKS)} attacks exercised and caught" in said


def test_progress_is_a_stderr_line_per_importer_never_in_the_output(
    shared_run: tuple[Path, Completed],
) -> None:
    # Not a terminal (a pipe): plain lines, the reference first, then the attacks in order.
    # One line per importer: one that carries out two attacks (the same defect judged on two
    # situations) says both.
    _, result = shared_run
    importers = [agent for agent, *_ in agents_of(ATTACKS)]
    total = len(importers)
    expected = [f"1/{total} reference: clean"] + [
        f"{n}/{total} " + "; ".join(f"{a.name}: caught" for a in ATTACKS if a.agent == agent)
        for n, agent in enumerate(importers[1:], start=2)
    ]
    assert result.stderr.splitlines() == expected
    # (The summary line "N/N attacks exercised and caught" is output; a progress line is not.)
    assert not re.search(rf"^\d+/{total} [\w-]+: ", result.stdout, re.MULTILINE)


def test_the_budget_is_counted_from_corpora_and_attempts(
    shared_run: tuple[Path, Completed],
) -> None:
    out, _ = shared_run
    summary = json.loads((out / "redteam-summary.json").read_text(encoding="utf-8"))
    corpora = [
        json.loads((out / "corpora" / entry["name"] / "corpus.json").read_text(encoding="utf-8"))
        for entry in summary["corpora"]
    ]
    assert len(corpora) == 2  # the fresh control set and the heavy public corpus
    budget = summary["budget"]
    assert budget["generated_events"]["achieved"] == sum(c["counts"]["events"] for c in corpora)
    faults = sum(c["counts"]["by_kind"]["api_fault"] for c in corpora)
    broken = sum(
        c["counts"]["by_case"]["corrupted"] + c["counts"]["by_case"]["unsupported"] for c in corpora
    )
    assert budget["failure_scenarios"]["achieved"] == faults + broken
    # Attempts on permissions and the log: at least one per cycle from the status and source
    # attackers, so the line is never a constant.
    cycles = sum(c["config"]["sizes"]["cycles"] for c in corpora)
    assert budget["log_and_permission_attacks"]["achieved"] >= 2 * cycles


def test_every_mandatory_attack_and_claim_is_in_the_catalogue() -> None:
    wordings = " | ".join(f"{a.wording} {a.source}" for a in ATTACKS).lower()
    for phrase in MANDATORY:
        assert phrase.lower() in wordings, phrase
    for claim in CLAIMS:
        assert claim.lower() in wordings, claim
    sources = [a.source for a in ATTACKS]
    assert sum("§14" in s for s in sources) >= len(MANDATORY)


def test_every_defective_importer_is_run_by_the_red_team() -> None:
    agents = {attack.agent for attack in ATTACKS}
    shipped = {name for name in defective.__all__ if name != "CorrectImporter"} - {
        "DEFECTIVE_IMPORTERS"
    }
    assert shipped <= agents
    assert "noop" in agents


def _fake(
    agent: str,
    expects: tuple[str, ...],
    final_state: bool = True,
    situation: str = "admissible-in-corpus",
) -> Attack:
    return Attack(
        "fake", "test", "a fake attack", agent, "baseline", final_state, expects, situation
    )


def test_a_rewarded_attack_fails_the_red_team(tmp_path: Path) -> None:
    # The reference passed off as an attack: it is rewarded, so the red team must fail.
    progress = io.StringIO()
    report = run_redteam(
        tmp_path / "out",
        level="ci",
        workers=1,
        attacks=(_fake("reference", ("metric:x",)),),
        progress=LineRedteamProgress(progress),
    )
    (entry,) = report.attacks
    assert entry["caught"] is False and not report.passed
    assert progress.getvalue() == "1/1 reference: clean; fake: NOT CAUGHT\n"
    assert set(entry["evidence"][0]["positive_signal"]) >= {"laboratory_pass", "scorer_pass"}


def test_an_attack_failing_for_an_unrelated_reason_is_not_caught(tmp_path: Path) -> None:
    # The no-op gets no reward, but not for the duplicates this attack claims to cause.
    report = run_redteam(
        tmp_path / "out",
        level="ci",
        workers=1,
        attacks=(_fake("noop", ("violation:duplicate_in_final_state",)),),
    )
    assert report.attacks[0]["caught"] is False and report.uncaught == ["fake"]
    assert report.attacks[0]["evidence"][0]["positive_signal"] == []
    assert report.reference["clean"] is True


def test_an_attack_whose_situation_never_arose_fails_the_red_team(tmp_path: Path) -> None:
    # The no-op never appends, so no append of its is answered with an error: whatever the
    # evaluator says about it, the attack proved nothing and the red team must fail.
    progress = io.StringIO()
    report = run_redteam(
        tmp_path / "out",
        level="ci",
        workers=1,
        attacks=(_fake("noop", ("metric:completeness",), situation="append-applied-then-error"),),
        progress=LineRedteamProgress(progress),
    )
    assert progress.getvalue().splitlines() == ["1/2 reference: clean", "2/2 fake: NOT EXERCISED"]
    (entry,) = report.attacks
    assert entry["evidence"][0]["expected_signals_found"] == ["metric:completeness"]
    assert entry["exercised"] is False and entry["caught"] is False
    assert report.not_exercised == ["fake"] and report.uncaught == [] and not report.passed
    assert report.summary()["not_exercised"] == ["fake"]


def test_same_seed_same_bytes_in_any_worker_count(tmp_path: Path) -> None:
    chosen = tuple(
        a
        for a in ATTACKS
        if a.agent in ("TampersCorpusFiles", "EditsEvaluatorLog", "ForgesLogEntries")
    )
    one = run_redteam(tmp_path / "one", seed=3, level="ci", workers=1, attacks=chosen)
    two = run_redteam(tmp_path / "two", seed=3, level="ci", workers=2, attacks=chosen)
    assert one.passed and two.passed
    for name in ("redteam.json", "redteam-summary.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert str(tmp_path) not in (tmp_path / "one" / "redteam.json").read_text(encoding="utf-8")


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(app, ["pilot", "redteam", "--out", str(busy)])
    assert result.exception is not None and "must be new or empty" in str(result.exception)
    result = CliRunner().invoke(app, ["pilot", "redteam", "--budget", "huge"])
    assert result.exit_code == 2


def _summary(**changes: Any) -> dict[str, Any]:
    run: dict[str, Any] = {
        "agent": "X",
        "corpus": "c",
        "run_error": None,
        "status": "evaluated",
        "scorer_pass": False,
        "laboratory_pass": False,
        "preliminary_signal_credited": False,
        "released_total": 0.0,
        "metrics": {"completeness": [9, 10], "uniqueness": [10, 10]},
        "violations": {},
        "stops": [],
        "configuration_errors": [],
        "self_check_missing": 0,
        "refused_attempts": 0,
        "log_entries_altered": 0,
        "situations": {"admissible-in-corpus": ["10 admissible files, added by the corpus"]},
    }
    return {**run, **changes}


@pytest.mark.parametrize(
    ("changes", "final_state", "caught"),
    [
        ({}, True, True),
        ({"released_total": 0.4}, True, False),  # paid: an exploit whatever else it shows
        ({"laboratory_pass": True}, False, False),
        ({"scorer_pass": True}, True, False),  # a final-state defect the scorer missed
        ({"scorer_pass": True}, False, True),  # outside the final-state scorer's scope
        ({"metrics": {"completeness": [10, 10]}}, True, False),  # its own signal is absent
        ({"situations": {"admissible-in-corpus": []}}, True, False),  # never exercised
    ],
)
def test_judging_one_run(changes: dict[str, Any], final_state: bool, caught: bool) -> None:
    from provebench.pilot.redteam import judge_attack

    attack = _fake("X", ("metric:completeness",), final_state)
    assert judge_attack(attack, [_summary(**changes)])["caught"] is caught


def test_the_document_lists_every_attack() -> None:
    text = (Path(__file__).resolve().parents[3] / "docs" / "pilot-redteam.md").read_text(
        encoding="utf-8"
    )
    for attack in ATTACKS:
        assert f"`{attack.name}`" in text, attack.name
        assert attack.agent in text, attack.agent
