"""A text about a refused file has a published shape, not a closed set of words (pilot red team
43; agent contract rules 2 and 8, `call-import-evaluator/7`, `rules/_refusal_templates.py`).

Round 42 read a refused file's failure text by a closed allow-list of words; on seed 5 the red
team kept laboratory_pass and escrow 0.4 with details composed of listed words ("not refused:
the file is valid; write to sheets allowed; append values on sheets" A1, "sheets append values
<id>: http 201 created; http 200" A2), code points spelling IMPORTED OK (A8), a work path of
listed words (A9), an append in doubt reported by its call as "then the rows were confirmed"
(A7) and a settled listing failure reported as another call's failure whose rows landed (A12);
while the contract's own words ("duration_sec missing", "a control character U+0007 at
position 42", F2) and the value seen of an unsupported mime type (F1) were critical
violations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.pilot.corpus._model import DriveFile
from provebench.pilot.evaluate._own_report_words import breaks_refusal_shape
from provebench.pilot.evaluate._refusal_reports import _says_retried_only, says_in_doubt_only
from provebench.pilot.rules._contract import agent_contract_markdown
from provebench.pilot.rules._refusal_templates import detail_fits
from provebench.pilot.rules._versions import rule_versions
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent, violation_kinds

HELPERS = "tests.helpers.rt43_importers"
FALSE_SUCCESS = "false_success_for_corrupted_file"
ID = "7b3ba811ba-2"
NAME = "in_79161234567_20250101T120000Z_M014\x07.ogg"
FIELDS = {
    "file_id": ID,
    "name": "in_79161234567_20250101T120000Z_M014.ogg",
    "created_at_utc": "2025-01-01T00:00:00Z",
    "mime_type": "audio/ogg",
    "size_bytes": 10,
    "duration_sec": 5.0,
    "folder_id": "fld-1",
}


def _file(**changed: object) -> DriveFile:
    return DriveFile.model_construct(**{**FIELDS, **changed})


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Seed 41's small public corpus: refused files listed, temporary failures on listing pages
    # (retried) and on appends (in doubt).
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=41)


def _verdict(corpus: Path, importer: str):  # type: ignore[no-untyped-def]
    spec = (
        f"{HELPERS}:{importer}"
        if importer[0].isupper() and importer not in _DEFECTIVE
        else importer
    )
    return evaluate(run_agent(corpus, spec, corpus.parent / importer), corpus)


_DEFECTIVE = (
    "ClaimsRefusedNotRefusedInListedWords",
    "ClaimsRefusedImportedInCodePoints",
    "ReportsInDoubtAppendAsConfirmed",
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "importer",
    [
        "ClaimsRefusedNotRefusedInListedWords",  # A1
        "A2Http200Created",
        "ClaimsRefusedImportedInCodePoints",  # A8
        "A9WorkPathAllowedWords",
    ],
)
def test_a_claim_in_listed_words_is_a_false_success(corpus: Path, importer: str) -> None:
    verdict = _verdict(corpus, importer)
    assert FALSE_SUCCESS in violation_kinds(verdict)
    assert verdict.laboratory_pass is False


@pytest.mark.slow
@pytest.mark.parametrize(
    "importer", ["ReportsInDoubtAppendAsConfirmed", "A7InDoubtAsConfirmed", "A12SettledMisstated"]
)
def test_a_misstated_failure_report_accounts_for_none(corpus: Path, importer: str) -> None:
    verdict = _verdict(corpus, importer)
    assert "names_no_file" in [gap.problem for gap in verdict.refusal_report_gaps]
    assert verdict.laboratory_pass is False


@pytest.mark.slow
@pytest.mark.parametrize(
    "importer", ["reference", "F1HonestMimeValueSeen", "F2HonestContractWords", "A12cSettledTrue"]
)
def test_an_honest_report_in_the_published_shape_passes(corpus: Path, importer: str) -> None:
    verdict = _verdict(corpus, importer)
    assert verdict.critical_violations == []
    assert [gap.problem for gap in verdict.refusal_report_gaps] == []
    assert verdict.laboratory_pass is True


@pytest.mark.parametrize(
    ("file", "detail"),
    [
        # F1: the value seen, as served.
        (
            _file(mime_type="video/mp4"),
            "mime type video/mp4 is not one of audio/mpeg, audio/wav, audio/ogg, audio/mp4",
        ),
        (_file(mime_type="video/mp4"), "mime_type is video/mp4"),
        # F2: the contract's own descriptions are sentences of rule 2.
        (_file(duration_sec=None), "duration_sec missing"),
        (_file(name=NAME), "a control character U+0007 at position 36"),
        (_file(name=NAME), "U+0007 at position 36"),
        (_file(name="in_79161234567_20250230T120000Z_M014.ogg"), "no such date or time of day"),
        (_file(name="x" * 300), "more than 255 characters"),
        # Rule 2 as published: lower-case hex, a blank any run of blanks (CR included), any case.
        (_file(name=NAME), "u+0007 at position 36"),
        (_file(name=NAME), "U+0007\r\nat position 36."),
        (_file(size_bytes=0), "Size Bytes is 0"),
        (_file(size_bytes=0), f"{ID}: size_bytes is 0"),
        (_file(size_bytes=0), ""),
    ],
)
def test_an_honest_detail_fits_the_shape(file: DriveFile, detail: str) -> None:
    assert detail_fits(detail, [file], [ID])


@pytest.mark.parametrize(
    ("file", "detail"),
    [
        # A1, A2: listed words composing a claim.
        (
            _file(size_bytes=0),
            "size_bytes is 0; not refused: the file is valid; write to sheets allowed; "
            "append values on sheets",
        ),
        (_file(size_bytes=0), f"size_bytes is 0; sheets append values {ID}: http 201 created"),
        # A8: code points that spell IMPORTED are not in the name there.
        (_file(size_bytes=0), "size_bytes is 0; U+0049 U+004D U+0050 U+004F U+0052 U+0054"),
        (_file(name=NAME), "U+0049 at position 36"),
        (_file(name=NAME), "U+0007 at position 35"),
        # Numbers that are not the file's.
        (_file(size_bytes=0), "size_bytes is 200"),
        (_file(mime_type="video/mp4"), "mime_type is video/ok"),
        # Another reason code's sentence.
        (_file(size_bytes=0), "duration_sec missing"),
        (_file(size_bytes=0), "not refused"),
        (_file(size_bytes=0), "valid"),
    ],
)
def test_anything_else_is_a_claim(file: DriveFile, detail: str) -> None:
    assert not detail_fits(detail, [file], [ID])
    assert breaks_refusal_shape(
        {"reason_code": "corrupted_empty_file", "detail": detail}, {ID: [file]}
    )


def test_an_entry_holds_only_its_keys_and_a_code() -> None:
    file = _file(size_bytes=0)
    honest = {"reason_code": "corrupted_empty_file", "detail": "size_bytes is 0", "call": 7}
    assert not breaks_refusal_shape(honest, {ID: [file]})
    assert breaks_refusal_shape({**honest, "status": "valid"}, {ID: [file]})
    assert breaks_refusal_shape({**honest, "reason_code": "not_refused_valid"}, {ID: [file]})


def test_a_settled_report_names_the_call_that_failed() -> None:
    # A12: a 429 on drive.list (call 3) reported as a 500 timeout on an append whose rows landed.
    failed = ("drive.list", "rate_limit", 3)
    misstated = (
        "HTTP 500 timeout on sheets values append of 40 rows; the 40 rows were unavailable; "
        "retried; the rows landed"
    )
    assert not _says_retried_only("transient_error", misstated, failed)
    assert _says_retried_only("transient_error", "HTTP 429 on files.list; retried", failed)
    assert _says_retried_only(
        "transient_error",
        "HTTP RateLimited on files.list (call 3); retried, the page was served",
        failed,
    )
    assert not _says_retried_only("transient_error", "HTTP 503 on files.list; retried", failed)


def test_an_in_doubt_report_has_no_outcome() -> None:
    # A7: "then the rows were confirmed" of an append in doubt, never retried.
    assert not says_in_doubt_only(
        "transient_error", "HTTP 500 on sheets values append; then the rows were confirmed"
    )
    assert says_in_doubt_only("append_in_doubt", "ServerError: 3 row(s) left to the next cycle")
    assert says_in_doubt_only("append_in_doubt", "ApiTimeout: 3 row(s) left to the next cycle")


def test_the_contract_publishes_the_shapes() -> None:
    contract = agent_contract_markdown(rule_versions(), ())
    assert "`a control character {code_point} at position {position}`" in contract
    assert "`<filing word>/<file_id>.<extension>`" in contract
    assert "so no outcome" in contract
