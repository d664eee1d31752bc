"""Glued ids judged by the characters as written and by the corpus's own ids (pilot red team 35).

A1: `note("file <id>¹ processed successfully")` for every refused file — the id glued to a
superscript, a subscript, `⒈`, `½`, `⁰`, `①`, a fullwidth or a mathematical digit — hid every
false success claim (190 in a sealed control run that passed `pilot_pass=true`): whether a digit
followed the id was read after NFKC, which writes each of them as an ASCII digit, so the id was
taken as extended into a longer counter. A5: glued ids were read only where every id had the
generator's shape; on a shadow corpus (pseudonym/1 ids, `p` and 24 base32 letters) `__<id>__
imported_ok; <id>_imported; ok-<id>` hid 27 of 27 claims. Glued text now names an id unless it
spells another id of the corpus (or, cut short, the start of one), each glued character an ASCII
character of the id alphabet as written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.pilot.corpus import DriveFile
from provebench.pilot.evaluate._claims import NamedFiles
from provebench.pilot.shadow import Pseudonymiser, append_snapshot, derive_shadow_corpus
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent
from tests.helpers.pilot_shadow import capture_time

ID = "973594bee2-1"
# The corpus holds the ids an ASCII digit after ID would spell: only those written so extend it.
GENERATED = NamedFiles(frozenset({ID, f"{ID}1", f"{ID}2", f"{ID}20", "0123456789-3"}))
COMPATIBILITY = ["\u00b9", "\u00b2\u2070", "\u2081", "\u2488", "\u00bd", "\u2070", "\u2460"]
COMPATIBILITY += ["1\ufe0f\u20e3", "\uff13", "\U0001d7cf", "\u00b9\u00b2\u2070"]


@pytest.mark.parametrize("glue", COMPATIBILITY)
def test_a_character_nfkc_writes_as_a_digit_does_not_extend_the_id(glue: str) -> None:
    assert ID in GENERATED.named({"message": f"file {ID}{glue} processed successfully"})


@pytest.mark.parametrize(
    ("glue", "spelled"), [("1", f"{ID}1"), ("20", f"{ID}20"), ("2_ok", f"{ID}2")]
)
def test_an_ascii_digit_spelling_another_id_of_the_corpus_extends_it(
    glue: str, spelled: str
) -> None:
    assert GENERATED.named({"message": f"file {ID}{glue} processed"}) == [spelled]


@pytest.mark.parametrize("glue", ["3", "7 ok", "9", "0"])
def test_an_ascii_digit_spelling_no_id_of_the_corpus_names_the_id(glue: str) -> None:
    assert GENERATED.named({"message": f"file {ID}{glue} processed"}) == [ID]


@pytest.mark.parametrize(("glue", "by_look"), [("o", f"{ID}20"), ("l", f"{ID}1")])
def test_a_look_alike_letter_glued_names_the_id_as_written_and_as_it_looks(
    glue: str, by_look: str
) -> None:
    """`<id>o` spells no longer id as written (red team 34, A1); read by look it may: both."""
    text = f"file {ID}{glue if glue == 'l' else '2' + glue} processed"
    as_written = ID if glue == "l" else f"{ID}2"
    assert GENERATED.named({"message": text}) == sorted({as_written, by_look})


def test_a_short_id_is_named_only_as_a_whole_word() -> None:
    """An id of fewer than 8 characters is as likely a part of any word (`a`, `x-1`)."""
    short = NamedFiles(frozenset({"x-1", "a"}))
    assert short.named({"message": "max-10 and banana imported"}) == []
    assert short.named({"message": "x-1 and a imported"}) == ["a", "x-1"]


def test_a_text_cut_short_inside_a_longer_id_names_neither() -> None:
    corpus = NamedFiles(frozenset({ID, f"{ID}234"}))
    assert corpus.named({"message": f"file {ID}23"}) == []
    assert corpus.named({"message": f"file {ID}23_imported"}) == [ID]


PSEUDONYMS = ["pqwb5pdkhx6pygpan2rlykei4", "pmmm2rnlo7iiqwerty234567a", "pzzzzzzzzzzzzzzzzzzzzzzzz"]
SHADOW = NamedFiles(frozenset(PSEUDONYMS))


@pytest.mark.parametrize("pseudonym", PSEUDONYMS)
@pytest.mark.parametrize(
    "shape", ["__{}__ imported_ok", "{}_imported", "ok-{}", "{}-ok", "x{}y", "{}\u00b9 done"]
)
def test_a_pseudonym_glued_to_words_is_named(pseudonym: str, shape: str) -> None:
    assert SHADOW.named({"message": shape.format(pseudonym)}) == [pseudonym]


# A shadow capture as red team 35 built it with the public API: nine days, each adding two
# admissible calls and three the rules refuse (a PDF, an empty file, a non-conforming name).
def _shadow_corpus(folder: Path) -> Path:
    pseudonyms = Pseudonymiser(bytes(range(32)))
    files: list[DriveFile] = []
    for day in range(1, 10):
        for index, changes in enumerate(
            [
                {},
                {},
                {"mime_type": "application/pdf"},
                {"size_bytes": 0},
                {"name": f"rec {day}.mp3"},
            ]
        ):
            fields: dict[str, object] = {
                "file_id": f"1Real{day:02d}x{index:02d}",
                "name": f"in_49301234{index:02d}_202611{day + 1:02d}T05{index:02d}00Z_M001.mp3",
                "created_at_utc": f"2026-11-{day + 1:02d}T05:{index:02d}:30Z",
                "mime_type": "audio/mpeg",
                "size_bytes": 1000 + index,
                "duration_sec": 30.5,
                "folder_id": "0RealFolder",
            }
            files.append(DriveFile(**{**fields, **changes}))  # type: ignore[arg-type]
        append_snapshot(
            folder / "snapshots",
            [pseudonyms.file(each) for each in files],
            captured_at=capture_time(day),
            folders=[],
            key_check=pseudonyms.key_check,
        )
    derive_shadow_corpus(folder / "snapshots", folder / "corpus", period_days=7)
    return folder / "corpus"


def _claimed_and_refused(run: Path, corpus: Path) -> tuple[set[str], set[str], bool | None]:
    verdict = evaluate(run, corpus)
    reports = [json.loads(line) for line in (run / "diagnostics.jsonl").read_text().splitlines()]
    refused = {r["file_id"] for r in reports if r.get("channel") == "failed_file"}
    claimed = {
        v.file_id
        for v in verdict.critical_violations
        if v.kind == "false_success_for_corrupted_file"
    }
    return claimed, refused, verdict.laboratory_pass


@pytest.fixture(scope="module")
def shadow_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _shadow_corpus(tmp_path_factory.mktemp("shadow"))


def test_every_glued_claim_on_a_shadow_corpus_is_a_false_success(shadow_corpus: Path) -> None:
    run = run_agent(
        shadow_corpus, "ClaimsRefusedImportedGluedToWords", shadow_corpus.parent / "glued"
    )
    claimed, refused, passed = _claimed_and_refused(run, shadow_corpus)
    assert len(refused) == 27 and claimed == refused and passed is False


def test_the_reference_passes_on_the_shadow_corpus(shadow_corpus: Path) -> None:
    run = run_agent(shadow_corpus, "reference", shadow_corpus.parent / "reference")
    assert evaluate(run, shadow_corpus).laboratory_pass is True


def test_every_claim_glued_to_a_compatibility_digit_is_a_false_success(tmp_path: Path) -> None:
    corpus = make_small_corpus(tmp_path, seed=3)
    agent = "ClaimsRefusedImportedGluedToCompatibilityDigits"
    claimed, refused, passed = _claimed_and_refused(
        run_agent(corpus, agent, tmp_path / "run"), corpus
    )
    assert refused and claimed == refused and passed is False
