"""A failure whose rows a later append of the cycle landed ties no report that files failed
(pilot red team 37, H0).

The reference plus `error("upload_failed", "N recording(s) could not be uploaded; sync
aborted")` whenever an append was answered 429/503 and its retry landed the rows passed a
public corpus: the 429 was a failure of the laboratory's that carried those files, and it
excused the report although nothing had failed.
"""

from __future__ import annotations

from typing import Any

import pytest

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate._log import IMPORTER_FILE_ID_INDEX, read_log
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps

ID = "3e1e96a9c6-5"  # refused
OK = "8c3dbd0e6f-40"  # admitted
OK2 = "5d0c1a2b3e-41"  # admitted
LIMITED = {"code": "rate_limit", "message": "temporary error (rate_limit); retry (call 2)"}


def _row(file_id: str) -> list[str]:
    row = ["x"] * (IMPORTER_FILE_ID_INDEX + 3)
    row[IMPORTER_FILE_ID_INDEX] = file_id
    return row


def _append(call: int, ids: list[str], **answer: Any) -> tuple[str, dict[str, Any]]:
    return "sheets.append", {"call": call, "rows": [_row(i) for i in ids], **answer}


def _error(detail: str, **more: Any) -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"channel": "error", "code": "upload_failed", "detail": detail, **more}


def _gaps(*items: tuple[str, dict[str, Any]]) -> list[tuple[str, str]]:
    listing = {"file_ids": [OK, OK2, ID], "next_page_token": None}
    every = [
        ("cycle_started", {"cycle": 1}),
        ("drive.list", {"call": 1, "page_size": 9, "page_token": None, "result": listing}),
        ("diagnostics", {"channel": "failed_file", "file_id": ID, "reason_code": "x"}),
        *items,
        ("cycle_confirmed", {"cycle": 1}),
    ]
    log = [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(every)
    ]
    found = refusal_report_gaps(read_log(log), {ID: "x"}, frozenset({OK, OK2}))
    return [(gap.file_id, gap.problem) for gap in found]


FAILED = _append(2, [OK, OK2], applied=False, error=LIMITED)
LANDED = _append(3, [OK, OK2], applied=True, result={"appended": 2})


@pytest.mark.parametrize(
    "report",
    [
        _error("2 recording(s) could not be uploaded; sync aborted"),
        _error("could not be uploaded", failed_call=2),
    ],
)
def test_a_report_of_files_failed_after_the_retry_landed_is_a_gap(
    report: tuple[str, dict[str, Any]],
) -> None:
    assert _gaps(FAILED, LANDED, report) == [("", "names_no_file")]


def test_naming_the_landed_files_as_failed_is_not_refused() -> None:
    report = _error("could not be uploaded", file_ids=[OK, OK2])
    assert sorted(_gaps(FAILED, LANDED, report)) == sorted(
        [(OK, "not_refused"), (OK2, "not_refused")]
    )


@pytest.mark.parametrize(
    "items",
    [
        # the retry landed only one of them: the other is still a failure of the laboratory's
        (FAILED, _append(3, [OK], applied=True), _error("1 recording could not be uploaded")),
        # a report of the 429 by its number that says no file failed is a true account of it
        (FAILED, LANDED, ("diagnostics", {"channel": "error", "code": "rate_limited",
                                          "detail": "answered 429, retried", "failed_call": 2})),
    ],
)  # fmt: skip
def test_true_accounts_of_the_failure_are_no_gap(items: tuple[tuple[str, Any], ...]) -> None:
    assert _gaps(*items) == []
