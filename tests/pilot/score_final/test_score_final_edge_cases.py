"""Named edge cases of the published final-state scorer, and the quirks we keep on purpose.

Each case runs through the published script (worker subprocess) and through ours, at the default
read size and at a tiny one; the JSON must be the same bytes. A few cases also pin the values
that `docs/score-final.md` quotes, so that the documentation cannot drift from the behaviour.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.pilot import score_final_state
from provebench.pilot.score_final._csv import PUBLISHED_FIELD_SIZE_LIMIT
from tests.helpers.published_scorer import PublishedScorerWorker
from tests.pilot.score_final.test_score_final_differential import compare_with_published, csv_bytes

H = "file_id,a,b\n"
ROWS = "f1,x,y\nf2,p,q\nf3,s,t\n"
BOM = "\ufeff"

EDGE_CASES: dict[str, tuple[str, str]] = {
    "identical": (H + ROWS, H + ROWS),
    "crlf_candidate_lf_expected": (H + ROWS, (H + ROWS).replace("\n", "\r\n")),
    "bare_cr_line_ends": ((H + ROWS).replace("\n", "\r"), H + ROWS),
    "bom_expected_only": (BOM + H + ROWS, H + ROWS),
    "bom_both": (BOM + H + ROWS, BOM + H + ROWS),
    "double_bom_hides_file_id": (BOM + BOM + H + ROWS, H + ROWS),
    "no_final_newline": (H + ROWS.rstrip("\n"), H + ROWS),
    "quoted_comma_quote_newline": (
        H + 'f1,"x,1","say ""hi"""\nf2,"multi\nline",q\nf3,"cr\r\nlf",t\n',
        H + 'f1,"x,1","say ""hi"""\nf2,"multi\nline",q\nf3,"cr\r\nlf",t\n',
    ),
    "quoted_newline_differs": (H + 'f1,"a\nb",y\n', H + 'f1,"a\r\nb",y\n'),
    "quoted_header_with_newline": ('"file_id","a\nb"\nf1,x\n', 'file_id,"a\nb"\nf1,x\n'),
    "quote_inside_unquoted_field": (H + 'f1,a"b,y\n', H + 'f1,a"b,y\n'),
    "quote_then_text_quirk": (H + 'f1,"a"b,y\n', H + "f1,ab,y\n"),
    "unterminated_quote_runs_to_eof": (H + 'f1,"x,y\nf2,p,q\n', H + "f1,x,y\n"),
    "blank_lines_skipped": (H + "\n" + ROWS + "\r\n\n", H + ROWS),
    "blank_first_line_means_no_header": ("\n" + H + ROWS, H + ROWS),
    "whitespace_line_is_a_row": (H + ROWS + " \n", H + ROWS),
    "short_rows_none_values": (H + "f1,x\nf2\n", H + "f1,x\nf2\n"),
    "short_row_vs_missing_column": (H + "f1,x\n", "file_id,a\nf1,x\n"),
    "short_row_vs_empty_value": (H + "f1,x\n", H + "f1,x,\n"),
    "extra_fields_expected": (H + "f1,x,y,z\n", H + "f1,x,y\n"),
    "extra_fields_both_equal": (H + "f1,x,y,z,w\n", H + "f1,x,y,z,w\n"),
    "extra_fields_both_differ": (H + "f1,x,y,z\n", H + "f1,x,y,w\n"),
    "extra_fields_other_width": (H + "f1,x,y,z\n", "file_id,a\nf1,x,y,z\n"),
    "no_file_id_column_expected": ("id,a\nf1,x\n", H + "f1,x,y\n"),
    "no_file_id_column_candidate": (H + ROWS, "id,a,b\n" + ROWS),
    "file_id_in_other_column": (H + ROWS, "a,b,file_id\nx,y,f1\np,q,f2\ns,t,f3\n"),
    "file_id_header_twice": ("file_id,a,file_id\nf1,x,g1\nf2,y\n", "file_id,a,file_id\nf1,x,g1\n"),
    "other_header_twice": ("file_id,a,a\nf1,x,y\n", "file_id,a\nf1,y\n"),
    "file_id_with_spaces_is_other_column": (" file_id,a\nf1,x\n", H + "f1,x,y\n"),
    "duplicate_in_expected_last_wins": (H + "f1,x,y\nf1,p,q\n", H + "f1,p,q\n"),
    # The first f1 row is settled in a bulk run of equal rows; the last one (longer than the
    # header, so one more key) replaces it: the recount must drop the bulk row's keys.
    "duplicate_after_bulk_run_longer_row": (H + ROWS + "f1,x,y,z\n", H + ROWS),
    # f1 repeats in the expected file before the candidate's f1 row is read (the candidate's
    # rows come in another order): its first rows were never paired with each other.
    "duplicate_in_expected_before_candidate_row": (
        H + "f1,x,y\nf1,x,q\nf2,s,t\n",
        H + "f2,s,t\nf1,x,q\n",
    ),
    "duplicate_after_bulk_run_both_sides": (
        H + ROWS + "f4,u,v\nf1,x\n",
        H + ROWS + "f4,u,v\nf1,x,y,extra\n",
    ),
    "duplicate_in_expected_first_matches": (H + "f1,x,y\nf1,p,q\n", H + "f1,x,y\n"),
    "duplicate_in_candidate_last_wins": (H + ROWS, H + "f1,x,y\nf2,p,q\nf3,s,t\nf1,no,no\n"),
    "triple_duplicate_both": (H + "f1,a,a\nf1,b,b\nf1,c,c\n", H + "f1,c,c\nf1,b,b\nf1,a,a\n"),
    "empty_id_expected": (H + "f1,x,y\n,p,q\n", H + "f1,x,y\n,p,q\n"),
    "two_empty_ids_expected": (H + ",x,y\n,p,q\n", H + ",x,y\n,p,q\n"),
    "empty_and_none_id_expected": ("a,file_id\nx,\ny\n", "a,file_id\n"),
    "none_and_empty_ids_order": (H + "\n".join(["f1,x,y", ""]) + "\n", H + "f1,x,y\n"),
    "empty_id_candidate_only": (H + ROWS, H + ROWS + ",z,z\n"),
    # Rows aligned by id with one field wrong in place are settled as one run with the equal
    # rows around them; an empty or missing id in such a run must not be counted as an id.
    "field_wrong_in_place_next_to_empty_id": (
        H + "f1,x,y\n,p,q\nf3,s,t\n",
        H + "f1,x,y\n,p,q\nf3,s,WRONG\n",
    ),
    "field_wrong_in_place_next_to_missing_id": (
        "a,file_id\nx,f1\ny\nz,f3\n",
        "a,file_id\nWRONG,f1\ny\nz,f3\n",
    ),
    "fields_wrong_in_place_then_repeat": (
        H + "f1,x,y\nf2,p,q\nf3,s,t\nf2,p,q\n",
        H + "f1,x,WRONG\nf2,p,q\nf3,s,WRONG\nf2,p,q\n",
    ),
    "expected_only_file_id_column": ("file_id\nf1\nf2\n", "file_id\nf1\nf2\n"),
    "empty_files": ("", ""),
    "empty_expected": ("", H + ROWS),
    "empty_candidate": (H + ROWS, ""),
    "header_only_both": (H, H),
    "header_only_candidate": (H + ROWS, H),
    "bom_only_expected": (BOM, H),
    "blank_candidate_with_expected_rows": (H + ROWS, "\n"),
    "only_blank_lines": ("\n\n\n", "\n"),
    "candidate_extra_columns_ignored": (H + ROWS, "file_id,a,b,c\nf1,x,y,1\nf2,p,q,2\nf3,s,t,3\n"),
    "candidate_columns_reordered": (H + ROWS, "b,file_id,a\ny,f1,x\nq,f2,p\nt,f3,s\n"),
    "same_ids_other_order": (H + ROWS, H + "f3,s,t\nf1,x,y\nf2,p,q\n"),
    "ids_differ_only_in_space": (H + "f1,x,y\n", H + " f1,x,y\n"),
    "nul_and_controls_in_fields": (H + "f1,a\x00b,\x0b\x0c\x1c\n", H + "f1,a\x00b,\x0b\x0c\x1c\n"),
    "unicode_separators_in_fields": (H + "f1,a\x85b,c\u2028d\n", H + "f1,a\x85b,c\u2028d\n"),
    "unicode_everywhere": ("file_id,имя,😀\nф1,Мария,🎉\n", "file_id,имя,😀\nф1,Мария,🎊\n"),
    "field_at_size_limit": (
        H + "f1," + "x" * PUBLISHED_FIELD_SIZE_LIMIT + ",y\n",
        H + "f1," + "x" * PUBLISHED_FIELD_SIZE_LIMIT + ",y\n",
    ),
    "long_line_of_short_fields": (H + "f1" + ",x" * 70000 + "\n", H + "f1,x,x\n"),
}


