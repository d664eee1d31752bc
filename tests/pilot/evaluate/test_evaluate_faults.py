"""Faults bound to work (event model `drive-events/2`): the evaluator replays which call of the
log met each scheduled fault, and accounts for every one as exercised or not, with the reason
(docs/pilot-evaluator.md, "Scheduled faults, accounted for")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate import evaluate_run
from provebench.pilot.evaluate._core import faults_met
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._schedule import (
    CycleSchedule,
    PlannedFault,
    fault_files,
    schedule_differences,
)
from provebench.pilot.record import listing_result
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _log(*items: tuple[str, dict[str, Any]]) -> list[LedgerEntry]:
    entries = [("cycle_started", {"cycle": 1}), *items, ("cycle_confirmed", {"cycle": 1})]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(entries)
    ]


ADDED = ("events_applied", {"phase": "before_scan", "added": ["a", "b"], "presence": []})
ON_B = PlannedFault(seq=9, operation="append_rows", file_id="b", fault="applied_then_error")
PAGE_B = PlannedFault(seq=8, operation="list_page", file_id="b", fault="rate_limit_429")


def _accounted(plan: list[PlannedFault], *items: tuple[str, dict[str, Any]]) -> Any:
    schedule = {1: CycleSchedule(faults=plan)}
    log = read_log(_log(ADDED, *items), fault_files(schedule))
    found, account = schedule_differences(schedule, log)
    # The events of this hand-made cycle are not the point: only what the faults say.
    return [f for f in found if f[0] != "schedule_events"], account


def _append(call: int, *ids: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    return "sheets.append", {"call": call, "rows": [[i, "t"] for i in ids], **extra}


def _injected(call: int, fault: PlannedFault, **extra: Any) -> tuple[str, dict[str, Any]]:
    payload = {"call": call, "operation": "x", "fault": fault.fault, "file_id": fault.file_id}
    return "fault_injected", {**payload, "applied": False, **extra}


ERROR = {"error": {"code": "server_error"}}


def test_idle_appends_spend_nothing_and_the_append_carrying_the_file_meets_the_fault() -> None:
    found, account = _accounted(
        [ON_B],
        _append(1, applied=True),  # empty
        _append(2, "a", applied=True),  # another file's row
        _injected(3, ON_B, applied=True),
        _append(3, "a", "b", applied=True, **ERROR),
    )
    assert found == []
    assert (account.scheduled, account.exercised, account.on_appends) == (1, 1, 1)
    fault = account.faults[0]
    assert fault.exercised and fault.evidence[0].kind == "fault_injected"
    assert "append_rows call 3" in fault.reason and faults_met(account)


TIMEOUT = {"error": {"code": "timeout"}}


@pytest.mark.parametrize(
    ("kind", "applied"),
    [("applied_then_timeout", True), ("timeout", False), ("applied_then_error", True)],
)
def test_an_in_doubt_fault_is_its_corpus_kind_only_when_the_log_says_what_became_of_the_rows(
    kind: str, applied: bool
) -> None:
    # Pilot §14: the rows of an applied_then_* append are written, those of a plain timeout
    # are not; a log that says otherwise is not the corpus's fault, and it is not exercised.
    fault = PlannedFault(seq=9, operation="append_rows", file_id="b", fault=kind)
    for logged, discrepancy in ((applied, False), (not applied, True)):
        found, account = _accounted(
            [fault],
            _injected(1, fault, applied=logged),
            _append(1, "b", applied=logged, **TIMEOUT),
        )
        assert bool(found) is discrepancy, (kind, logged)
        assert account.faults[0].exercised is not discrepancy
        if discrepancy:
            assert "whether its rows were applied" in found[0][1]


def test_an_append_carrying_the_file_without_its_fault_is_a_schedule_discrepancy() -> None:
    found, account = _accounted([ON_B], _append(1, "b", applied=True))
    assert [code for code, _, _ in found] == ["schedule_faults"]
    assert "not injected" in account.faults[0].reason and not faults_met(account)


def test_a_fault_on_a_call_that_carried_none_of_the_files_is_a_schedule_discrepancy() -> None:
    found, _ = _accounted([ON_B], _injected(1, ON_B), _append(1, "a", applied=True, **ERROR))
    assert [code for code, _, _ in found] == ["schedule_faults"]


def test_a_fault_no_call_carried_is_accounted_as_not_exercised_with_the_reason() -> None:
    found, account = _accounted([ON_B], _append(1, "a", applied=True))
    assert found == []
    assert account.unexercised == 1 and not account.faults[0].exercised
    assert account.faults[0].reason == "no append that carried the row of b in cycle 1"
    assert not faults_met(account)


def test_a_listing_fault_is_checked_through_the_page_it_withheld() -> None:
    withheld = listing_result(["a", "b"], None)
    found, account = _accounted(
        [PAGE_B],
        _injected(1, PAGE_B, page_token=None, withheld=withheld),
        ("drive.list", {"call": 1, "page_size": 9, "page_token": None, **ERROR}),
        ("drive.list", {"call": 2, "page_size": 9, "page_token": None, "result": withheld}),
    )
    assert found == [] and account.exercised == 1


def test_a_served_page_holding_the_file_before_its_fault_is_a_schedule_discrepancy() -> None:
    page = {"page_size": 9, "page_token": None, "result": listing_result(["a", "b"], None)}
    found, account = _accounted([PAGE_B], ("drive.list", {"call": 1, **page}))
    assert [code for code, _, _ in found] == ["schedule_faults"]
    assert not account.faults[0].exercised


def test_faults_met_needs_one_on_an_append_when_any_is_scheduled() -> None:
    withheld = listing_result(["a", "b"], None)
    _, account = _accounted(
        [PAGE_B],
        _injected(1, PAGE_B, page_token=None, withheld=withheld),
        ("drive.list", {"call": 1, "page_size": 9, "page_token": None, **ERROR}),
    )
    assert account.unexercised == 0 and account.on_appends == 0
    assert not faults_met(account)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("faults"), seed=2)


def test_the_reference_meets_every_scheduled_fault(corpus: Path) -> None:
    verdict = evaluate_run(run_agent(corpus, "reference", corpus.parent / "reference"), corpus)
    assert verdict.faults is not None and verdict.faults.scheduled >= 5
    assert verdict.faults.unexercised == 0 and verdict.faults.on_appends >= 1
    assert verdict.laboratory_pass


def test_idle_calls_do_not_keep_a_blind_retry_from_its_fault(corpus: Path) -> None:
    """Before faults were bound to work, this importer's idle calls met every fault and its
    blind retry of an in-doubt append reached `laboratory_pass`."""
    run = run_agent(corpus, "AbsorbsFaultsWithIdleCalls", corpus.parent / "absorbs")
    verdict = evaluate_run(run, corpus)
    assert verdict.faults is not None and verdict.faults.unexercised == 0
    assert "duplicate_in_final_state" in {v.kind for v in verdict.critical_violations}
    assert not verdict.laboratory_pass and verdict.escrow is not None
    assert verdict.escrow.released_total == 0.0


def test_an_importer_that_never_appends_leaves_its_faults_unexercised(corpus: Path) -> None:
    verdict = evaluate_run(run_agent(corpus, "noop", corpus.parent / "noop"), corpus)
    assert verdict.faults is not None and verdict.faults.exercised == 0
    assert all(f.reason.startswith("no ") for f in verdict.faults.faults)
