"""The line-keeping YAML loader: paths to lines, duplicate keys, encoding and syntax errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench._yaml import format_field, load_yaml_file, load_yaml_text, parse_field

TEXT = """\
# header comment
---
id: first
scoring:
  factor:
    ref: f1
stimuli:
  - type: operator_prompt
    value: hi
  - {type: environmental_state, description: x}
---
# a second document
id: second
"""


def test_every_document_and_its_field_lines() -> None:
    documents = load_yaml_text(TEXT, path="s.yaml")
    assert [d.data["id"] for d in documents] == ["first", "second"]
    first, second = documents
    assert first.line_of("scoring.factor.ref") == 6
    assert first.line_of(("stimuli", 0, "type")) == 8
    assert first.line_of("stimuli[1].description") == 10
    assert second.line_of("id") == 13
    # A missing field is reported at its deepest present ancestor.
    assert first.line_of("scoring.step_budget") == 4
    assert first.line_of("nothing.here") == first.start_line == 3


def test_comment_only_documents_are_skipped() -> None:
    assert load_yaml_text("# only a comment\n---\n# and another\n") == []


def test_duplicate_key_is_an_error_with_line() -> None:
    with pytest.raises(ProvebenchError) as caught:
        load_yaml_text("a: 1\nscoring:\n  b: 2\n  b: 3\n", path="d.yaml")
    error = caught.value
    assert (error.path, error.line, error.field) == ("d.yaml", 4, "scoring.b")
    assert "duplicate key 'b' (first defined on line 3)" in error.message


def test_merge_keys_follow_yaml_rules_explicit_keys_win() -> None:
    documents = load_yaml_text("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n")
    assert documents[0].data["use"] == {"y": 3, "x": 1}


def test_malformed_yaml_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("id: x\nstimuli: [a, b\nname: y\n", encoding="utf-8")
    with pytest.raises(ProvebenchError) as caught:
        load_yaml_file(path)
    assert caught.value.path == str(path)
    assert caught.value.line == 3
    assert "malformed YAML" in caught.value.message


def test_non_utf8_names_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"id: x\nname: caf\xe9\n")
    with pytest.raises(ProvebenchError) as caught:
        load_yaml_file(path)
    error = caught.value
    assert (error.path, error.line, error.field) == (str(path), 2, "name")
    assert "not UTF-8" in error.message


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match="file not found"):
        load_yaml_file(tmp_path / "absent.yaml")
    with pytest.raises(ProvebenchError, match="is a directory"):
        load_yaml_file(tmp_path)


def test_alias_expansion_is_bounded() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in "bcdefg":
        previous = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [{', '.join(['*' + previous] * 10)}]\n"
    with pytest.raises(ProvebenchError, match="alias expansion"):
        load_yaml_text(bomb)


@pytest.mark.parametrize(
    "path",
    [("scoring", "factor", "ref"), ("stimuli", 0, "type"), ("data", "x.y", 2), ("a b",)],
)
def test_field_paths_round_trip(path: tuple[str | int, ...]) -> None:
    assert parse_field(format_field(path)) == path


@given(
    st.lists(
        st.one_of(st.integers(min_value=0, max_value=10**6), st.text(min_size=1, max_size=12)),
        max_size=6,
    )
)
def test_any_str_and_index_path_round_trips(path: list[str | int]) -> None:
    assert parse_field(format_field(path)) == tuple(path)


def test_odd_scalar_keys_get_lines_and_readable_fields() -> None:
    (document,) = load_yaml_text("1.5: a\ntrue: b\n200: c\n", path="k.yaml")
    assert document.line_of((200,)) == 3
    assert format_field((1.5, True)) == '["1.5"]["True"]'
    with pytest.raises(ProvebenchError) as caught:
        load_yaml_text("x:\n  1.5: a\n  1.5: b\n", path="k.yaml")
    assert (caught.value.line, caught.value.field) == (3, 'x["1.5"]')


def test_pure_python_and_libyaml_parsers_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    from provebench import _yaml

    fast = load_yaml_text(TEXT)
    monkeypatch.setattr(_yaml, "_ComposingLoader", yaml.SafeLoader)
    slow = load_yaml_text(TEXT)
    assert [(d.data, d.lines, d.start_line) for d in fast] == [
        (d.data, d.lines, d.start_line) for d in slow
    ]
    with pytest.raises(ProvebenchError) as caught:
        load_yaml_text("a: 1\nb: [\n", path="x.yaml")
    assert caught.value.path == "x.yaml" and caught.value.line is not None


@pytest.mark.parametrize(
    "text",
    [
        "a: &a [*a]\n",  # a sequence that holds itself
        "a: &a {b: *a}\n",  # a mapping that holds itself
        "a: &a {<<: *a}\n",  # a mapping merged into itself
    ],
)
def test_a_recursive_alias_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(ProvebenchError, match="recursive alias") as caught:
        load_yaml_text(text, path="rec.yaml")
    assert (caught.value.path, caught.value.line) == ("rec.yaml", 1)


def test_nesting_deeper_than_the_json_limit_is_refused_not_a_recursion_error() -> None:
    text = "a:\n" + "".join("  " * (depth + 1) + "-\n" for depth in range(900))
    with pytest.raises(ProvebenchError, match="nested deeper than 200 levels"):
        load_yaml_text(text, path="deep.yaml")


def test_an_alias_used_twice_side_by_side_is_no_cycle() -> None:
    (document,) = load_yaml_text("x: &a {k: 1}\ny: {<<: *a, j: 2}\nz: [*a, *a]\n")
    assert document.data["y"] == {"j": 2, "k": 1}
    assert document.data["z"] == [{"k": 1}, {"k": 1}]