@pytest.mark.parametrize("chunk_bytes", [None, 5])
@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_edge_case_matches_published(
    published: PublishedScorerWorker, tmp_path: Path, name: str, chunk_bytes: int | None
) -> None:
    expected, candidate = EDGE_CASES[name]
    outcome = compare_with_published(
        published,
        tmp_path,
        expected.encode("utf-8"),
        candidate.encode("utf-8"),
        chunk_bytes=chunk_bytes,
    )
    assert outcome.exit_code == 0, f"{name} is meant to be a case the published script scores"


def _score(tmp_path: Path, name: str) -> dict[str, object]:
    expected, candidate = EDGE_CASES[name]
    (tmp_path / "e.csv").write_text(expected, encoding="utf-8", newline="")
    (tmp_path / "c.csv").write_text(candidate, encoding="utf-8", newline="")
    document = json.loads(score_final_state(tmp_path / "e.csv", tmp_path / "c.csv").to_json())
    assert isinstance(document, dict)
    return document


# The quirks below are documented in docs/score-final.md; these pin the quoted values.


def test_quirk_empty_candidate_is_unique(tmp_path: Path) -> None:
    document = _score(tmp_path, "header_only_candidate")
    assert document["uniqueness"] == 1.0
    assert document["completeness"] == 0.0
    assert document["scorer_pass"] is False


