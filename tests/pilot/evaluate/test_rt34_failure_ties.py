"""Error reports tied to the laboratory's failures (pilot red team 34, A2, A4, A9).

A2: after appends that all succeeded, 8 × `error("import_failed", "N file(s) could not be
imported; sync aborted", failed_call=<a failed, then retried, list call>)` per failed list call
passed: a tie by call was never spent, and a listing (which carries no file) tied a report that
files failed. A4: the reference, meeting a fault on a non-last 1,000-row batch, named every row
left (batches never attempted included) in its `append_in_doubt` report: 1,661 `not_refused`
gaps, laboratory_pass false. A9: the reference plus a summary naming no file and no call, after
its `append_in_doubt` report had named the rows: `names_no_file`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench.pilot import run_lab
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps
from tests.helpers.pilot_evaluation import evaluate
from tests.pilot.evaluate.test_rt31_claims_gaps import ID, OTHER, _log

FILES_FAILED = "8 file(s) could not be imported; sync aborted"
SUMMARY = "1 row(s) could not be confirmed; they will be reconciled next cycle"
LISTING_FAILED = "temporary error (rate_limit) on drive.list; retry"


def _call(kind: str, call: int, **fields: Any) -> tuple[str, dict[str, Any]]:
    return kind, {"call": call, **fields}


def _error(code: str, detail: str, **fields: Any) -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"channel": "error", "code": code, "detail": detail, **fields}


_PAGE = {"file_ids": [ID, OTHER], "next_page_token": None}
_LIST_FAILED = _call("drive.list", 1, page_size=9, page_token=None, error={"code": "rate_limit"})
_LISTED = _call("drive.list", 2, page_size=9, page_token=None, result=_PAGE)
_APPENDED = _call("sheets.append", 3, rows=[[ID, "x"], [OTHER, "y"]], applied=True)
_APPEND_FAILED = _call("sheets.append", 3, rows=[[ID, "x"]], error={"code": "server_error"})
_IN_DOUBT = _error("append_in_doubt", "ServerError: 1 row(s) left", failed_call=3, file_ids=[ID])


@pytest.mark.parametrize(
    ("items", "gaps"),
    [
        # A2: a failed listing ties no report that files failed, however many name it.
        ([_LIST_FAILED, _LISTED, _APPENDED, _error("import_failed", FILES_FAILED, failed_call=1)],
         1),
        ([_LIST_FAILED, _LISTED, _APPENDED,
          *[_error("import_failed", FILES_FAILED, failed_call=1)] * 8], 8),
        ([_LIST_FAILED, _LISTED, _APPENDED,
          _error("listing_failed", "3 recording(s) could not be uploaded", failed_call=1)], 1),
        # It ties one report that the listing failed (the reference's, filed when it gives the
        # page up), not a second.
        ([_LIST_FAILED, _error("listing_incomplete", LISTING_FAILED, failed_call=1), _LISTED], 0),
        ([_LIST_FAILED, *[_error("listing_incomplete", LISTING_FAILED, failed_call=1)] * 2,
          _LISTED], 1),
        # Pilot red team 38, H0c: once the same page was listed again, the listing failed
        # nothing; a report after that it failed is tied to no failure.
        ([_LIST_FAILED, _LISTED, _error("listing_incomplete", LISTING_FAILED, failed_call=1)], 1),
        # A tie by a failed append's call is spent once by a report that does not name its rows.
        # Since call-import-evaluator/7 (pilot red team 43, A7) a report naming an append in
        # doubt (500) by its call has the in-doubt shape: "8 file(s) could not be imported"
        # misstates it and ties nothing, so each of the 3 is a gap.
        ([_LISTED, _APPEND_FAILED, *[_error("import_failed", FILES_FAILED, failed_call=3)] * 3],
         3),
    ],
)  # fmt: skip
def test_a_failed_call_ties_one_report_and_a_listing_no_report_that_files_failed(
    items: list[tuple[str, dict[str, Any]]], gaps: int
) -> None:
    found = refusal_report_gaps(read_log(_log(*items)), {}, frozenset({ID, OTHER}))
    assert [gap.problem for gap in found] == ["names_no_file"] * gaps


@pytest.mark.parametrize(
    ("items", "gaps"),
    [
        # A9: a summary after the failure was reported with its rows restates it.
        ([_LISTED, _APPEND_FAILED, _IN_DOUBT, _error("cycle_incomplete", SUMMARY)], 0),
        ([_LISTED, _APPEND_FAILED, _IN_DOUBT, _error("cycle_incomplete", SUMMARY, failed_call=3)],
         0),
        # One summary per failure so reported, not as many as one likes.
        ([_LISTED, _APPEND_FAILED, _IN_DOUBT, *[_error("cycle_incomplete", SUMMARY)] * 3], 2),
        ([_LISTED, _APPEND_FAILED, _IN_DOUBT,
          *[_error("cycle_incomplete", SUMMARY, failed_call=3)] * 2], 1),
        # Not one naming another call, nor one where no failure is on the record by its rows.
        ([_LIST_FAILED, _LISTED, _APPEND_FAILED, _IN_DOUBT,
          _error("cycle_incomplete", SUMMARY, failed_call=1)], 1),
        ([_LISTED, _APPEND_FAILED, _error("append_in_doubt", "HTTP 500", failed_call=3),
          _error("cycle_incomplete", SUMMARY)], 1),
        ([_LISTED, _APPENDED, _error("cycle_incomplete", SUMMARY)], 1),
    ],
)  # fmt: skip
def test_a_summary_restating_failures_reported_with_their_rows_is_no_new_claim(
    items: list[tuple[str, dict[str, Any]]], gaps: int
) -> None:
    found = refusal_report_gaps(read_log(_log(*items)), {}, frozenset({ID, OTHER}))
    assert [gap.problem for gap in found] == ["names_no_file"] * gaps


@pytest.mark.slow
def test_the_reference_passes_with_a_fault_on_a_non_last_batch(tmp_path: Path) -> None:
    # A4: `pilot generate --seed 35 --file-events 8000 --cycles 4`: cycles of 1,658 to 1,998 new
    # rows, each with a fault on its first 1,000-row batch.
    corpus = tmp_path / "corpus"
    write_corpus(
        corpus_config(seed=35, profile="public", overrides={"file_events": 8000, "cycles": 4}),
        corpus,
    )
    run_lab(corpus, "reference", tmp_path / "run")
    lines = (tmp_path / "run" / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    in_doubt = [
        entry["payload"]
        for entry in map(json.loads, lines)
        if entry["kind"] == "diagnostics" and entry["payload"].get("code") == "append_in_doubt"
    ]
    assert in_doubt and all(len(report["file_ids"]) <= 1000 for report in in_doubt)
    verdict = evaluate(tmp_path / "run", corpus)
    assert verdict.refusal_report_gaps == [] and verdict.laboratory_pass is True
