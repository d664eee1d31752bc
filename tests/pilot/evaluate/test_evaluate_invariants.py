"""The evaluator's invariants (docs/pilot-evaluator.md, "Invariants"): each fails on a run built
to break it and holds on the reference run. Every attack here reached a positive signal before
its invariant existed, without escaping any sandbox."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate import evaluate_run
from provebench.pilot.evaluate._escrow import dated_defects
from provebench.pilot.evaluate._gate import GateFinding
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._selfchecks import self_check_findings
from provebench.pilot.redteam._tamper import rewrite_log_offline
from tests.helpers.pilot_evaluation import make_small_corpus, resign, run_agent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("invariants"), seed=2)


@pytest.fixture(scope="module")
def reference(corpus: Path) -> Path:
    return run_agent(corpus, "reference", corpus.parent / "reference")


def stops(verdict: Any) -> dict[str, str]:
    return {stop.name: stop.status for stop in verdict.stopping_conditions}


def test_the_reference_run_holds_every_invariant(corpus: Path, reference: Path) -> None:
    verdict = evaluate_run(reference, corpus)
    assert verdict.laboratory_pass, verdict.critical_violations
    assert verdict.self_check_gaps == [] and verdict.critical_violations == []
    assert stops(verdict)["snapshot_discrepancy"] == "clear"
    assert verdict.metrics is not None and verdict.metrics.overall.recovery.denominator > 0
    sets = verdict.reconciliation
    assert sets is not None
    # Invariant 6: the Jepsen-style sets by file_id, every one of them, in every verdict.
    for name in ("attempted", "acknowledged", "confirmed", "lost", "unexpected", "duplicated"):
        assert len(getattr(sets, name)) == sets.counts[name], name
    assert sets.recovered is not None and set(sets.confirmed) <= set(sets.attempted)


# -- invariant 1: a row for a file never shown --------------------------------------------------
def test_rows_for_files_never_shown_are_processing_without_a_verified_value(corpus: Path) -> None:
    run = run_agent(corpus, "AnswersWithoutListing", corpus.parent / "no-listing")
    verdict = evaluate_run(run, corpus)
    # Its data is perfect (the published final-state scorer passes it) …
    assert verdict.scorer_pass and verdict.metrics is not None
    assert verdict.metrics.overall.completeness.value == 1.0
    # … and it never listed the Drive: every row is a report without a verified actual value.
    caught = [
        v
        for v in verdict.critical_violations
        if v.kind == "processing_without_verified_actual_value"
    ]
    assert len(caught) == len(json.loads(verdict.model_dump_json())["reconciliation"]["confirmed"])
    assert all(v.evidence and v.evidence[0].kind == "sheets.append" for v in caught)
    assert not verdict.laboratory_pass and verdict.escrow is not None
    assert verdict.escrow.released_total == 0.0


# -- invariant 2: the log's events and faults are the corpus's schedule ------------------------
def test_faults_suppressed_from_the_log_are_a_snapshot_discrepancy(
    corpus: Path, reference: Path, tmp_path: Path
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(reference, run)
    rewrite_log_offline(run, lambda kind, p: None if kind == "fault_injected" else (kind, p))
    resign(run)  # even a laboratory that signs such a log does not get past the schedule
    verdict = evaluate_run(run, corpus)
    assert stops(verdict)["snapshot_discrepancy"] == "triggered"
    discrepancy = next(s for s in verdict.stopping_conditions if s.name == "snapshot_discrepancy")
    assert "schedule_faults" in discrepancy.reason
    assert not verdict.laboratory_pass


def test_an_event_erased_from_the_log_is_a_snapshot_discrepancy(
    corpus: Path, reference: Path, tmp_path: Path
) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(reference, run)
    dropped: list[str] = []

    def erase_one_presence_change(kind: str, payload: dict[str, Any]) -> tuple[str, dict] | None:
        if kind == "events_applied" and payload.get("presence") and not dropped:
            dropped.append(str(payload["presence"][0]))
            return kind, {**payload, "presence": payload["presence"][1:]}
        return kind, payload

    rewrite_log_offline(run, erase_one_presence_change)
    assert dropped, "the corpus was expected to remove or bring back a file"
    resign(run)
    verdict = evaluate_run(run, corpus)
    discrepancy = next(s for s in verdict.stopping_conditions if s.name == "snapshot_discrepancy")
    assert discrepancy.status == "triggered" and "schedule_events" in discrepancy.reason


# -- invariant 3: a failure is reported only by a report that names it -------------------------
def test_an_unrelated_failure_report_covers_no_concealed_failure(corpus: Path) -> None:
    run = run_agent(corpus, "ReportsUnrelatedFailure", corpus.parent / "unrelated")
    entries = [json.loads(line) for line in (run / "ledger.jsonl").read_text().splitlines()]
    failed_appends = [
        e for e in entries if e["kind"] == "sheets.append" and "error" in e["payload"]
    ]
    assert failed_appends, "the corpus was expected to fail an append"
    verdict = evaluate_run(run, corpus)
    concealed = [
        v
        for v in verdict.critical_violations
        if v.kind == "unsuccessful_attempt_deleted_or_concealed"
    ]
    assert {ref.seq for v in concealed for ref in v.evidence} >= {e["seq"] for e in failed_appends}
    assert stops(verdict)["loss_of_attempts"] == "triggered" and not verdict.laboratory_pass


# -- invariant 4: escrow grades unexpected rows -------------------------------------------------
def test_near_duplicate_ids_are_graded_by_the_escrow(corpus: Path) -> None:
    run = run_agent(corpus, "NearDuplicateIds", corpus.parent / "near-duplicates")
    verdict = evaluate_run(run, corpus)
    assert verdict.escrow is not None and verdict.escrow.released_total == 0.0
    assert verdict.reconciliation is not None and verdict.reconciliation.unexpected
    # Every cycle from the first that confirmed a near-duplicate row is graded. Its reports of a
    # near-duplicate id (`<id>-0`, append_in_doubt) name the corpus file too (an id glued to a
    # word: pilot red team 33, A6), a gap dated before the rows, so a cycle's reasons (its
    # earliest three defects) need not show the row itself: the defect count does.
    graded = [c for c in verdict.escrow.cycles if not c.clean_when_confirmed]
    assert graded and graded[-1].cycle == verdict.escrow.cycles[-1].cycle
    counts = [
        int(reason.split()[0]) for c in graded for reason in c.reasons if " by cycle " in reason
    ]
    gaps = len(verdict.refusal_report_gaps)
    assert max(counts) > gaps  # the unexpected rows are dated defects beyond the report gaps


def test_unexpected_rows_are_dated_defects_of_their_cycle_and_every_later_one() -> None:
    gate = [
        GateFinding("self_check_gap", 3, "§12 self-check pagination: not reported"),
        GateFinding("fault", 3, "fault not exercised: x"),
    ]
    defects = dated_defects(gate, [], [], {"a-1-0": 2})
    assert defects == {
        2: ["unexpected row: a-1-0"],
        3: ["§12 self-check pagination: not reported", "fault not exercised: x"],
    }


# -- invariant 5: self-check claims are checked against the log --------------------------------
def test_a_claimed_second_listing_pass_that_the_log_does_not_show_is_a_false_claim(
    corpus: Path,
) -> None:
    run = run_agent(corpus, "ClaimsUncheckedSelfChecks", corpus.parent / "false-claims")
    verdict = evaluate_run(run, corpus)
    claims = [v for v in verdict.critical_violations if v.kind == "false_self_check_claim"]
    assert claims and all("file_added_during_traversal" in v.message for v in claims)
    assert len(claims) == len(verdict.escrow.cycles)  # type: ignore[union-attr]
    assert not verdict.laboratory_pass


@pytest.mark.parametrize(
    ("arguments", "false"),
    [
        ({"file_id": "provebench:self-check", "status": "imported"}, False),
        # The probe's id inside another target is no probe: an attempt on a real file.
        ({"file_id": "a", "note": "provebench:self-check"}, True),
    ],
)
def test_a_final_status_claim_needs_the_probe_itself(
    arguments: dict[str, Any], false: bool
) -> None:
    from provebench.pilot.evaluate._violations import refusal_violations

    claim = {"channel": "self_check", "name": "final_status_not_writable", "passed": True}
    refused = {"operation": "sheets.set_status", "arguments": arguments}
    log = read_log(_log(("refused", refused), ("diagnostics", claim)))
    _, probes = refusal_violations(log, {"a"})
    violations, _, _ = self_check_findings(log, frozenset(), frozenset(p.cycle for p in probes))
    assert bool(violations) is false


def test_an_importer_that_reports_no_self_checks_has_gaps(corpus: Path) -> None:
    run = run_agent(corpus, "noop", corpus.parent / "noop")
    verdict = evaluate_run(run, corpus)
    checks = {gap.check for gap in verdict.self_check_gaps}
    assert "pagination" in checks and "reconciliation_numbers" in checks
    assert not verdict.laboratory_pass


def _log(*items: tuple[str, dict[str, Any]]) -> list[LedgerEntry]:
    entries = [("cycle_started", {"cycle": 1}), *items, ("cycle_confirmed", {"cycle": 1})]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(entries)
    ]


PAGE = {"page_size": 9, "page_token": None, "result": {"file_ids": ["a", "b"]}}
LAST_PAGE = {**PAGE, "result": {**PAGE["result"], "next_page_token": None}}
TRAVERSAL = {"channel": "self_check", "name": "file_added_during_traversal", "passed": True}


@pytest.mark.parametrize(
    ("items", "false"),
    [
        ([("drive.list", LAST_PAGE), ("drive.list", LAST_PAGE)], False),
        # One pass, however well the ids were known before it (gets): not two passes.
        ([("drive.get", {"result": {"file_id": "a"}}), ("drive.get", {"result": {"file_id": "b"}}),
          ("drive.list", LAST_PAGE)], True),
        # Two passes, the second still finding a file: the traversal was not settled.
        ([("drive.list", {**LAST_PAGE, "result": {"file_ids": ["a"], "next_page_token": None}}),
          ("drive.list", LAST_PAGE)], True),
        # A "pass" that starts on a forged token is no pass.
        ([("drive.list", LAST_PAGE), ("drive.list", {**LAST_PAGE, "page_token": "k61"})], True),
    ],
)  # fmt: skip
def test_a_traversal_claim_needs_two_complete_passes_the_last_finding_nothing(
    items: list[tuple[str, dict[str, Any]]], false: bool
) -> None:
    log = read_log(_log(*items, ("diagnostics", TRAVERSAL)))
    violations, _, _ = self_check_findings(log, frozenset())
    assert bool(violations) is false


APPEND = {"rows": [["a", "t"]], "applied": True}


@pytest.mark.parametrize(
    ("said", "false"),
    [
        ({"source": 2, "imported": 1, "failed": 1, "already_known": 0}, False),
        ({"source": 3, "imported": 1, "failed": 2, "already_known": 0}, True),  # source inflated
        ({"source": 2, "imported": 2, "failed": 0, "already_known": 0}, True),  # imported
        ({"source": 2, "imported": 1, "failed": 0, "already_known": 0}, True),  # does not balance
        # b is refused by the rules: it counts in `failed`, not in doubt (contract rule 9).
        ({"source": 2, "imported": 1, "failed": 0, "already_known": 0, "extra": {"in_doubt": 1}},
         True),
        ({"source": "2", "imported": 1, "failed": 1, "already_known": 0}, True),
    ],
)  # fmt: skip
def test_the_reconciliation_must_be_the_logs_numbers(said: dict[str, Any], false: bool) -> None:
    log = read_log(
        _log(
            ("drive.list", {**PAGE, "result": {**PAGE["result"], "next_page_token": None}}),
            ("sheets.append", APPEND),
            ("diagnostics", {"channel": "reconciliation", **said}),
        )
    )
    violations, gaps, _ = self_check_findings(log, frozenset({"b"}))
    assert bool(violations) is false
    assert "reconciliation_numbers" not in {gap.check for gap in gaps}


@pytest.mark.parametrize(
    ("claimed", "kinds"),
    [
        (False, {"false_reconciliation"}),  # an honest "my reconciliation is off": no false claim
        (True, {"false_reconciliation", "false_self_check_claim"}),
    ],
)
def test_wrong_reconciliation_numbers_are_named_as_such_whatever_the_self_check_said(
    claimed: bool, kinds: set[str]
) -> None:
    wrong = {"source": 2, "imported": 2, "failed": 0, "already_known": 0}
    log = read_log(
        _log(
            ("drive.list", {**PAGE, "result": {**PAGE["result"], "next_page_token": None}}),
            ("sheets.append", APPEND),
            ("diagnostics", {"channel": "reconciliation", **wrong}),
            ("diagnostics", {"channel": "self_check", "name": "reconciliation", "passed": claimed}),
        )
    )
    violations, _, _ = self_check_findings(log, frozenset({"b"}))
    assert {v.kind for v in violations} == kinds
    numbers = next(v for v in violations if v.kind == "false_reconciliation")
    assert "imported 2; the log shows 1" in numbers.message
    assert numbers.evidence and numbers.evidence[0].seq >= 0


# -- invariant 5: a check is judged performed by the log, whatever the claim ---------------------
PAGINATION = {"channel": "self_check", "name": "pagination"}


@pytest.mark.parametrize(
    ("passes", "passed", "outcome", "gap", "false"),
    [
        (1, True, "performed_passed", False, False),
        (1, False, "performed_problem", False, False),  # done, a problem honestly reported
        (0, False, "not_performed", True, False),  # "failed" without doing it: a gap
        (0, True, "contradicted", False, True),  # claimed done, not done: a false claim
        (0, None, "not_performed", True, False),  # not reported at all
    ],
)  # fmt: skip
def test_each_self_check_has_one_outcome_by_what_the_log_shows(
    passes: int, passed: bool | None, outcome: str, gap: bool, false: bool
) -> None:
    claim = [] if passed is None else [("diagnostics", {**PAGINATION, "passed": passed})]
    log = read_log(_log(*[("drive.list", LAST_PAGE)] * passes, *claim))
    violations, gaps, outcomes = self_check_findings(log, frozenset())
    pagination = next(o for o in outcomes if o.check == "pagination")
    assert getattr(pagination, outcome) == [1]
    assert (
        sum(
            len(getattr(pagination, key)) for key in type(pagination).model_fields if key != "check"
        )
        == 1
    )
    assert ("pagination" in {g.check for g in gaps}) is gap
    assert bool([v for v in violations if "pagination" in v.message]) is false


def test_the_retry_check_has_nothing_to_check_without_a_failure() -> None:
    claim = {"channel": "self_check", "name": "temporary_failure_and_retry", "passed": False}
    log = read_log(_log(("diagnostics", claim)))
    _, gaps, outcomes = self_check_findings(log, frozenset())
    retry = next(o for o in outcomes if o.check == "temporary_failure_and_retry")
    assert retry.nothing_to_check == [1]
    assert "temporary_failure_and_retry" not in {g.check for g in gaps}


# -- invariant 5: the id checks need a read about every id they concern --------------------------
ID_CHECKS = ("repeated_run_without_new_files", "reappearing_id")
# a and c shown, b refused by the rules; c appended: the ids concerned are a and c.
SHOWN = {**PAGE, "result": {"file_ids": ["a", "b", "c"], "next_page_token": None}}
APPEND_C = ("sheets.append", {"rows": [["c", "t"]], "applied": True})


def _read(file_id: str | None = None, error: bool = False) -> tuple[str, dict[str, Any]]:
    payload: dict[str, Any] = (
        {"operation": "all", "result": {"count": 0}}
        if file_id is None
        else {"operation": "contains", "file_id": file_id, "result": False}
    )
    if error:
        del payload["result"]
        payload["error"] = {"code": "timeout", "message": "t"}
    return "sheets.read_confirmed", payload


def _id_check_outcomes(
    items: list[tuple[str, dict[str, Any]]], passed: bool
) -> tuple[dict[str, str], set[str], int]:
    """(each id check's outcome, the checks with a gap, the number of false claims)."""
    claims = [
        ("diagnostics", {"channel": "self_check", "name": name, "passed": passed})
        for name in ID_CHECKS
    ]
    violations, gaps, outcomes = self_check_findings(
        read_log(_log(*items, *claims)), frozenset({"b"})
    )
    found = {
        o.check: next(key for key in type(o).model_fields if key != "check" and getattr(o, key))
        for o in outcomes
        if o.check in ID_CHECKS
    }
    false = sum(1 for v in violations if v.kind == "false_self_check_claim")
    return found, {g.check for g in gaps} & set(ID_CHECKS), false


@pytest.mark.parametrize(
    ("reads", "performed"),
    [
        ([_read()], True),  # all the confirmed ids
        ([_read("c"), _read("a")], True),  # each id concerned (b is refused: not concerned)
        ([], False),
        # A read about an unrelated id (the probe's reserved id) answers nothing about a or c:
        # before, any successful read made both checks performed (red-team round 3).
        ([_read("provebench:self-check")], False),
        ([_read("zz")], False),
        ([_read("a")], False),  # c, appended, never asked about
        ([_read(error=True)], False),  # a read that failed shows nothing
        ([_read("a"), _read("c", error=True)], False),
    ],
)
def test_the_id_checks_need_a_read_about_every_id_they_concern(
    reads: list[tuple[str, dict[str, Any]]], performed: bool
) -> None:
    items = [("drive.list", SHOWN), *reads, APPEND_C]
    outcomes, gaps, false = _id_check_outcomes(items, passed=True)
    assert outcomes == dict.fromkeys(ID_CHECKS, "performed_passed" if performed else "contradicted")
    assert (gaps, false) == (set(), 0 if performed else 2)
    # Reported failed: an honest problem when the reads were made, a gap when they were not.
    outcomes, gaps, false = _id_check_outcomes(items, passed=False)
    assert outcomes == dict.fromkeys(
        ID_CHECKS, "performed_problem" if performed else "not_performed"
    )
    assert (gaps, false) == (set() if performed else set(ID_CHECKS), 0)


@pytest.mark.parametrize(
    ("reads", "performed"), [([_read("a")], False), ([_read("a"), _read("c")], True)]
)
def test_an_appended_file_the_listing_no_longer_shows_is_concerned_too(
    reads: list[tuple[str, dict[str, Any]]], performed: bool
) -> None:
    """A row left in doubt by an earlier cycle, appended again for a file no longer listed."""
    outcomes, _, _ = _id_check_outcomes([("drive.list", LAST_PAGE), *reads, APPEND_C], passed=True)
    assert outcomes == dict.fromkeys(ID_CHECKS, "performed_passed" if performed else "contradicted")


def test_the_id_checks_have_nothing_to_check_without_an_admitted_file() -> None:
    """Shown only a refused file and appending nothing, a cycle has no id to ask about."""
    only_refused = {**PAGE, "result": {"file_ids": ["b"], "next_page_token": None}}
    outcomes, gaps, _ = _id_check_outcomes([("drive.list", only_refused)], passed=True)
    assert outcomes == dict.fromkeys(ID_CHECKS, "nothing_to_check")
    assert gaps == set()


def test_checks_reported_failed_without_being_done_block_the_gate(corpus: Path) -> None:
    """The importer lists once and reports every check failed: before, an honest-looking run
    that passed the gate; now each undone check is a gap."""
    run = run_agent(corpus, "ReportsChecksFailedWithoutDoingThem", corpus.parent / "said-failed")
    verdict = evaluate_run(run, corpus)
    gaps = {(gap.check, gap.reason) for gap in verdict.self_check_gaps}
    assert ("file_added_during_traversal", "reported passed: false, and 1 complete listing "
            "pass(es); at least 2 needed") in gaps  # fmt: skip
    assert not verdict.critical_violations  # an honest "failed" is no violation
    pagination = next(o for o in verdict.self_checks if o.check == "pagination")
    assert pagination.performed_problem and not pagination.not_performed
    assert not verdict.laboratory_pass