def test_quirk_extra_fields_count_as_one_more_field(tmp_path: Path) -> None:
    # Expected row f1,x,y,z: keys a, b and None (["z"]); the candidate matches a and b only.
    assert _score(tmp_path, "extra_fields_expected")["field_accuracy"] == 2 / 3
    assert _score(tmp_path, "extra_fields_both_equal")["field_accuracy"] == 1.0


def test_quirk_short_row_matches_missing_column(tmp_path: Path) -> None:
    # Expected b is None (short row); the candidate has no b column, so cr.get("b") is None too.
    assert _score(tmp_path, "short_row_vs_missing_column")["field_accuracy"] == 1.0
    # ...but an empty candidate value "" is not None.
    assert _score(tmp_path, "short_row_vs_empty_value")["field_accuracy"] == 0.5


def test_quirk_only_file_id_column_can_never_pass(tmp_path: Path) -> None:
    document = _score(tmp_path, "expected_only_file_id_column")
    assert document["field_accuracy"] == 0.0
    assert document["scorer_pass"] is False


def test_quirk_last_duplicate_row_is_the_one_compared(tmp_path: Path) -> None:
    assert _score(tmp_path, "duplicate_in_expected_last_wins")["field_accuracy"] == 1.0
    assert _score(tmp_path, "duplicate_in_expected_first_matches")["field_accuracy"] == 0.0
    document = _score(tmp_path, "duplicate_in_expected_last_wins")
    assert document["configuration_errors"] == ["expected set contains duplicate file_id values"]


