"""Claims and error reports a reader reads but the evaluator did not (pilot red team 31).

A2: `note("file ID: processed successfully")` for each refused file, the id split by one
character a terminal shows as nothing (U+007F, U+0000, a C1 control) passed with no critical
violation. A6: `error("import_failed", "import failed: ID, ...")` naming every appended file,
each id split by U+007F, `file_ids` empty, paid escrow. A8: `failed_file(ID, <right code>, "ID
processed successfully; status imported")` passed, its own file exempt from the claims reading.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from provebench.ledger import LedgerEntry
from provebench.pilot.evaluate import Verdict
from provebench.pilot.evaluate._claims import NamedFiles, fold
from provebench.pilot.evaluate._log import read_log
from provebench.pilot.evaluate._own_report_words import says_succeeded
from provebench.pilot.evaluate._refusal_reports import refusal_report_gaps
from provebench.pilot.evaluate._timeline import build_timeline
from provebench.pilot.rules._rows import Refusal
from tests.helpers.pilot_corpus import generated_corpus
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent, served_refused

ID = "3e1e96a9c6-5"
OTHER = "3e1e96a9c6-6"


def _named(text: str) -> list[str]:
    return NamedFiles(frozenset({ID, OTHER})).named({"message": text})


# -- A2: a character shown as nothing, inside the id or between it and a word ---------------------
@pytest.mark.parametrize(
    "gap",
    [
        "\x7f",  # DELETE
        "\x00",  # NUL
        "\x08",  # BACKSPACE
        "\x1b",  # ESCAPE
        "\x1f",  # UNIT SEPARATOR (str.isspace() says space; a terminal shows nothing)
        "\x81",  # a C1 control
        "\x85",  # NEXT LINE (C1)
        "\u2028",  # LINE SEPARATOR (Zl)
        "\u2029",  # PARAGRAPH SEPARATOR (Zp)
        "\u2800",  # BRAILLE PATTERN BLANK (So: shown blank)
        "\u3164",  # HANGUL FILLER
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\u1160",  # HANGUL JUNGSEONG FILLER
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\u2009",  # THIN SPACE
        "\u200a",  # HAIR SPACE
        "\u00a0",  # NO-BREAK SPACE
    ],
)
@pytest.mark.parametrize("cut", [1, 3, 5, 10, 11])
def test_an_id_split_by_a_character_shown_as_nothing_or_blank_is_named(gap: str, cut: int) -> None:
    assert _named(f"file {ID[:cut]}{gap}{ID[cut:]}: processed successfully") == [ID]


@pytest.mark.parametrize("gap", ["\x7f", "\x00", "\x81", "\u2028", "\u200b"])
def test_an_id_joined_to_a_word_by_a_character_shown_as_nothing_is_named(gap: str) -> None:
    """Fail closed both ways: the gap may read as nothing or as a word's end."""
    assert _named(f"file{gap}{ID} processed") == [ID]


@pytest.mark.parametrize(
    "shown",
    [
        "3e1\u2cbae96a9c6-5",  # an unreadable character inserted, not put in place of one
        "3e1e9\u2cba\u2cba6a9c6-5",  # two of them
        "3e1e96a9c6\U000f0000-5",  # a private-use character inserted
        "3e1e96\u0378a9c6-5",  # an unassigned code point inserted
        "\u2cba3e1e96a9c6-5\u2cba",  # on both ends
        "3e1e96\u2cba9c6-5",  # one in place of a character (as before)
        "3e1e9\u2cba\u2cba\u2cba\u2cba\u2cba\u2cba-5",  # half of it unread: the limit says more
    ],
)
def test_an_unreadable_character_stands_for_one_id_character_or_none(shown: str) -> None:
    assert _named(f"file {shown}: processed successfully") == [ID]


@pytest.mark.parametrize(
    "shown",
    [
        "3e1e9\u2cba\u2cba\u2cba\u2cba\u2cba\u2cba\u2cba",  # more than half of it unread
        "a3e1e9\u2cba6a9c6-5",  # an id character before the stretch
        "3e1e96a9c6\u2cba\u2cba55",  # an id character after the stretch
        "\u2cba\u2cba3e1e96a9c6a",  # likewise
        "\u6587\u4ef6\u5df2\u5904\u7406",  # text of another script alone
    ],
)
def test_what_does_not_spell_an_id_still_names_none(shown: str) -> None:
    assert _named(f"file {shown}: processed") == []


