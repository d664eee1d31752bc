"""The compiled functions of `provebench.pilot.score_final._plainfields`: `count_equal_fields`, the
field comparison, `first_fields`, the ids of the first column, and the id join's `plain_widths` (the
check of its expected records' widths), `hash_first_fields`, `own_lines` (the ids of a batch
hashed and shared out by parity) and `take_met` (its look-up).

Each must answer exactly what a plain Python model answers (of `record_fields` and `==`; of
`str.partition`), or decline (None) — never a third thing: records of every shape the stream
hands out (plain text, quoted records, records spanning lines), texts of every internal width
of `str` (ASCII, Latin-1, two- and four-byte characters, mixed within a pair), rows of the wrong
width, and things that are no record at all. `FieldComparison.compare_pairs` and
`RowLayout.file_ids` are held to `csv.DictReader` with and without them in
test_score_final_layout.py.
"""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench.pilot.score_final import _csv, _idjoin
from provebench.pilot.score_final._csv import CsvRecordStream, QuotedRecord, Record
from provebench.pilot.score_final._layout import FieldComparison, RowLayout
from tests.helpers.compiled import without_compiled

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

plainfields = pytest.importorskip(
    "provebench.pilot.score_final._plainfields",
    reason="the C accelerator was not compiled (no C compiler at install)",
)
count_equal_fields = plainfields.count_equal_fields
first_fields = plainfields.first_fields
plain_widths = plainfields.plain_widths
hash_first_fields = plainfields.hash_first_fields
own_lines = plainfields.own_lines
take_met = plainfields.take_met


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

# Examples per differential test. 1500 where the space is wide and most examples decline (records
# of mixed shapes and widths: a pair of equal-width plain records, where a bug in the comparison
# or the count shows, is a rare draw): at 300, bugs seeded in _plainfields.c slipped through
# some of 5 runs of different seeds (a field compared one code point short across two widths,
# column 0 not counted, a wider candidate taken, adjacent commas counted once, part 0 keeping
# every row). FEWER_EXAMPLES where 300 met every seeded bug in each of 5 runs: `first_fields` (a
# quote after the id declining, a comma ending a Latin-1 text missed), `own_lines` (the CR of a
# last line without a feed dropped, a quoted line outside the part placed at 0, a quote in an id
# not declined) and `take_met` (a repeat in a chunk not read as met, a bool taken for a hash, a
# found value not marked met).
EXAMPLES = 1500
FEWER_EXAMPLES = 300


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


@settings(max_examples=EXAMPLES, deadline=None)
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


@settings(max_examples=FEWER_EXAMPLES, deadline=None)
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


@settings(max_examples=EXAMPLES, deadline=None)
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
    """The id join's check: compiled, or on its Python road, the same files are plain."""

    def plain() -> bool:
        try:
            _idjoin.check_plain_records(records, width)  # type: ignore[arg-type]
        except _idjoin._NotPlain:
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


def _own_of(hashes: list[int], part: int) -> list[int]:
    """The places of the hashes of `part` (-1: all), as `_own_rows` shares them out."""
    return [index for index, value in enumerate(hashes) if part == -1 or value & 1 == part]


def _model_hash_first_fields(
    records: list[object], part: int, keep_all: bool
) -> tuple[bytes | None, list[object], list[int]] | None:
    """The ids as `first_fields` cuts them, hashed by `hash`, and the records of one parity;
    every hash as the bytes of an `array("q")` when asked."""
    ids = _model_first_fields(records)
    if ids is None or not all(ids):
        return None
    hashes = list(map(hash, ids))
    own = _own_of(hashes, part)
    every = array("q", hashes).tobytes() if keep_all else None
    return (every, [records[i] for i in own], [hashes[i] for i in own])


PART = st.sampled_from([-1, 0, 1])


@settings(max_examples=EXAMPLES, deadline=None)
@given(records=st.lists(records(), max_size=8), part=PART, keep_all=st.booleans())
def test_hash_first_fields_answers_what_the_model_answers_or_declines(
    records: list[object], part: int, keep_all: bool
) -> None:
    answer = hash_first_fields(records, part, keep_all)
    model = _model_hash_first_fields(records, part, keep_all)
    assert answer == model
    if answer is not None and model is not None:
        # The records themselves, not copies: a quoted record keeps its fields.
        assert all(a is b for a, b in zip(answer[1], model[1], strict=True))