def test_quirk_empty_and_missing_ids_count_as_duplicate_values(tmp_path: Path) -> None:
    assert _score(tmp_path, "two_empty_ids_expected")["configuration_errors"] == [
        "expected set contains an empty file_id",
        "expected set contains duplicate file_id values",
    ]
    # One "" and one None are two different values: no duplicate error.
    assert _score(tmp_path, "empty_and_none_id_expected")["configuration_errors"] == [
        "expected set contains an empty file_id"
    ]


def test_quirk_blank_first_line_leaves_no_field_names(tmp_path: Path) -> None:
    document = _score(tmp_path, "blank_first_line_means_no_header")
    assert document["configuration_errors"] == [
        "expected set contains an empty file_id",
        "expected set contains duplicate file_id values",
    ]


def test_quirk_candidate_columns_are_matched_by_name(tmp_path: Path) -> None:
    assert _score(tmp_path, "candidate_columns_reordered")["scorer_pass"] is True
    assert _score(tmp_path, "candidate_extra_columns_ignored")["scorer_pass"] is True


def test_empty_expected_is_a_configuration_error_not_a_pass(tmp_path: Path) -> None:
    document = _score(tmp_path, "empty_files")
    assert document["configuration_errors"] == ["expected set is empty"]
    assert document["scorer_pass"] is False
    assert document["pilot_pass"] is None


@pytest.mark.parametrize("partial_bom", [b"\xef", b"\xef\xbb"])
def test_a_file_of_a_partial_byte_order_mark_reads_as_empty(
    published: PublishedScorerWorker, tmp_path: Path, partial_bom: bytes
) -> None:
    # Quirk of the utf-8-sig decoder: it waits for the rest of the mark and then drops it.
    outcome = compare_with_published(published, tmp_path, partial_bom, (H + ROWS).encode())
    assert outcome.exit_code == 0
    assert json.loads(outcome.stdout)["configuration_errors"] == ["expected set is empty"]
    outcome = compare_with_published(published, tmp_path, partial_bom + b"x", b"")
    assert outcome.exit_code == 1  # followed by anything, it is not UTF-8: refused


def _register(count: int) -> list[list[str]]:
    quoted = {3: "Smirnova, Olga", 4: 'Ivan "Vanya" Sidorov'}
    return [
        [f"f{index:05d}", f"t{index}", "incoming", quoted.get(index % 9, "Anna"), str(index)]
        for index in range(count)
    ]


def _wrong(row: list[str]) -> list[str]:
    return [*row[:4], row[4] + "9"]


# Registers in the expected order whose rows are changed in their place, in runs of every
# length, with breaks where the files fall out of step (cases an ordered pass would find hard;
# the scorer must give the published answer on each whatever road it takes).
IN_ORDER_CHANGED = {
    "every row changed": lambda rows: [_wrong(row) for row in rows],
    "every other row changed": lambda rows: [
        _wrong(row) if index % 2 else row for index, row in enumerate(rows)
    ],
    "runs of changed rows, a row missing between them": lambda rows: [
        _wrong(row) if (index // 37) % 2 else row
        for index, row in enumerate(rows)
        if index % 401 != 400
    ],
    "changed rows, then one of another id in their place": lambda rows: [
        ["other", *row[1:]] if index == 150 else _wrong(row) for index, row in enumerate(rows)
    ],
    "changed rows, an empty id among them": lambda rows: [
        ["", *row[1:]] if index == 90 else _wrong(row) for index, row in enumerate(rows)
    ],
}


@pytest.mark.parametrize("rows", [40, 1500])
@pytest.mark.parametrize("chunk_bytes", [None, 64, 4096])
@pytest.mark.parametrize("kind", list(IN_ORDER_CHANGED))
def test_rows_changed_in_their_place_score_as_published(
    published: PublishedScorerWorker, tmp_path: Path, kind: str, chunk_bytes: int | None, rows: int
) -> None:
    expected = _register(rows)
    candidate = IN_ORDER_CHANGED[kind](expected)
    outcome = compare_with_published(
        published, tmp_path, csv_bytes(expected), csv_bytes(candidate), chunk_bytes=chunk_bytes
    )
    assert outcome.exit_code == 0
