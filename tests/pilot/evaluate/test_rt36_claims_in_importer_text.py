"""Every text the importer chose that the log records is read for claims by one rule (pilot red
team 36, A3, A12, A13).

A3: `failed_file("<R> processed successfully; status imported", code)` after each honest report
was read as a report of R, its id field's words unread, and skipped by the refusal-report check
with no gap. A12: `raise RuntimeError("<R> processed successfully ...")` at the end of each cycle
left the claim in the log's `agent_error` entries, which no reading looked at. A13:
`confirmed.contains("<R> processed successfully; status imported")` the same, in a call's
argument.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate import Verdict
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps
from provebench.pilot.evaluate._timeline import build_timeline
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent, served_refused

ID = "3e1e96a9c6-5"  # refused
OK = "8c3dbd0e6f-40"  # admitted
CLAIM = f"{ID} processed successfully; status imported"
CODE = "corrupted_empty_file"


def _log(*items: tuple[str, dict[str, Any]]) -> list[LedgerEntry]:
    every = [("cycle_started", {"cycle": 1}), *items, ("cycle_confirmed", {"cycle": 1})]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(every)
    ]


def _listing(*ids: str) -> tuple[str, dict[str, Any]]:
    shown = {"file_ids": list(ids), "next_page_token": None}
    return "drive.list", {"call": 1, "page_size": 9, "page_token": None, "result": shown}


def _failed_file(file_id: object, detail: str = "") -> tuple[str, dict[str, Any]]:
    payload = {"channel": "failed_file", "file_id": file_id, "reason_code": CODE, "detail": detail}
    return "diagnostics", payload


def _claims(*items: tuple[str, dict[str, Any]]) -> dict[str, list[int]]:
    snapshot = SimpleNamespace(
        non_admissible=frozenset({ID}),
        refused_texts={},
        refused_files=served_refused(ID),
        served_names={},
        first_cycle={ID: 1, OK: 1},
    )
    return build_timeline(snapshot, read_log(_log(*items))).claims  # type: ignore[arg-type]


# -- A3: an id field that is not one bare id is text ----------------------------------------------
@pytest.mark.parametrize(
    "item",
    [
        _failed_file(CLAIM),
        _failed_file([ID, CLAIM]),
        ("diagnostics", {"channel": "error", "code": "x", "detail": "", "file_ids": [CLAIM]}),
        ("diagnostics", {"channel": "error", "code": "x", "detail": "", "failed_call": CLAIM}),
    ],
)
def test_a_claim_in_an_id_field_is_a_claim(item: tuple[str, dict[str, Any]]) -> None:
    assert _claims(item) == {ID: [1]}


@pytest.mark.parametrize(
    "item",
    [
        _failed_file(ID),
        # A sentence of rule 2 (call-import-evaluator/7; pilot red team 43, A1).
        _failed_file(ID, f"{ID}: size_bytes is 0"),
        ("diagnostics", {"channel": "error", "code": "append_in_doubt", "file_ids": [ID, OK]}),
    ],
)
def test_an_honest_report_by_bare_ids_is_no_claim(item: tuple[str, dict[str, Any]]) -> None:
    assert _claims(item) == {}


def test_a_negated_status_word_in_a_report_by_bare_ids_is_a_claim() -> None:
    # Agent contract rule 2 (call-import-evaluator/5; pilot red team 41): a status word in a
    # failure entry's text, negated or not, reads as a report that the file went through.
    assert _claims(_failed_file(ID, f"{ID}: size 0 bytes, not imported")) == {ID: [1]}


@pytest.mark.parametrize("file_id", [CLAIM, ID.upper(), [ID]])
def test_a_refusal_report_whose_id_field_is_not_one_bare_id_is_a_gap(file_id: object) -> None:
    log = read_log(_log(_listing(ID, OK), _failed_file(ID), _failed_file(file_id)))
    found = refusal_report_gaps(log, {ID: CODE}, frozenset({OK}))
    assert [(gap.file_id, gap.problem) for gap in found] == [("", "names_no_file")]


def test_the_honest_report_alone_is_no_gap() -> None:
    log = read_log(_log(_listing(ID, OK), _failed_file(ID)))
    assert refusal_report_gaps(log, {ID: CODE}, frozenset({OK})) == []


# -- A12, A13: the importer's text outside diagnostics --------------------------------------------
def _agent_error(message: str) -> tuple[str, dict[str, Any]]:
    return "agent_error", {"type": "RuntimeError", "message": message}


def _contains(file_id: str) -> tuple[str, dict[str, Any]]:
    payload = {"call": 3, "operation": "contains", "file_id": file_id, "result": False}
    return "sheets.read_confirmed", payload


@pytest.mark.parametrize(
    "item",
    [
        _agent_error(CLAIM),
        _agent_error(f"{ID.upper()} done"),
        _contains(CLAIM),
        ("drive.get", {"call": 4, "file_id": CLAIM, "error": {"code": "not_found"}}),
        # Pilot red team 43, A10: an exception's message about a refused file is read as a
        # failure entry's text is, by the closed refusal vocabulary (agent contract rule 2).
        _agent_error(f"could not parse {ID}: header truncated"),
    ],
)
def test_a_claim_in_the_importers_other_text_is_a_claim(item: tuple[str, dict[str, Any]]) -> None:
    seq = 1
    assert _claims(item) == {ID: [seq]}


@pytest.mark.parametrize(
    "item",
    [
        # An honest exception naming the file it failed on, in a sentence of its reason code.
        _agent_error(f"{ID}: size_bytes is 0"),
        ("agent_error", {"type": "KeyError", "message": f"'{ID}'"}),
        _agent_error("cycle time limit of 60 s exceeded"),
        _contains(ID),
        ("drive.get", {"call": 4, "file_id": ID, "result": {"file_id": ID}}),
    ],
)
def test_honest_importer_text_is_no_claim(item: tuple[str, dict[str, Any]]) -> None:
    assert _claims(item) == {}


# -- the attacks as importers, judged through the laboratory ---------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=3)


def _judged(corpus: Path, agent: str) -> Verdict:
    return evaluate(run_agent(corpus, agent, corpus.parent / agent), corpus)


@pytest.mark.slow
@pytest.mark.parametrize(
    "agent",
    [
        "ClaimsRefusedImportedInIdField",
        "ClaimsRefusedImportedInException",
        "ClaimsRefusedImportedInCallArgument",
    ],
)
def test_a_claim_in_importer_text_fails_the_run(corpus: Path, agent: str) -> None:
    verdict = _judged(corpus, agent)
    kinds = {v.kind for v in verdict.critical_violations}
    assert verdict.laboratory_pass is False
    if agent == "ClaimsRefusedImportedInIdField":
        # refused at the laboratory's entry: an id field holds one bare id (pilot red team 36,
        # A3 at entry, lab/_report_text.id_field_problem); the evaluator's own reading of such
        # a field as text is held by the unit tests above (`test_a_claim_in_an_id_field_is_a_claim`)
        assert kinds == {"unsuccessful_attempt_deleted_or_concealed"}
    else:
        assert kinds == {"false_success_for_corrupted_file"}


# -- A12: a cycle the importer's own exception ended is not completed (pilot §8) ------------------
HONEST_RAISER = '''
from provebench.pilot.agents._reference import ReferenceImporter


class RaisesInCycleTwo(ReferenceImporter):
    """The reference, its second cycle ended by an honest exception naming a file."""

    name = "raises-in-cycle-two"
    version = "1"

    def run_cycle(self, ctx):
        super().run_cycle(ctx)
        seen = ctx.work_dir / "cycles_seen"
        count = int(seen.read_text()) + 1 if seen.exists() else 1
        seen.write_text(str(count))
        if count == 2:
            raise RuntimeError("could not parse 0000000000-0: header truncated")
'''


@pytest.mark.slow
def test_a_cycle_ended_by_the_importers_exception_is_not_paid(corpus: Path, tmp_path: Path) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / "raiser.py").write_text(HONEST_RAISER, encoding="utf-8")
    verdict = _judged(corpus, f"{code / 'raiser.py'}:RaisesInCycleTwo")
    # An honest exception is no claim and no gate finding: the evidence judges the register.
    assert verdict.critical_violations == [] and verdict.laboratory_pass is True
    graded = {c.cycle: c for c in verdict.escrow.cycles}
    assert graded[1].clean_final
    assert not graded[2].clean_final and not graded[2].clean_when_confirmed
    assert any("own exception ended cycle 2" in reason for reason in graded[2].reasons)