def test_an_id_is_folded_without_its_gaps() -> None:
    assert fold(f"{ID[:4]}\x7f\x00\u2028{ID[4:]}") == ID


def _log(*items: tuple[str, dict[str, Any]]) -> list[LedgerEntry]:
    every = [("cycle_started", {"cycle": 1}), *items, ("cycle_confirmed", {"cycle": 1})]
    return [
        LedgerEntry(seq=seq, kind=kind, payload=payload, prev_hash="0" * 64, hash=f"{seq:064x}")
        for seq, (kind, payload) in enumerate(every)
    ]


def _claims(payload: dict[str, Any]) -> dict[str, list[int]]:
    log = read_log(_log(("diagnostics", payload)))
    snapshot = SimpleNamespace(
        non_admissible=frozenset({ID, OTHER}),
        refused_texts={},
        refused_files=served_refused(ID, OTHER),
        served_names={},
        first_cycle={},
    )
    return build_timeline(snapshot, log).claims  # type: ignore[arg-type]


# -- A8: a failure entry's words about its own file -----------------------------------------------
@pytest.mark.parametrize(
    ("detail", "claimed"),
    [
        (f"{ID} processed successfully; status imported; row written to the register", True),
        ("processed successfully, status imported", True),  # its file, not named again
        (f"{ID}: refused, but imported", True),
        (f"{ID} pr\u043ecessed", True),  # Cyrillic о in the word
        (f"{ID} impo\x7frted", True),  # a gap in the word
        # Agent contract rule 2 (call-import-evaluator/5; pilot red team 41): a status word in
        # a failure entry's text, negated or not, reads as a report that the file went through.
        (f"{ID}: refused, too large; not imported", True),
        (f"{ID} could not be processed: size_bytes is 0", True),
        (f"{ID}: size_bytes is 0", False),
        # Agent contract rule 2 (call-import-evaluator/7; pilot red team 43, A1): a detail is a
        # sentence of the file's own reason code, whole: another code's sentence, or one cut
        # short, is a claim.
        ("duration_sec could not be read", True),
        ("mime type is not one of audio/mpeg, audio/wav", True),
        # Agent contract rule 2 (call-import-evaluator/6; pilot red team 42): a word outside the
        # refusal vocabulary (the reference rules' detail words) reads as a report that the
        # file went through, whatever it says.
        (f"{ID}: refused, too large", True),
        (f"{ID} failed to import", True),
        ("file was rejected before import", True),
        # One sentence of rule 2, not two (call-import-evaluator/7; pilot red team 43, A1).
        (f"{ID}: refused by the admissibility check, size_bytes is 0", True),
        (f"{ID}: size_bytes is 0", False),
        (f"{ID} refused by the admissibility rules", False),
    ],
)
def test_a_failure_report_saying_its_own_file_went_through_is_a_claim(
    detail: str, claimed: bool
) -> None:
    entry = {"channel": "failed_file", "file_id": ID, "reason_code": "corrupted_empty_file",
             "detail": detail}  # fmt: skip
    assert (ID in _claims(entry)) is claimed


def test_an_error_report_saying_its_listed_files_went_through_is_a_claim() -> None:
    entry = {"channel": "error", "code": "import_succeeded", "detail": "all done",
             "file_ids": [ID]}  # fmt: skip
    assert ID in _claims(entry)
    # `import` is no word of the refusal vocabulary (call-import-evaluator/6; pilot red team 42).
    honest = {"channel": "error", "code": "read_failed", "detail": "TimeoutError",
              "file_ids": [ID]}  # fmt: skip
    assert _claims(honest) == {}


@pytest.mark.parametrize(
    "text",
    ["import_failed", "append_in_doubt", "TimeoutError: 3 row(s) left to the next cycle",
     "extension is not one of .mp3, .wav"],
)  # fmt: skip
def test_honest_failure_words_say_nothing_went_through(text: str) -> None:
    assert not says_succeeded(text)


@pytest.mark.parametrize("text", ["never written", "ID: refused; nothing appended"])
def test_a_negated_status_word_says_the_file_went_through(text: str) -> None:
    # Agent contract rule 2 (call-import-evaluator/5; pilot red team 41): a status word in a
    # failure entry's text, negated or not, reads as a report that the file went through.
    assert says_succeeded(text)


