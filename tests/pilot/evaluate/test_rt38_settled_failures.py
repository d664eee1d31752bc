"""A failure the cycle settled ties no report that something failed (pilot red team 38, H0, H0b,
H0c).

H0: an append answered 429, its retry landing every row, then `error("sync_aborted", "66
call(s) could not be saved; sync aborted", failed_call=<the 429>)` passed, as did "entries failed
to be stored" and "calls lost": only a word list of files failing gated the tie. H0b: the same
report filed between the 429 and the retry that landed the rows was tied, reports being judged
in log order. H0c: a listing page answered 503 and listed again, then reported by its call as
"12 call(s) could not be saved".
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.pilot.evaluate.test_rt37_retried_failure_ties_nothing import (
    FAILED,
    LANDED,
    OK,
    OK2,
    _append,
    _error,
    _gaps,
)

_PAGE = {"file_ids": [OK, OK2], "next_page_token": None}
_LIST_FAILED = ("drive.list", {"call": 4, "page_size": 9, "page_token": "k1",
                               "error": {"code": "unavailable"}})  # fmt: skip
_LISTED = ("drive.list", {"call": 5, "page_size": 9, "page_token": "k1", "result": _PAGE})
_OTHER_PAGE = ("drive.list", {"call": 5, "page_size": 9, "page_token": "k2", "result": _PAGE})


def _said(code: str, detail: str, **more: Any) -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"channel": "error", "code": code, "detail": detail, **more}


FALSE_WORDS = [
    ("sync_aborted", "66 call(s) could not be saved; sync aborted"),
    ("store_failed", "66 entries failed to be stored; please re-run"),
    ("sheet_lost", "66 calls lost"),
    ("upload_failed", "66 recording(s) could not be uploaded; sync aborted"),
]


@pytest.mark.parametrize(("code", "detail"), FALSE_WORDS)
def test_a_landed_failure_ties_no_report_that_something_failed(code: str, detail: str) -> None:
    report = _said(code, detail, failed_call=2)
    assert _gaps(FAILED, LANDED, report) == [("", "names_no_file")]  # H0
    assert _gaps(FAILED, report, LANDED) == [("", "names_no_file")]  # H0b: before the landing


def test_naming_the_files_before_the_retry_lands_them_is_not_refused() -> None:
    report = _said("import_failed", "import failed", failed_call=2, file_ids=[OK, OK2])
    assert sorted(_gaps(FAILED, report, LANDED)) == [(OK2, "not_refused"), (OK, "not_refused")]


@pytest.mark.parametrize(("code", "detail"), FALSE_WORDS[:3])
def test_a_listing_listed_again_ties_no_report_that_something_failed(
    code: str, detail: str
) -> None:
    report = _said(code, detail, failed_call=4)
    assert _gaps(_LIST_FAILED, _LISTED, report) == [("", "names_no_file")]  # H0c
    # Before the page is listed again, saving and storing are still no listing's failure.
    if code != "sheet_lost":
        assert _gaps(_LIST_FAILED, report, _LISTED) == [("", "names_no_file")]


@pytest.mark.parametrize(
    "items",
    [
        # a listing given up, reported, then listed again by a later pass (the reference)
        (_LIST_FAILED, _said("listing_incomplete", "temporary error (unavailable) on list_page",
                             failed_call=4), _LISTED),
        # another page listed is no retry of the failed one
        (_LIST_FAILED, _OTHER_PAGE, _said("listing_incomplete", "temporary error on list_page",
                                          failed_call=4)),
        # only one row landed: the other's failure still ties a report of it, before or after
        (FAILED, _error("1 recording could not be uploaded", failed_call=2),
         _append(3, [OK], applied=True)),
    ],
)  # fmt: skip
def test_true_accounts_stay_no_gap(items: tuple[tuple[str, Any], ...]) -> None:
    assert _gaps(*items) == []


@pytest.mark.parametrize(
    "report",
    [
        _said("rate_limited", "throttled once; retried and 2 call(s) saved", failed_call=2),
        _said("rate_limited", "throttled once; retrying", failed_call=2),
    ],
)
def test_a_report_naming_a_settled_failure_outside_its_words_is_a_gap(
    report: tuple[str, Any],
) -> None:
    # Round 38's notes of a throttle retried were no gap: a report naming a call that did not
    # tie was read by nothing unless it said something failed. Since call-import-evaluator/10
    # (pilot red team 46, H1b: "all listed files imported successfully" tied so to a listing
    # 429 retried) a report naming a call is a true account of it in rule 8's published words
    # ("throttled", "once", "saved" are none) or a gap.
    assert _gaps(FAILED, LANDED, report) != []
    assert _gaps(FAILED, report, LANDED) != []
