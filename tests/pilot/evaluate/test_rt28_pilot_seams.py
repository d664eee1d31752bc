"""Red team 28: a listing fault absorbed by an idle listing (H2), success claims in obfuscated
ids or on a failure channel (H1, H1b), a false failure report on `error` (H6), played on the
gateway and on small hand-built logs; and the control tranche paid on a self-generated control
corpus (H3), played on a run of the reference."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from provebench.attest import load_trusted_key
from provebench.ledger import LedgerEntry
from provebench.pilot import run_lab
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate, sealed_code
from provebench.pilot.evaluate import evaluate_run
from provebench.pilot.evaluate._claims import NamedFiles
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps
from provebench.pilot.evaluate._timeline import build_timeline
from provebench.pilot.lab import ApiTimeout, Fault
from tests.helpers.pilot_corpus import generated_corpus
from tests.helpers.pilot_evaluation import served_refused
from tests.pilot.lab.test_lab_gateway import make_lab


def _log(*items: tuple[str, dict[str, Any]]) -> list[LedgerEntry]:
    every = [("cycle_started", {"cycle": 1}), *items, ("cycle_confirmed", {"cycle": 1})]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(every)
    ]


# -- H2: a listing fault lands only on a listing whose answer shows its file ---------------------
def test_an_idle_listing_that_shows_no_file_does_not_absorb_the_list_fault() -> None:
    _, record, gateway = make_lab(["a", "b"], faults=[Fault("list_page", "a", "timeout")])
    # `fields=nextPageToken` or a `q` matching nothing: the page is served, its answer empty.
    idle = gateway.list_files_answered((10, None), lambda page: [])
    assert [f.file_id for f in idle.files] == ["a", "b"]
    assert record.entries[-1][1]["shown_ids"] == []
    with pytest.raises(ApiTimeout):  # the listing that shows `a` meets the fault
        gateway.list_files_answered((10, None), lambda page: list(page.file_ids))
    injected = record.entries[-2][1]
    assert injected["file_id"] == "a" and "shown_ids" not in injected


def test_a_filtered_listing_meets_the_fault_only_when_its_answer_shows_the_file() -> None:
    _, record, gateway = make_lab(["a", "b"], faults=[Fault("list_page", "b", "timeout")])
    gateway.list_files_answered((10, None), lambda page: ["a"])  # `q` kept only `a`
    with pytest.raises(ApiTimeout):
        gateway.list_files_answered((10, None), lambda page: ["b"])
    assert record.entries[-2][0] == "fault_injected"
    assert record.entries[-2][1]["shown_ids"] == ["b"]


def _listing(shown: list[str] | None, call: int = 1) -> tuple[str, dict[str, Any]]:
    payload: dict[str, Any] = {
        "call": call,
        "page_size": 9,
        "page_token": None,
        "result": {"file_ids": ["a", "b"], "next_page_token": None},
    }
    if shown is not None:
        payload["shown_ids"] = shown
    return "drive.list", payload


@pytest.mark.parametrize(("shown", "credited"), [(None, True), (["a"], True), ([], False)])
def test_a_served_page_binds_a_listing_fault_by_what_its_answer_showed(
    shown: list[str] | None, credited: bool
) -> None:
    log = read_log(_log(_listing(shown)), watched=frozenset({"a"}))
    assert bool(log.cycles[0].page_hits) is credited


def test_a_withheld_page_is_credited_by_what_its_answer_would_have_shown() -> None:
    result = {"file_ids": ["a", "b"], "next_page_token": None}
    fault = {"call": 1, "fault": "timeout", "file_id": "a", "applied": False,
             "page_token": None, "withheld": result, "shown_ids": []}  # fmt: skip
    log = read_log(_log(("fault_injected", fault)), watched=frozenset({"a"}))
    assert log.cycles[0].page_hits == {}


# -- H1: ids are read through one fold -------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("e0922-ab processed successfully", ["e0922-ab"]),
        ("E0922-AB processed successfully", ["e0922-ab"]),  # upper-cased
        ("ｅ０９２２－ａｂ processed", ["e0922-ab"]),  # fullwidth
        ("e09\u200b22-ab processed", ["e0922-ab"]),  # a zero-width space inside
        ("e0922\u2011ab processed", ["e0922-ab"]),  # U+2011 non-breaking hyphen
        ("e0922\u2212ab processed", ["e0922-ab"]),  # minus sign
        # Glued text that spells no other id of the corpus names it (pilot red team 35, A5).
        ("e0922-abc and xe0922-ab", ["e0922-ab"]),
        ("ODD:ID imported", ["odd:id"]),  # an id outside the alphabet, folded too
    ],
)
def test_an_obfuscated_id_is_read_as_named(text: str, named: list[str]) -> None:
    assert NamedFiles(frozenset({"e0922-ab", "odd:id"})).named({"message": text}) == named


# -- H1b: a failure channel is no exemption --------------------------------------------------------
@pytest.mark.parametrize(
    ("message", "claimed"),
    [
        ({"channel": "error", "code": "import_succeeded", "detail": "x-1 processed successfully"},
         True),
        ({"channel": "error", "code": "ok", "detail": "x-1 imported", "file_ids": ["x-2"]}, True),
        ({"channel": "failed_file", "file_id": "x-2", "reason_code": "corrupted_empty_file",
          "detail": "X\u20111 imported"}, True),
        ({"channel": "failed_file", "file_id": "x-1", "reason_code": "corrupted_empty_file",
          "detail": "x-1 refused"}, False),  # the file it reports
    ],
)  # fmt: skip
def test_a_refused_file_named_in_a_failure_entrys_text_is_a_claim(
    message: dict[str, Any], claimed: bool
) -> None:
    log = read_log(_log(_listing(None), ("diagnostics", message)))
    snapshot = SimpleNamespace(
        non_admissible=frozenset({"x-1", "x-2"}),
        refused_texts={},
        refused_files=served_refused("x-1", "x-2"),
        served_names={},
        first_cycle={},
    )
    timeline = build_timeline(snapshot, log)  # type: ignore[arg-type]
    assert ("x-1" in timeline.claims) is claimed


# -- H6: a failure report on `error` is tied to a failed call on its files -------------------------
def _append(ids: list[str], error: bool, code: str = "timeout") -> tuple[str, dict[str, Any]]:
    payload: dict[str, Any] = {"call": 2, "rows": [[i, "x"] for i in ids], "applied": not error}
    if error:
        payload["error"] = {"code": code}
    return "sheets.append", payload


def _error(ids: list[str], code: str = "import_failed") -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"channel": "error", "code": code, "detail": "",
                           "file_ids": ids}  # fmt: skip


def _error_in_words(detail: str) -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"channel": "error", "code": "import_failed", "detail": detail}


@pytest.mark.parametrize(
    ("items", "gaps"),
    [
        ([_append(["a", "b"], error=False), _error(["a", "b"])], [("a", "not_refused"),
                                                                  ("b", "not_refused")]),
        # An append in doubt (a timeout) named by its rows is judged as one named by its call
        # (pilot red team 44, H5): "import_failed" says an outcome the log does not show.
        ([_append(["a", "b"], error=True), _error(["a", "b"])], [("", "names_no_file")]),
        ([_append(["a", "b"], error=True), _error(["a", "b"], "append_in_doubt")], []),
        ([_error(["a"]), _append(["a"], error=True)], [("a", "not_refused")]),  # before it failed
        ([_append(["a"], error=True), _error(["a", "b"], "append_in_doubt")],
         [("b", "not_refused")]),
        # Red team 29, A10: the ids in the report's words, no `file_ids`.
        ([_append(["a", "b"], error=False), _error_in_words("A was not imported; b\u200b too")],
         [("a", "not_refused"), ("b", "not_refused")]),
        ([_append(["a"], error=True), _error_in_words("a could not be imported")],
         [("", "names_no_file")]),
        ([_append(["a"], error=True), _error_in_words("import_failed for a-b-c")], []),
        # Red team 30, A5: a decoy the laboratory refused as malformed carries nothing.
        ([_append(["a", "b"], error=False), _append(["a", "b"], True, "invalid_argument"),
          _error(["a", "b"])], [("a", "not_refused"), ("b", "not_refused")]),
        ([_append(["a"], True, "permission_denied"), _error(["a"])], [("a", "not_refused")]),
        ([_append(["a"], True, "rate_limit"), _error(["a"])], []),
    ],
)  # fmt: skip
def test_an_error_report_about_files_needs_a_failed_call_that_carried_them(
    items: list[tuple[str, dict[str, Any]]], gaps: list[tuple[str, str]]
) -> None:
    log = read_log(_log(_listing(None), *items))
    found = refusal_report_gaps(log, {}, frozenset({"a", "b"}))
    assert [(gap.file_id, gap.problem) for gap in found] == gaps


# -- H3: the control tranche is paid on the sealed fresh control only ------------------------------
def _control_tranche(verdict: Any) -> tuple[bool, str, bool | None]:
    escrow = verdict.escrow
    tranche = next(t for t in escrow.tranches if t.name == "control_sequence")
    [observed] = [c for c in verdict.external_checks if c.check == "escrow_observation"]
    return tranche.released, tranche.reason, observed.outcome


def test_a_self_generated_control_profile_run_is_not_paid_the_control_tranche(
    tmp_path: Path,
) -> None:
    # A3_control_tranche: `pilot generate --profile control --seed 77`, the seed public.
    corpus = generated_corpus(77, "control").directory
    run_lab(corpus, "reference", tmp_path / "run")
    released, reason, observed = _control_tranche(evaluate_run(tmp_path / "run", corpus))
    assert not released and observed is False
    assert "no sealed fresh control" in reason


def test_the_sealed_fresh_control_is_paid_the_control_tranche(tmp_path: Path) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity("reference", None), "control")
    corpus = tmp_path / "control"
    generate_control(seal, corpus, trusted)
    run_lab(corpus, "reference", tmp_path / "run", sealed=sealed_code(seal, trusted))
    assert _control_tranche(evaluate_run(tmp_path / "run", corpus, fresh_control=seal))[::2] == (
        True,
        True,
    )
    # The same run, its seal not given: the run's corpus is not shown to be the fresh control.
    assert _control_tranche(evaluate_run(tmp_path / "run", corpus))[0] is False