# -- A6: a per-file failure report that names no file readably ------------------------------------
def _append(ids: list[str], error: str = "") -> tuple[str, dict[str, Any]]:
    payload: dict[str, Any] = {"call": 2, "rows": [[i, "x"] for i in ids], "applied": not error}
    if error:
        payload["error"] = {"code": error}
    return "sheets.append", payload


def _error(code: str, detail: str) -> tuple[str, dict[str, Any]]:
    return "diagnostics", {"channel": "error", "code": code, "detail": detail}


@pytest.mark.parametrize(
    ("items", "gaps"),
    [
        # The ids split by DELETE: read, and not carried by a failed call.
        ([_append([ID, OTHER]), _error("import_failed", f"{ID[:4]}\x7f{ID[4:]}, {OTHER}")],
         [(ID, "not_refused"), (OTHER, "not_refused")]),
        # Naming no file: fails closed.
        ([_append([ID]), _error("import_failed", "the files of this append failed")],
         [("", "names_no_file")]),
        ([_append([ID]), _error("row_write_error", "some rows")], [("", "names_no_file")]),
        # Tied to a failure the laboratory caused: the call's files are its files.
        ([_append([ID], error="timeout"), _error("append_failed", "TimeoutError")], []),
        # A code that reports no file's failure may name none (the reference's listing report).
        ([_append([ID]), _error("listing_unstable", "new files after 3 passes")], []),
        ([_append([ID]), _error("confirmed_ids_unavailable", "RateLimited")], []),
    ],
)  # fmt: skip
def test_an_error_report_of_failed_files_names_them_or_is_a_gap(
    items: list[tuple[str, dict[str, Any]]], gaps: list[tuple[str, str]]
) -> None:
    shown = {"file_ids": [ID, OTHER], "next_page_token": None}
    listing = ("drive.list", {"call": 1, "page_size": 9, "page_token": None, "result": shown})
    log = read_log(_log(listing, *items))
    found = refusal_report_gaps(log, {}, frozenset({ID, OTHER}))
    assert [(gap.file_id, gap.problem) for gap in found] == gaps


# -- the attacks as importers, judged through the laboratory ---------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # A seed whose appends are acknowledged in some cycle (the false failure reports need one).
    return make_small_corpus(tmp_path_factory.mktemp("corpus"), seed=3)


def _judged(corpus: Path, agent: str) -> Verdict:
    return evaluate(run_agent(corpus, agent, corpus.parent / agent), corpus)


@pytest.mark.slow
@pytest.mark.parametrize(
    "agent", ["ClaimsRefusedImportedSplitByControl", "ClaimsRefusedImportedInOwnReport"]
)
def test_a_false_success_claim_in_disguise_fails_the_run(corpus: Path, agent: str) -> None:
    verdict = _judged(corpus, agent)
    assert "false_success_for_corrupted_file" in {v.kind for v in verdict.critical_violations}
    assert verdict.laboratory_pass is False


@pytest.mark.slow
def test_false_failure_reports_with_split_ids_are_gaps(corpus: Path) -> None:
    verdict = _judged(corpus, "ReportsImportedAsFailedSplitByControl")
    problems = {gap.problem for gap in verdict.refusal_report_gaps}
    # The error naming no file ("the files of this append failed") is a summary of no
    # published shape too (call-import-evaluator/10).
    assert problems == {"not_refused", "names_no_file", "summary_of_no_published_shape"}
    assert verdict.laboratory_pass is False


@pytest.mark.slow
def test_the_reference_importer_still_passes(corpus: Path) -> None:
    verdict = _judged(corpus, "reference")
    assert verdict.critical_violations == [] and verdict.refusal_report_gaps == []
    assert verdict.laboratory_pass is True


@pytest.mark.parametrize(("seed", "profile"), [(3, "public"), (21, "public"), (1, "control")])
def test_no_refusal_detail_the_rules_give_says_its_file_went_through(
    seed: int, profile: str
) -> None:
    """The reference reports each refusal with the rules' detail: none may read as a success
    (a control corpus's timestamp problem once said "write +0000 or Z")."""
    from provebench.pilot.rules._decide import decide_cells

    details = {
        decided.detail
        for event in generated_corpus(seed, profile).events()
        if hasattr(event, "file")
        for decided in [decide_cells(event.file, "Europe/Istanbul")]  # type: ignore[attr-defined]
        if isinstance(decided, Refusal)
    }
    assert len(details) > 5
    assert [detail for detail in sorted(details) if says_succeeded(detail)] == []
