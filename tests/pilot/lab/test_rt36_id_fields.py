"""An id field holds one id, never words (pilot red team 36, A3).

After each honest `failed_file(R, code, detail)` the importer filed `failed_file("R processed
successfully; status imported", code, "")`: the id field was read as naming R and its words by
nobody, so 38 refused files carried a logged success claim and the sealed run paid escrow. The
gateway now refuses an id field (`file_id`, each of `file_ids`) that is not one bare id of
contract rule 2's alphabet, or exactly an id the laboratory holds, on every face.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from provebench.pilot.emulator._diagnostics import apply_message
from provebench.pilot.lab import PermissionDenied
from provebench.pilot.lab._report_text import id_field_problem
from provebench.pilot.shadow._pseudonym import Pseudonymiser
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent
from tests.pilot.lab.test_lab_gateway import make_lab

ID = "81a564d8ec-2"
CLAIM = f"{ID} processed successfully; status imported"
# Ids a hand-built corpus may hold and must report by (`invalid_file_id`).
ODD_IDS = ["=HYPERLINK(1)", "a b", "-abc" * 40, "x\x1b[2Jy"]


def _never(_: str) -> bool:
    return False


@pytest.mark.parametrize(
    "text",
    [CLAIM, f"{ID} ", f" {ID}", f"{ID}\t", f"{ID},{ID}", f"{ID}.", "", "a" * 129, f"{ID}\u200b"],
)
def test_an_id_field_that_is_not_one_bare_id_is_refused(text: str) -> None:
    assert id_field_problem({"file_id": text}, _never) is not None
    assert id_field_problem({"file_ids": [ID, text]}, _never) is not None


@pytest.mark.parametrize("text", [ID, "A-b_9", "-abc", "a" * 128, "0593537212-1"])
def test_a_bare_id_is_accepted(text: str) -> None:
    assert id_field_problem({"file_id": text, "file_ids": [text, ID]}, _never) is None


def test_honest_ids_of_generated_and_shadow_corpora_are_bare(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path / "corpus", seed=36)
    ids = [
        json.loads(line)["file"]["file_id"]
        for line in (corpus / "drive_events.jsonl").read_text().splitlines()
        if '"file_added"' in line
    ]
    ids.append(Pseudonymiser(b"k" * 32).file_id("1AbC-real drive id_x"))
    assert ids and all(id_field_problem({"file_ids": [i]}, _never) is None for i in ids)


def _entries(record: Any, kind: str) -> list[dict[str, Any]]:
    return [payload for entry_kind, payload in record.entries if entry_kind == kind]


def test_the_attack_is_refused_in_process_and_honest_reports_are_recorded() -> None:
    ctx, record, _ = make_lab([ID])
    ctx.diagnostics.failed_file(ID, "corrupted_empty_file", "size 0")
    with pytest.raises(PermissionDenied):
        ctx.diagnostics.failed_file(CLAIM, "corrupted_empty_file", "")
    with pytest.raises(PermissionDenied):
        ctx.diagnostics.error("report", "", file_ids=[ID, f"{ID} processed successfully"])
    ctx.diagnostics.error("import_failed", "append failed", file_ids=[ID])
    assert [p["channel"] for p in _entries(record, "diagnostics")] == ["failed_file", "error"]
    refused = _entries(record, "refused")
    assert [p["operation"] for p in refused] == ["diagnostics.unreadable_report"] * 2
    assert refused[0]["arguments"]["file_id"] == CLAIM
    assert record.errors == 2


def test_the_attack_is_refused_on_the_http_and_diagnostics_file_face() -> None:
    ctx, record, gateway = make_lab([ID])
    item = {"channel": "failed_file", "file_id": CLAIM, "reason_code": "corrupted_empty_file"}
    apply_message(ctx, gateway, item, "line 1")
    item = {"channel": "error", "code": "x", "file_ids": [CLAIM]}
    apply_message(ctx, gateway, item, "line 2")
    assert _entries(record, "diagnostics") == []  # neither a report nor an `invalid` entry
    assert [p["operation"] for p in _entries(record, "refused")] == [
        "diagnostics.unreadable_report"
    ] * 2


@pytest.mark.parametrize("odd", ODD_IDS)
def test_an_id_the_laboratory_holds_is_accepted_as_it_is(odd: str) -> None:
    """A corpus file whose id is outside the bare form is refused as `invalid_file_id` and must
    be reported by that id; the laboratory holds it, so the report is recorded."""
    ctx, record, _ = make_lab([ID, odd], page_size=10)
    ctx.drive.list_files(page_size=10)  # served: a control in it is quoted, not refused
    ctx.diagnostics.failed_file(odd, "invalid_file_id", "")
    ctx.diagnostics.error("x", "", file_ids=[odd])
    reports = _entries(record, "diagnostics")
    assert [r["channel"] for r in reports] == ["failed_file", "error"]
    assert reports[0]["file_id"] == reports[1]["file_ids"][0]
    with pytest.raises(PermissionDenied):
        ctx.diagnostics.failed_file(f"{odd} processed successfully", "invalid_file_id", "")


A3_IMPORTER = """
from provebench.pilot.agents._reference import ReferenceImporter

class ClaimInIdField(ReferenceImporter):
    name = "claim-in-id-field"
    version = "1"

    def report_refusal(self, refusal):
        super().report_refusal(refusal)
        self.ctx.diagnostics.failed_file(
            f"{refusal.file_id} processed successfully; status imported", refusal.reason_code, "")
"""


@pytest.mark.slow
def test_the_attack_as_an_importer_fails_the_run(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path / "corpus", seed=3)
    code = tmp_path / "code"
    code.mkdir()
    (code / "imp.py").write_text(A3_IMPORTER)
    run = run_agent(corpus, f"{code / 'imp.py'}:ClaimInIdField", tmp_path / "run")
    verdict = evaluate(run, corpus)
    assert verdict.laboratory_pass is False
    assert verdict.critical_violations