def test_hash_first_fields_declines_an_empty_id_and_refuses_a_bad_part() -> None:
    assert hash_first_fields(["a,1", ",2"], -1, True) is None
    assert hash_first_fields(["a,1", ""], -1, True) is None
    assert hash_first_fields([], 0, True) == (b"", [], [])
    with pytest.raises(ValueError, match="part"):
        hash_first_fields(["a,1"], 2, True)


# Lines of texts the CSV stream would cut at its line feeds: plain, quoted after the id (a
# whole record, or a field running on past its line), an empty or a quoted id, blank lines.
LINE = st.one_of(
    st.lists(FIELD, min_size=1, max_size=4).map(",".join),
    st.lists(FIELD, min_size=1, max_size=3).map(lambda fields: ",".join([*fields, '"a,b"'])),
    st.lists(FIELD, min_size=1, max_size=3).map(lambda fields: ",".join([*fields, '"open'])),
    st.sampled_from(["", '"q",1', "a,b", "é€,𝄞", "x"]),
)


def _model_own_lines(
    text: str, part: int, keep_all: bool, crlf: bool
) -> tuple[int, bytes | None, list[str], list[int], list[tuple[int, str]]] | None:
    """The non-empty lines as `_fast_records` cuts them (with `crlf`, each line's CR before its
    line feed dropped), then `hash_first_fields` over them; the lines holding a quote listed
    with their place among the part's lines (-1: not of it)."""
    lines = text.split("\n")
    if crlf:
        last = lines.pop()  # the text after the last line feed has no CR of a CRLF end
        lines = [line.removesuffix("\r") for line in lines] + [last]
    lines = [line for line in lines if line]
    hashed = _model_hash_first_fields(list(lines), part, keep_all)
    if hashed is None:
        return None
    every, _, own_hashes = hashed
    hashes = list(map(hash, (line.partition(",")[0] for line in lines)))
    own = _own_of(hashes, part)
    quoted = [
        (own.index(index) if index in own else -1, line)
        for index, line in enumerate(lines)
        if '"' in line
    ]
    return len(lines), every, [lines[i] for i in own], own_hashes, quoted


@settings(max_examples=FEWER_EXAMPLES, deadline=None)
@given(
    lines=st.lists(st.tuples(LINE, st.sampled_from(["\n", "\r\n"])), max_size=10),
    end=st.sampled_from(["", "\r", "\n\r\n"]),
    part=PART,
    keep_all=st.booleans(),
    crlf=st.booleans(),
)
def test_own_lines_answers_what_the_model_answers_or_declines(
    lines: list[tuple[str, str]], end: str, part: int, keep_all: bool, crlf: bool
) -> None:
    text = "".join(line + line_end for line, line_end in lines) + end
    answer = own_lines(text, part, keep_all, crlf)
    assert answer == _model_own_lines(text, part, keep_all, crlf)


def test_own_lines_of_texts_of_every_width() -> None:
    text = 'id1,a\n\né€,x\n𝄞,"y,z"\nid2'
    records, every, own, own_hashes, quoted = own_lines(text, -1, True, False)
    assert records == 4
    assert own == ["id1,a", "é€,x", '𝄞,"y,z"', "id2"]
    assert own_hashes == [hash("id1"), hash("é€"), hash("𝄞"), hash("id2")]
    assert every == array("q", own_hashes).tobytes()
    assert quoted == [(2, '𝄞,"y,z"')]
    assert own_lines(text.replace("\n", "\r\n"), -1, True, True) == (
        records,
        every,
        own,
        own_hashes,
        quoted,
    )
    assert own_lines("a,1\r\n\r\nb,2\r\n", -1, False, True)[2] == ["a,1", "b,2"]
    assert own_lines("a,1\r\n", -1, False, False)[2] == ["a,1\r"]  # a CR kept without crlf
    assert own_lines("a,1\n,2\n", -1, True, False) is None  # an empty id
    assert own_lines("a,1\r\n,2\r\n", -1, True, True) is None  # an empty id, CRLF
    assert own_lines("a,1\r", -1, False, True)[2] == ["a,1\r"]  # no line feed: no CRLF end
    assert own_lines('a,1\n"b",2\n', -1, True, False) is None  # a quoted id
    assert own_lines("", 0, False, False) == (0, None, [], [], [])
    with pytest.raises(ValueError, match="part"):
        own_lines("a,1", -2, True, False)


