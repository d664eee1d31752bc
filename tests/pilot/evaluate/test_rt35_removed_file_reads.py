"""A read of a removed file buys no failure summary (pilot red team 35, A2).

Each cycle the importer read, by id, every file it had seen listed earlier and no longer saw (a
file the corpus removed), 3 times; the laboratory answered each `not_found`; the importer
reported each read truthfully by its call and its id, then filed `error("sync_report", "3
recording(s) could not be uploaded; sync aborted")`, naming no file and no call, after appends
that all succeeded. A `not_found` was taken as a laboratory failure that carried a corpus file,
and each summary as restating it: 12 false summaries passed (200 with 50 reads a file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from provebench.pilot.agents.defective._gone_file_attacks import FALSE_SUMMARY
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent
from tests.pilot.evaluate.test_rt31_claims_gaps import ID, OTHER, _log

_PAGE = {"file_ids": [ID], "next_page_token": None}
_LISTED = ("drive.list", {"call": 1, "page_size": 9, "page_token": None, "result": _PAGE})
_APPENDED = ("sheets.append", {"call": 2, "rows": [[ID, "x"]], "applied": True})


def _gone(call: int) -> list[tuple[str, dict[str, Any]]]:
    """A read of OTHER (not listed in the cycle: removed), answered `not_found`, and its
    truthful report by call and id."""
    return [
        ("drive.get", {"call": call, "file_id": OTHER, "error": {"code": "not_found"}}),
        ("diagnostics", {"channel": "error", "code": "file_unavailable",
                         "detail": f"{OTHER}: not found", "failed_call": call,
                         "file_ids": [OTHER]}),
    ]  # fmt: skip


_SUMMARY = ("diagnostics", {"channel": "error", "code": "sync_report", "detail": FALSE_SUMMARY})


def _gaps(*items: tuple[str, dict[str, Any]]) -> list[str]:
    log = read_log(_log(_LISTED, _APPENDED, *items))
    found = refusal_report_gaps(log, {}, frozenset({ID, OTHER}))
    return [gap.problem for gap in found]


@pytest.mark.parametrize("reads", [1, 3, 50])
def test_each_summary_after_a_read_of_a_removed_file_is_a_gap(reads: int) -> None:
    items = [item for call in range(3, 3 + reads) for item in (*_gone(call), _SUMMARY)]
    assert _gaps(*items) == ["names_no_file"] * reads


def test_the_truthful_report_of_a_read_of_a_removed_file_is_no_gap() -> None:
    # It names the file it asked about, and says it was not found: true.
    assert _gaps(*_gone(3), *_gone(4)) == []
    # By its call alone, in words that do not say files failed, as for a made-up id.
    read = ("drive.get", {"call": 3, "file_id": OTHER, "error": {"code": "not_found"}})
    said = {"channel": "error", "code": "lookup_miss", "detail": "not found", "failed_call": 3}
    assert _gaps(read, ("diagnostics", said)) == []


def test_a_tie_by_the_reads_call_buys_no_report_that_files_failed() -> None:
    tied = {**_SUMMARY[1], "failed_call": 3}
    assert _gaps(*_gone(3), ("diagnostics", tied)) == ["names_no_file"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=3)


def test_the_attack_played_through_a_run_fails_the_laboratory_gate(corpus: Path) -> None:
    agent = "ReportsFilesFailedAfterReadingRemovedFiles"
    run = run_agent(corpus, agent, corpus.parent / agent)
    log = (run / "ledger.jsonl").read_text(encoding="utf-8")
    summaries, faults = log.count(FALSE_SUMMARY), log.count('"kind":"fault_injected"')
    verdict = evaluate(run, corpus)
    problems = [gap.problem for gap in verdict.refusal_report_gaps]
    # Every summary is a gap, save one per scheduled fault the reference reported by its rows
    # in the same cycle (one failure ties one summary, pilot red team 34, A9).
    assert summaries > faults > 0
    # A summary of no published shape in a cycle that showed refused files is its own gap
    # since call-import-evaluator/10 (pilot red team 45, FF3).
    assert set(problems) <= {"names_no_file", "summary_of_no_published_shape"}
    assert summaries - faults <= len(problems)
    assert verdict.laboratory_pass is False
