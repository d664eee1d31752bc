"""Every red-team attack is exercised: its situation arises in the run, whatever the seed, and
the evidence for it is read from the corpus and the run's own log (pilot §14)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench.pilot.redteam import ATTACKS, MINIMUM, RedteamReport, run_redteam
from provebench.pilot.redteam._situations import (
    SITUATIONS,
    Page,
    RunView,
    corpus_gaps,
)

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow


def _added(file_id: str, cycle: int = 1, name: str = "x.mp3") -> dict[str, Any]:
    file = {"file_id": file_id, "name": name, "metadata": None, "created_at_utc": "2026-01-01Z"}
    return {"kind": "file_added", "cycle": cycle, "case": "ordinary", "file": file}


def _view(admissible: tuple[str, ...], refused: tuple[str, ...] = (), cycles: int = 3) -> RunView:
    events = [_added(f) for f in (*admissible, *refused)]
    return RunView(
        cycles=cycles,
        expected={f: {"file_id": f} for f in admissible},
        added={e["file"]["file_id"]: e for e in events},
        events=events,
    )


def test_every_attack_names_a_known_situation() -> None:
    for attack in ATTACKS:
        assert attack.situation in SITUATIONS, attack.name


def test_a_file_seen_on_an_earlier_page_in_time_is_not_a_last_page_situation() -> None:
    find = SITUATIONS["last-page-only"].find
    view = _view(("a", "b", "c"))
    view.pages = [Page(1, 1, ["a", "b"], False), Page(1, 2, ["c"], True)]
    assert find(view) == ["c: on a last page only, in every listing up to cycle 2"]
    # Moved to an earlier page by a later addition, before its due cycle: no situation.
    view.pages.append(Page(2, 1, ["a", "c"], False))
    assert find(view) == []


def test_a_file_added_above_the_cursor_is_not_missed_by_one_pass() -> None:
    find = SITUATIONS["added-below-cursor"].find
    view = _view(("b", "m", "z"))
    view.during_scan = [(1, "m", ["z"])]
    assert find(view) == []
    view.during_scan = [(1, "m", ["b"])]
    assert find(view) == ["cycle 1: b added during the scan, below the cursor m"]
    view.during_scan = [(1, None, ["z"])]  # after the traversal reached the end
    assert len(find(view)) == 1


def test_a_removed_file_is_a_situation_once_listed_before_and_a_later_cycle_listed() -> None:
    find = SITUATIONS["listed-then-removed"].find
    view = _view(("a", "b"))
    view.events.append({"kind": "file_removed", "cycle": 2, "file_id": "a"})
    view.pages = [Page(1, 1, ["b"], True), Page(2, 1, ["b"], True)]
    assert find(view) == []  # never listed before its removal
    view.pages[0] = Page(1, 1, ["a", "b"], True)
    assert find(view) == ["cycle 2: a, listed before, removed"]
    view.pages = view.pages[:1]  # no cycle listed after the removal
    assert find(view) == []


def test_append_situations_read_the_answer_and_whether_it_was_applied() -> None:
    view = _view(("a",))
    rows = [["a"]]
    view.appends = [(1, {"applied": False, "rows": rows, "error": {"code": "rate_limit"}})]
    assert SITUATIONS["append-error"].find(view)
    assert not SITUATIONS["append-in-doubt"].find(view)
    assert not SITUATIONS["append-applied-then-error"].find(view)
    view.appends = [(1, {"applied": True, "rows": rows, "error": {"code": "server_error"}})]
    assert SITUATIONS["append-in-doubt"].find(view)
    assert SITUATIONS["append-applied-then-error"].find(view)
    assert not SITUATIONS["rows-appended"].find(view)  # an error answer is not a clean append
    # The two timeouts an append may meet: the same answer, told apart by what became of it.
    for applied, key, other in (
        (False, "append-timeout", "append-applied-then-timeout"),
        (True, "append-applied-then-timeout", "append-timeout"),
    ):
        view.appends = [(1, {"applied": applied, "rows": rows, "error": {"code": "timeout"}})]
        assert SITUATIONS[key].find(view) and SITUATIONS["append-in-doubt"].find(view)
        assert not SITUATIONS[other].find(view)


def test_an_in_doubt_append_counts_only_with_a_later_cycle_to_settle_it_in() -> None:
    find = SITUATIONS["in-doubt-then-later-cycle"].find
    view = _view(("a",))
    view.pages = [Page(1, 1, ["a"], True), Page(2, 1, ["a"], True)]
    view.appends = [(2, {"applied": False, "rows": [["a"]], "error": {"code": "timeout"}})]
    assert find(view) == []  # in the last cycle listed: no later cycle to retry it in
    refused = {"applied": False, "rows": [["a"]], "error": {"code": "rate_limit"}}
    view.appends.insert(0, (1, refused))
    assert find(view) == []  # a 429 took no effect: nothing in doubt
    landed = {"applied": True, "rows": [["a"]], "error": {"code": "server_error"}}
    view.appends.insert(0, (1, landed))
    assert find(view) == ["cycle 1: append answered server_error, cycle 2 listed"]


def test_a_no_effect_failure_is_a_429_or_503_the_lab_injected() -> None:
    view = _view(("a",))
    find = SITUATIONS["no-effect-failure"].find
    view.faults = [(1, {"operation": "drive.list", "fault": "timeout"})]
    assert find(view) == []
    view.faults.append((2, {"operation": "sheets.append", "fault": "unavailable_503"}))
    assert find(view) == ["cycle 2: sheets.append answered unavailable_503"]


def test_a_renamed_file_counts_only_once_confirmed_and_listed_again() -> None:
    find = SITUATIONS["renamed-known-file"].find
    view = _view(("a",))
    view.events.append({"kind": "file_renamed", "cycle": 2, "file_id": "a"})
    view.pages = [Page(2, 1, ["a"], True)]
    assert find(view) == []  # never confirmed before the rename
    view.appends = [(1, {"applied": True, "rows": [["a"]]})]
    assert find(view) == ["cycle 2: confirmed a renamed and listed again"]


def test_same_name_needs_two_admissible_ids_bearing_it_in_one_cycle() -> None:
    find = SITUATIONS["same-name-different-ids"].find
    view = _view(("a", "b"), refused=("c",))
    view.added["b"]["file"]["name"] = view.added["c"]["file"]["name"] = "same.mp3"
    view.pages = [Page(1, 1, ["a", "b", "c"], True), Page(2, 1, ["a", "b", "c"], True)]
    assert find(view) == []  # b shares its name with a refused file only
    # a takes b's name by a rename in cycle 2: from then on both bear it.
    view.events.append({"kind": "file_renamed", "cycle": 2, "file_id": "a", "new_name": "same.mp3"})
    assert find(view) == ["cycle 2: 'same.mp3' borne by a, b"]
    view.appends = [(1, {"applied": True, "rows": [["a"], ["b"]]})]
    assert find(view) == []  # both confirmed before they shared it: nothing left to merge


def test_the_corpus_plan_tries_the_next_seed_until_the_last_page_holds_an_admissible_file(
    tmp_path: Path,
) -> None:
    # CI seed 5's first corpus ends its listing on a refused or removed file: the plan moves on
    # (seed 14 did before faults were bound to files, drive-events/2, and seed 2 before the
    # applied timeout joined the fault kinds: each changed the draw).
    report = run_redteam(
        tmp_path / "out",
        seed=5,
        level="ci",
        workers=2,
        attacks=tuple(a for a in ATTACKS if a.agent == "OmitsFinalPage"),
    )
    (corpus,) = report.corpora
    assert corpus["seed_attempts"] > 1 and corpus["seed"] != 5
    assert corpus_gaps(tmp_path / "out" / "corpora" / "public") == []
    (entry,) = report.attacks
    assert entry["exercised"] and entry["caught"], entry
    assert report.passed


@pytest.mark.slow
def test_every_attack_is_exercised_and_caught_on_a_seed_of_the_sweep(tmp_path: Path) -> None:
    # The sweep at a small scale (docs/pilot-redteam.md, "Seed sweep", has the full one): the
    # one run of the whole catalogue at the CI budget, beside the full budget's seed 0, which the
    # suite's shared `pilot redteam` runs (tests/conftest.py, red_team_run).
    # One seed: CI seeds 14, 17 and 38 each ran the same 46 attacks through the same code, every
    # one exercised and caught, at about half a minute each. 38 is kept: its corpus gave the most
    # situation evidence (147 instances, against 139 for 14 and 140 for 17).
    seed = 38
    report = run_redteam(tmp_path / "out", seed=seed, level="ci", workers=2)
    assert report.not_exercised == [] and report.uncaught == [], seed
    assert report.reference["clean"] and report.passed


@pytest.mark.slow
def test_the_full_budget_catches_every_attack_and_meets_the_minimum(
    full_red_team: tuple[Path, RedteamReport],
) -> None:
    out, report = full_red_team  # the run's one full-budget report (tests/pilot/conftest.py)
    assert report.level == "full"
    assert report.not_exercised == [] and report.uncaught == []
    assert report.reference["clean"] and report.budget_short == [] and report.passed
    summary = json.loads((out / "redteam-summary.json").read_text(encoding="utf-8"))
    for line, minimum in MINIMUM.items():
        assert summary["budget"][line]["achieved"] >= minimum, line
    assert len(summary["corpora"]) == 2
    for entry in report.attacks:
        assert all(run["exercised"] for run in entry["evidence"]), entry["attack"]