class _OtherDict(dict[int, object]):
    """A dict subclass, whose look-up could run code of its own: declined."""


def _model_take_met(
    keyed: dict[int, object], hashes: list[object], met: object
) -> tuple[list[object], dict[int, object]]:
    keyed = dict(keyed)
    found = []
    for value in hashes:
        record = keyed.get(value)  # type: ignore[call-overload]
        found.append(record)
        if record is not None and record is not met:
            keyed[value] = met  # type: ignore[index]
    return found, keyed


@settings(max_examples=FEWER_EXAMPLES, deadline=None)
@given(
    keyed=st.dictionaries(st.integers(-4, 4), st.sampled_from(["r1", "r2", "r3"]), max_size=6),
    hashes=st.lists(st.one_of(st.integers(-6, 6), st.sampled_from([True, 2.0, "1"])), max_size=8),
)
def test_take_met_answers_what_the_model_answers_or_declines(
    keyed: dict[int, object], hashes: list[object]
) -> None:
    met = ""
    before = dict(keyed)
    answer = take_met(keyed, hashes, met)
    if not all(type(value) is int for value in hashes):
        assert answer is None  # declined before anything was changed
        assert keyed == before
        return
    found, after = _model_take_met(before, hashes, met)
    assert answer == found
    assert keyed == after


# `take_met` looks its hashes up 128 at a time, then marks them (_plainfields.c, TAKE_CHUNK).
_TAKE_CHUNK = 128


@settings(max_examples=300, deadline=None)
@given(
    keyed=st.dictionaries(st.integers(0, 299), st.sampled_from(["r1", "r2"]), max_size=250),
    hashes=st.lists(st.integers(0, 320), min_size=_TAKE_CHUNK - 8, max_size=3 * _TAKE_CHUNK),
)
def test_take_met_over_several_chunks_answers_what_the_model_answers(
    keyed: dict[int, object], hashes: list[object]
) -> None:
    before = dict(keyed)
    assert take_met(keyed, hashes, "") == _model_take_met(before, hashes, "")[0]
    assert keyed == _model_take_met(before, hashes, "")[1]


def test_take_met_finds_repeats_in_a_chunk_and_across_chunks() -> None:
    """A hash met earlier in its chunk, or in the chunk before, reads `met`; a hash the dict
    lacks reads None however often it comes."""
    keyed = {value: f"r{value}" for value in range(2 * _TAKE_CHUNK)}
    hashes = list(range(2 * _TAKE_CHUNK))
    hashes[_TAKE_CHUNK - 1] = 0  # the first chunk's last, a repeat of its first
    hashes[_TAKE_CHUNK] = 1  # the second chunk's first, a repeat of the first chunk's second
    hashes[-1] = hashes[-2] = 10**6  # no such key, twice
    found = take_met(keyed, hashes, "")
    assert found is not None
    assert found[0] == "r0" and found[_TAKE_CHUNK - 1] == ""
    assert found[1] == "r1" and found[_TAKE_CHUNK] == ""
    assert found[-1] is None and found[-2] is None
    assert found[2 : _TAKE_CHUNK - 1] == [f"r{value}" for value in range(2, _TAKE_CHUNK - 1)]
    assert (found, keyed) == _model_take_met(
        {value: f"r{value}" for value in range(2 * _TAKE_CHUNK)}, hashes, ""
    )


