"""The compiled functions of `provebench.pilot._plainfields`: `count_equal_fields`, the field
comparison, `first_fields`, the ids of the first column, and `plain_widths`, the text join's
check of its records' widths.

Each must answer exactly what a plain Python model answers (of `record_fields` and `==`; of
`str.partition`), or decline (None) — never a third thing: records of every shape the stream
hands out (plain text, quoted records, records spanning lines), texts of every internal width
of `str` (ASCII, Latin-1, two- and four-byte characters, mixed within a pair), rows of the wrong
width, and things that are no record at all. `FieldComparison.compare_pairs` and
`RowLayout.file_ids` are held to `csv.DictReader` with and without them in
test_score_final_layout.py.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench.pilot import _score_final_layout, _score_final_textjoin
from provebench.pilot._score_final_csv import QuotedRecord, Record
from provebench.pilot._score_final_layout import FieldComparison, RowLayout
from tests.helpers.compiled import without_compiled

plainfields = pytest.importorskip(
    "provebench.pilot._plainfields",
    reason="the C accelerator was not compiled (no C compiler at install)",
)
count_equal_fields = plainfields.count_equal_fields
first_fields = plainfields.first_fields
plain_widths = plainfields.plain_widths


def test_the_install_compiled_the_accelerator() -> None:
    """`make test` installs with a C compiler at hand (hatch_build.py): the compiled road must
    be the one the scorer takes, or its speed and these tests silently go. An install made
    without a compiler on purpose says so with PROVEBENCH_ALLOW_PURE_PYTHON=1."""
    if os.environ.get("PROVEBENCH_ALLOW_PURE_PYTHON") == "1":
        pytest.skip("pure-Python install allowed by PROVEBENCH_ALLOW_PURE_PYTHON=1")
    assert _score_final_layout._count_equal_fields is count_equal_fields
    assert _score_final_layout._first_fields is first_fields
    assert _score_final_textjoin._plain_widths is plain_widths


class _OtherStr(str):
    """A str subclass that is not `QuotedRecord`: no record shape, so the call declines."""


def _quoted(fields: list[str]) -> QuotedRecord:
    record = QuotedRecord('"' + ",".join(fields))
    record.fields = fields
    return record


def _model_fields(record: object) -> list[object] | None:
    """A record's fields as `record_fields` gives them, or None for what the accelerator must
    decline: a text holding a quote, an object of no record shape."""
    if type(record) is str:
        return None if '"' in record else list(record.split(","))
    if type(record) is QuotedRecord:
        return list(record.fields)
    if type(record) is list:
        return list(record)
    return None


def _model(
    expected: list[object], candidate: list[object], width: int, column: int
) -> tuple[int, int] | None:
    equal = at_column = 0
    if width < 1:
        return None
    for left, right in zip(expected, candidate, strict=True):
        left_fields, right_fields = _model_fields(left), _model_fields(right)
        if left_fields is None or right_fields is None:
            return None
        if len(left_fields) != width or len(right_fields) != width:
            return None
        if not all(type(field) is str for field in left_fields + right_fields):
            return None
        for index, (a, b) in enumerate(zip(left_fields, right_fields, strict=True)):
            if a == b:
                equal += 1
                at_column += index == column
    return equal, at_column


# Fields of every internal width of str, so that pairs of one kind and of two kinds are met;
# "ab" and "aé" share a first code point, "€" and "𝄞" differ from everything in one unit.
FIELD = st.sampled_from(["", "a", "ab", "aé", "é", "€", "𝄞", "a€", "x𝄞", "ab𝄞"])
FIELDS = st.lists(FIELD, min_size=0, max_size=5)


@st.composite
def records(draw: st.DrawFn) -> object:
    fields = draw(FIELDS)
    shape = draw(
        st.sampled_from(
            ["text", "text", "text", "quoted", "lines", "quote in text", "other", "bad field"]
        )
    )
    if shape == "text":
        return ",".join(fields)
    if shape == "quoted":
        return _quoted(fields)
    if shape == "lines":
        return fields
    if shape == "quote in text":
        return ",".join([*fields, 'a"b'])
    if shape == "bad field":
        return [*fields, 7]
    return _OtherStr(",".join(fields))


@settings(max_examples=1500, deadline=None)
@given(
    pairs=st.lists(st.tuples(records(), records()), max_size=8),
    width=st.integers(min_value=-1, max_value=5),
    column=st.integers(min_value=-1, max_value=5),
)
def test_it_answers_what_the_model_answers_or_declines(
    pairs: list[tuple[object, object]], width: int, column: int
) -> None:
    expected = [left for left, _ in pairs]
    candidate = [right for _, right in pairs]
    answer = count_equal_fields(expected, candidate, width, column, QuotedRecord)
    assert answer == _model(expected, candidate, width, column)


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(st.tuples(FIELDS, FIELDS), min_size=1, max_size=12),
    column=st.integers(min_value=-1, max_value=3),
)
def test_rows_of_one_width_always_get_an_answer(
    rows: list[tuple[list[str], list[str]]], column: int
) -> None:
    """Plain texts, quoted records and records spanning lines of the header's width are what
    the accelerator is for: it must not decline them (a decline costs the speed, silently)."""
    width = 4
    expected: list[object] = []
    candidate: list[object] = []
    for index, (left, right) in enumerate(rows):
        left = (left + ["a"] * width)[:width]
        right = (right + ["a"] * width)[:width]
        expected.append([_quoted, list, ",".join][index % 3](left))
        candidate.append([",".join, _quoted, list][index % 3](right))
    answer = count_equal_fields(expected, candidate, width, column, QuotedRecord)
    assert answer is not None
    assert answer == _model(expected, candidate, width, column)


def test_commas_at_the_ends_and_empty_fields_are_fields() -> None:
    assert count_equal_fields([",a,"], [",a,"], 3, 0, QuotedRecord) == (3, 1)
    assert count_equal_fields([",a,"], ["x,a,"], 3, 0, QuotedRecord) == (2, 0)
    assert count_equal_fields([""], [""], 1, 0, QuotedRecord) == (1, 1)
    assert count_equal_fields([",a,"], [",a"], 3, 0, QuotedRecord) is None  # one field short
    assert count_equal_fields([",a,"], [",a,,"], 3, 0, QuotedRecord) is None  # one too many
    assert count_equal_fields([], [], 3, 0, QuotedRecord) == (0, 0)


def test_fields_of_the_same_code_points_in_strings_of_two_widths_are_equal() -> None:
    """A field "ab" in a row that also holds "€" is stored two bytes a character: still "ab"."""
    assert count_equal_fields(["ab,€"], ["ab,x"], 2, -1, QuotedRecord) == (1, 0)
    assert count_equal_fields(["ab,𝄞"], ["ab,é"], 2, 0, QuotedRecord) == (1, 1)
    assert count_equal_fields(["é,€"], ["é,€"], 2, 1, QuotedRecord) == (2, 1)


def test_records_and_fields_of_other_classes_are_declined() -> None:
    """Only exact `str` fields are compared by code points: a subclass may define equality
    its own way, and a str subclass other than `QuotedRecord` has no known fields."""

    class Loose(str):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = str.__hash__

    assert count_equal_fields([["a", Loose("b")]], [["a", "c"]], 2, 0, QuotedRecord) is None
    assert count_equal_fields([_OtherStr("a,b")], ["a,b"], 2, 0, QuotedRecord) is None
    lookalike = _OtherStr('"a,b"')
    lookalike.fields = ["a", "b"]  # type: ignore[attr-defined]
    assert count_equal_fields([lookalike], ["a,b"], 2, 0, QuotedRecord) is None
    assert count_equal_fields(["a,b"], [("a", "b")], 2, 0, QuotedRecord) is None


def test_a_caller_error_is_an_exception_not_an_answer() -> None:
    with pytest.raises(ValueError, match="different lengths"):
        count_equal_fields(["a"], [], 1, 0, QuotedRecord)
    with pytest.raises(TypeError):
        count_equal_fields(("a",), ["a"], 1, 0, QuotedRecord)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        count_equal_fields(["a"], ["a"], 1, 0, "QuotedRecord")  # type: ignore[arg-type]


def test_compare_pairs_takes_the_compiled_road_on_register_rows() -> None:
    """On rows like the benchmark's (plain and quoted records of the header's width), every
    slice is answered by the accelerator: the pure-Python comparison is never reached."""
    header = ["file_id", "name", "duration_sec"]
    layout = RowLayout(header)
    compare = FieldComparison(layout, layout)
    expected: list[Record] = []
    candidate: list[Record] = []
    for n in range(3000):
        name = ["Olga", "Smirnova, Olga"][n % 2]
        fields = [f"id{n}", name, str(n)]
        expected.append(_quoted(fields) if "," in name else ",".join(fields))
        changed = [f"id{n}", name, str(n + n % 3)]
        candidate.append(_quoted(changed) if "," in name else ",".join(changed))

    def refuse(*_: object) -> tuple[int, int, int]:
        raise AssertionError("the pure-Python comparison was taken")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compare, "_compare_slice", refuse)
        keys, matched, same_ids = compare.compare_pairs(expected, candidate)
    assert (keys, matched, same_ids) == (3000 * 2, 3000 + 1000, 3000)


def _model_first_fields(records: list[object]) -> list[str] | None:
    """`str.partition(",")[0]` of each record; None for a non-str record or a quote in an id."""
    if not all(isinstance(record, str) for record in records):
        return None
    texts = [str.partition(record, ",")[0] for record in records]  # type: ignore[arg-type]
    return None if any('"' in text for text in texts) else texts


@settings(max_examples=1500, deadline=None)
@given(records=st.lists(records(), max_size=8))
def test_first_fields_answers_what_partition_answers_or_declines(records: list[object]) -> None:
    answer = first_fields(records)
    assert answer == _model_first_fields(records)
    if answer is not None:
        assert all(type(text) is str for text in answer)  # never a record's subclass


def test_first_fields_of_texts_with_and_without_commas() -> None:
    texts = ["id1,a,b", "id2", ",a", "", "é€,x", "𝄞"]
    assert first_fields(texts) == ["id1", "id2", "", "", "é€", "𝄞"]
    assert first_fields(['id1,"a,b"', "id2,x"]) == ["id1", "id2"]  # a quote after the id
    assert first_fields(['"id1",a']) is None  # a quoted id: csv.reader's own reading
    assert first_fields(["id1,a", ["id2", "b"]]) is None  # a record spanning lines
    assert first_fields([]) == []
    with pytest.raises(TypeError):
        first_fields(("id1,a",))  # type: ignore[arg-type]


def _model_plain_widths(records: list[object], width: int) -> bool | None:
    """One line exactly `width` fields wide: an exact str's commas, a quoted record's fields."""
    for record in records:
        if type(record) is str:
            if record.count(",") != width - 1:
                return False
        elif type(record) is QuotedRecord:
            if len(record.fields) != width:
                return False
        else:
            return None
    return True


@settings(max_examples=1500, deadline=None)
@given(records=st.lists(records(), max_size=8), width=st.integers(min_value=-1, max_value=5))
def test_plain_widths_answers_what_the_model_answers_or_declines(
    records: list[object], width: int
) -> None:
    assert plain_widths(records, width, QuotedRecord) == _model_plain_widths(records, width)


@settings(max_examples=500, deadline=None)
@given(records=st.lists(records(), max_size=8), width=st.integers(min_value=1, max_value=5))
def test_check_plain_records_decides_alike_with_and_without_it(
    records: list[object], width: int
) -> None:
    """The text join's check: compiled, or on its Python road, the same files are plain."""

    def plain() -> bool:
        try:
            _score_final_textjoin.check_plain_records(records, width)  # type: ignore[arg-type]
        except _score_final_textjoin._NotPlain:
            return False
        return True

    compiled = plain()
    with without_compiled():
        assert plain() == compiled


def test_plain_widths_counts_commas_in_texts_of_every_width() -> None:
    assert plain_widths(["a,b,c", "é,€,𝄞", ",,"], 3, QuotedRecord) is True
    assert plain_widths(["a,b,c", "é,€"], 3, QuotedRecord) is False
    assert plain_widths(["a,b,c", _quoted(["a", "b,c"])], 3, QuotedRecord) is False
    assert plain_widths([_quoted(["a", "b,c", "d"])], 3, QuotedRecord) is True
    assert plain_widths([["a", "b", "c"]], 3, QuotedRecord) is None
    assert plain_widths([], 3, QuotedRecord) is True
