"""A report naming a call is a true account of that failure or a gap; the in-doubt shape with no
call stands for a failure of its cycle; a text of a report's published shape names no file; the
`error` summaries are published (pilot red team 46, S1, H1, H1b, H2, H3, FF1, FF2; agent
contract rules 2 and 8, `call-import-evaluator/10`).

Against evaluator/9 the red team kept laboratory_pass and escrow — in a sealed fresh control the
whole escrow and pilot_pass (S1) — with "all listed files imported successfully" tied by
`failed_call` to a get of a made-up id the importer had made fail itself (H1), or to a listing
429/503 retried and settled (H1b); with an invented append failure in the in-doubt shape tied to
a listing failure (H2) or naming no call in a cycle where nothing failed (H3). The reference
importer failed a corpus with a refused file named `ServerError`, `ApiTimeout` or `next_cycle`
(FF1), and an honest "new files after 2 passes." failed the run (FF2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.pilot.evaluate import Verdict
from provebench.pilot.rules._contract import agent_contract_markdown
from provebench.pilot.rules._summary_shapes import ERROR_SUMMARIES, error_summary_fits
from provebench.pilot.rules._versions import rule_versions
from tests.helpers.pilot_evaluation import (
    evaluate,
    make_small_corpus,
    run_agent,
    verdict_of,
    violation_kinds,
)
from tests.pilot.evaluate.test_rt45_summary_exemptions import _renamed

HELPERS = "tests.helpers.rt46_importers"
UNSHAPED = "summary_of_no_published_shape"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Seed 41's small public corpus: refused files listed, appends in doubt (500, timeout), a
    # listing page failed and retried, and a cycle with no append in doubt.
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=41)


def _verdict(corpus: Path, importer: str) -> Verdict:
    return verdict_of(corpus, HELPERS, importer)


def _problems(verdict: Verdict) -> list[str]:
    return [gap.problem for gap in verdict.refusal_report_gaps]


def _failed(verdict: Verdict) -> None:
    assert verdict.laboratory_pass is False
    assert verdict.escrow is None or verdict.escrow.released_total == 0


@pytest.mark.slow
def test_a_summary_tied_to_a_failure_of_the_importers_own_making_is_a_gap(corpus: Path) -> None:
    # S1, H1: a get of a made-up id, answered `not_found`, is no failure of the laboratory's.
    verdict = _verdict(corpus, "N2gSummaryOnOwnFailedGet")
    assert "names_no_file" in _problems(verdict)
    _failed(verdict)


@pytest.mark.slow
@pytest.mark.parametrize("importer", ["N2fStatusWordsOnListingCall", "N2dParaphraseOnListingCall"])
def test_a_summary_tied_to_a_settled_listing_failure_is_a_gap(corpus: Path, importer: str) -> None:
    # H1b: no true account of the 429/503 it names; of no shape, in a cycle showing refused files.
    verdict = _verdict(corpus, importer)
    assert UNSHAPED in _problems(verdict)
    _failed(verdict)


@pytest.mark.slow
def test_an_append_failure_tied_to_a_listing_failure_is_a_gap(corpus: Path) -> None:
    # H2: the in-doubt shape is of an append, not of the listing call it names.
    verdict = _verdict(corpus, "N10InDoubtShapeOnListingCall")
    assert "names_no_file" in _problems(verdict)
    _failed(verdict)


@pytest.mark.slow
def test_an_invented_in_doubt_failure_with_no_call_is_a_gap(corpus: Path) -> None:
    # H3: in a cycle where no append failed, the in-doubt shape invents one.
    verdict = _verdict(corpus, "N3InventedInDoubtNoCall")
    assert "names_no_file" in _problems(verdict)
    _failed(verdict)


@pytest.mark.slow
@pytest.mark.parametrize(
    "importer",
    [
        "HonestSettledListingReport",  # H1b/H2's control: the settled failure in rule 8's words
        "HonestInDoubtRestatedNoCall",  # H3's control: a failure in doubt restated
        "FTwoPassesPublished",  # FF2's control
        "FTwoPassesPeriod",  # FF2: one final period
    ],
)
def test_an_honest_importer_in_the_published_shapes_passes(corpus: Path, importer: str) -> None:
    verdict = _verdict(corpus, importer)
    assert violation_kinds(verdict) == set()
    assert _problems(verdict) == []
    assert verdict.laboratory_pass is True


@pytest.mark.slow
def test_an_unstable_listing_in_own_words_is_one_unshaped_summary(corpus: Path) -> None:
    # FF2: no longer 17 false successes; a summary of no published shape, a gap of its cycle.
    verdict = _verdict(corpus, "FTwoPassesOwnWords")
    assert violation_kinds(verdict) == set()
    assert set(_problems(verdict)) == {UNSHAPED}


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ServerError", "ApiTimeout", "next_cycle"])
def test_the_reference_passes_a_refused_file_named_like_an_in_doubt_word(
    corpus: Path, tmp_path: Path, name: str
) -> None:
    # FF1: "ServerError: 11 row(s) left to the next cycle", the reference's in-doubt report,
    # named a refused file named `ServerError` (a false success and `not_refused` gaps).
    run = run_agent(corpus, "reference", tmp_path / "first")
    lines = (run / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    refused = next(
        entry["payload"]["file_id"]
        for entry in map(json.loads, lines)
        if entry["kind"] == "diagnostics" and entry["payload"].get("channel") == "failed_file"
    )
    renamed = _renamed(corpus, tmp_path / "renamed", refused, name)
    verdict = evaluate(run_agent(renamed, "reference", tmp_path / "run"), renamed)
    assert violation_kinds(verdict) == set()
    assert _problems(verdict) == []
    assert verdict.laboratory_pass is True


def test_the_error_summaries_are_published() -> None:
    # FF2: the shapes were the evaluator's alone.
    contract = agent_contract_markdown(rule_versions(), ())
    for code, detail in ERROR_SUMMARIES:
        assert f'`{code}` "{detail}"' in contract
    assert error_summary_fits({"code": "listing_unstable", "detail": "new files after 2 passes."})
    assert error_summary_fits({"code": "confirmed_ids_unavailable", "detail": "timeout"})
    assert error_summary_fits({"code": "listing_incomplete", "detail": "503"})
    assert not error_summary_fits({"code": "listing_unstable", "detail": "2 passes.."})
    assert not error_summary_fits(
        {"code": "listing_unstable", "detail": "the listing was still changing after 2 passes"}
    )