def test_take_met_declines_a_dict_of_another_class() -> None:
    keyed = _OtherDict({1: "r1"})
    assert take_met(keyed, [1], "") is None
    assert keyed == {1: "r1"}
    with pytest.raises(TypeError):
        take_met({1: "r1"}, (1,), "")  # type: ignore[arg-type]


# Rows of a register piece: plain, quoted fields (commas, quotes), a field spanning lines,
# an empty or a quoted id, a blank line.
ROW = st.one_of(
    st.lists(FIELD.filter(bool), min_size=3, max_size=3).map(",".join),
    st.tuples(FIELD.filter(bool), FIELD).map(lambda pair: f'{pair[0]},"{pair[1]}, x",y'),
    st.tuples(FIELD.filter(bool), FIELD).map(lambda pair: f'{pair[0]},"say ""{pair[1]}""",y'),
    st.sampled_from(['n1,"two\nlines",y', ",a,b", '"q",a,b', "", "only"]),
)


def _rows_of(path: Path, part: int, keep_all: bool) -> list[object]:
    """What `_own_rows` gives for each batch of a file (each record with its class and, when
    quoted, its fields), or the refusal."""
    layout = RowLayout(["file_id", "a", "b"])
    rows: list[object] = []
    try:
        with CsvRecordStream(path, chunk_bytes=64) as stream:
            for batch in stream.batches():
                count, every, records, hashes, without_id = _idjoin._own_rows(
                    layout, part, batch, keep_all
                )
                shapes = [
                    (type(record).__name__, record, getattr(record, "fields", None))
                    for record in records
                ]
                rows.append((count, every, shapes, hashes, without_id))
    except _idjoin._NotPlain:
        rows.append("declined")
    return rows


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(ROW, min_size=1, max_size=12),
    line_end=st.sampled_from(["\n", "\r\n", "\r"]),
    part=PART,
    keep_all=st.booleans(),
)
def test_the_id_joins_rows_are_alike_on_every_road(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[str],
    line_end: str,
    part: int,
    keep_all: bool,
) -> None:
    """`_own_rows` compiled (`own_lines` on a piece's text, `hash_first_fields` on its records)
    and on its Python road gives the same counts, hashes and records, quoted ones with the same
    fields — or declines alike: files of LF, CRLF (mixed with the LF inside a quoted field) and
    bare CR line ends."""
    path = tmp_path_factory.mktemp("rows") / "register.csv"
    text = "file_id,a,b\n" + "\n".join(rows) + "\n"
    path.write_bytes(text.replace("\n", line_end).encode("utf-8"))
    compiled = _rows_of(path, part, keep_all)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_idjoin, "_own_lines", None)
        assert _rows_of(path, part, keep_all) == compiled
    with without_compiled():
        assert _rows_of(path, part, keep_all) == compiled


@pytest.mark.parametrize("line_end", ["\n", "\r\n"], ids=["LF", "CRLF"])
def test_the_id_join_takes_the_compiled_road_on_register_pieces(
    tmp_path: Path, line_end: str
) -> None:
    """Pieces like the benchmark's (plain rows and quoted ones), with LF or CRLF line ends, are
    cut by `own_lines`: no piece is split into records on the Python road (a decline costs the
    speed, silently)."""
    path = tmp_path / "register.csv"
    names = ["Olga", '"Smirnova, Olga"']
    rows = [f"id{n},{names[n % 50 == 0]},{n}" for n in range(3000)]
    path.write_bytes((line_end.join(["file_id,a,b", *rows]) + line_end).encode("utf-8"))
    layout = RowLayout(["file_id", "a", "b"])

    def refuse(text: str) -> None:
        raise AssertionError("a piece was split on the Python road")

    records: list[Record] = []
    pieces = 0
    with (
        CsvRecordStream(path, chunk_bytes=1 << 14) as stream,
        pytest.MonkeyPatch.context() as patch,
    ):
        patch.setattr(_csv, "_fast_records", refuse)
        for batch in stream.batches():
            pieces += 1
            records += _idjoin._own_rows(layout, -1, batch, True)[2]
    assert pieces > 3
    assert records == rows
    assert [type(record) is QuotedRecord for record in records] == [
        n % 50 == 0 for n in range(3000)
    ]
