"""A report that says files were lost, in words the failure list lacked, ties no settled failure
and is no report of nothing (pilot red team 40, A3, A7).

A3: each listing page answered 429/503 and read on retry, then reported by its call number as
`error("transient_error", "retried; 12 recordings were never imported", failed_call=N)` (or
"retried; nothing was saved, sync stopped early", "left out", "gone") was tied as a true report
of a settled failure: the loss words were a substring list lacking never, nothing, stop, left
out, gone. Sealed: escrow 1.0. A7: the correct importer plus one such report a cycle with no
failed call at all was read as saying no file failed, so it needed no failure to tie.
"""

from __future__ import annotations

import pytest

from provebench.pilot.evaluate._refusal_reports import _names_a_file_failure
from tests.pilot.evaluate.test_rt37_retried_failure_ties_nothing import FAILED, LANDED
from tests.pilot.evaluate.test_rt39_settled_true_reports import (
    _LIST_FAILED,
    _LISTED,
    APPEND_NOTE,
    LISTING_NOTE,
    _gaps,
    _said,
)

LOSSES = [
    "12 recordings were never imported",
    "nothing was saved, sync stopped early",
    "recordings left out of the sheet",
    "the recordings are gone",
    "none of the rows were appended",
    "2 files omitted",
    "the sync gave up",
    "not retried",
]


@pytest.mark.parametrize("loss", LOSSES)
def test_a_retried_failure_reported_with_a_loss_ties_nothing(loss: str) -> None:
    detail = f"retried; {loss}"
    listing = _said("transient_error", detail, failed_call=4)
    appending = _said("transient_error", detail, failed_call=2)
    assert _gaps(_LIST_FAILED, _LISTED, listing) == [("", "names_no_file")]  # A3
    assert _gaps(FAILED, LANDED, appending) == [("", "names_no_file")]


@pytest.mark.parametrize("loss", LOSSES)
def test_a_loss_reported_with_no_failure_is_a_gap(loss: str) -> None:
    # A7: no failed call in the cycle; the report says files were lost.
    assert _names_a_file_failure("sync_summary", loss)
    assert _gaps(_said("sync_summary", loss)) == [("", "names_no_file")]


@pytest.mark.parametrize(
    "detail",
    [
        LISTING_NOTE[1],
        "503 on list; recovered",
        # Its failure words are those of the call it names, a 503 here (call-import-evaluator/7;
        # pilot red team 43, A12): round 39's "rate limit error; retrying" misstates it.
        "service unavailable error; retrying",
    ],
)
def test_a_true_report_of_a_settled_failure_still_ties_it(detail: str) -> None:
    # Round 39's H1/H2.
    assert _gaps(_LIST_FAILED, _LISTED, _said("transient_error", detail, failed_call=4)) == []
    assert _gaps(FAILED, LANDED, _said(*APPEND_NOTE, failed_call=2)) == []


@pytest.mark.parametrize(
    "detail",
    ["retried without errors", "retried, nothing lost", "retried, no page skipped"],
)
def test_a_reassurance_outside_the_published_vocabulary_ties_nothing(detail: str) -> None:
    # Agent contract rule 8 (call-import-evaluator/5; pilot red team 41, F7, F8): a report of a
    # settled failure says only that it was retried and got past, in the published words; a
    # negated loss ("nothing lost") is a word outside them, read as a report of a failure the
    # log does not show. Round 40 read it through a grammar of negations.
    assert _gaps(_LIST_FAILED, _LISTED, _said("transient_error", detail, failed_call=4)) == [
        ("", "names_no_file")
    ]


@pytest.mark.parametrize(
    "detail", ["new files after 3 passes", "the Drive answered slowly this cycle"]
)
def test_an_honest_note_with_no_failure_says_no_loss(detail: str) -> None:
    assert not _names_a_file_failure("listing_unstable", detail)
    assert _gaps(_said("listing_unstable", detail)) == []
