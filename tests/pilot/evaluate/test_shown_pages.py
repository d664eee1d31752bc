"""What a listing showed is what its answer carried (red team 26, H6): over the HTTP face a `q`
filter or a `fields` mask answers with part of the page the Drive served, and the log names the
ids the answer held (`shown_ids`, drive.list/2). A re-check traversal whose answers carried no
file is no listing pass, and a file a filter kept from the importer was never shown to it."""

from __future__ import annotations

from typing import Any

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps
from provebench.pilot.evaluate._selfchecks import self_check_findings


def _page(token: str | None, ids: list[str], following: str | None, shown: list[str] | None = None
          ) -> tuple[str, dict[str, Any]]:  # fmt: skip
    payload: dict[str, Any] = {
        "call": 1,
        "page_size": 2,
        "page_token": token,
        "result": {"file_ids": ids, "next_page_token": following},
    }
    if shown is not None:
        payload["shown_ids"] = shown
    return "drive.list", payload


def _pass(shown: list[list[str]] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """A traversal of the Drive `a b | c`; `shown`: what each page's answer carried."""
    first, second = shown if shown is not None else (None, None)
    return [_page(None, ["a", "b"], "kb", first), _page("kb", ["c"], None, second)]


def _claim(name: str) -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"call": 9, "channel": "self_check", "name": name, "passed": True}


def _log(*items: tuple[str, dict[str, Any]]) -> list[LedgerEntry]:
    every = [("cycle_started", {"cycle": 1}), *items, ("cycle_confirmed", {"cycle": 1})]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(every)
    ]


def _outcome(entries: list[LedgerEntry], check: str) -> str:
    _, _, table = self_check_findings(read_log(entries), frozenset())
    [row] = [row for row in table if row.check == check]
    hits = [
        key for key in ("performed_passed", "contradicted", "not_performed") if getattr(row, key)
    ]
    return hits[0]


def test_a_second_pass_whose_answers_carried_no_file_is_no_recheck() -> None:
    # a7-mask/masked.py: the second traversal asks `fields=nextPageToken`.
    claim = _claim("file_added_during_traversal")
    honest = _log(*_pass(), *_pass(), claim)
    blind = _log(*_pass(), *_pass([[], []]), claim)
    assert read_log(honest).cycles[0].complete_passes == 2
    assert _outcome(honest, "file_added_during_traversal") == "performed_passed"
    facts = read_log(blind)
    assert facts.cycles[0].complete_passes == 1
    assert facts.cycles[0].partial_pages == 2
    assert _outcome(blind, "file_added_during_traversal") == "contradicted"


def test_a_file_a_filter_kept_from_the_importer_was_not_shown_to_it() -> None:
    # a7-mask/qfilter.py: `q="mimeType != 'application/pdf'"` never hands it file c.
    facts = read_log(_log(*_pass([["a", "b"], []])))
    cycle = facts.cycles[0]
    assert cycle.listed_ids == {"a", "b"}
    assert set(facts.first_shown) == {"a", "b"}
    assert refusal_report_gaps(facts, {"c": "unsupported_mime_type"}) == []
    # ... and a pass it cut is no traversal of the listing (pilot §12).
    assert cycle.complete_passes == 0
    whole = read_log(_log(*_pass()))
    assert [gap.file_id for gap in refusal_report_gaps(whole, {"c": "unsupported_mime_type"})] == [
        "c"
    ]


def test_shown_ids_that_are_not_part_of_the_page_fail_closed() -> None:
    for shown in (["z"], ["b", "a"], "a", [1]):
        facts = read_log(_log(_page(None, ["a", "b"], None, shown)))  # type: ignore[arg-type]
        assert [code for code, _, _ in facts.problems] == ["listing_page"], shown
        assert facts.cycles[0].listed_ids == set()
