"""Nesting is measured before JSON from outside is parsed (`nested_too_deep`): a body nested
deeper than `MAX_JSON_DEPTH` is refused by the policy's one-line error without the parser
descending into it — it was refused only when the parser reached Python's recursion limit."""

from __future__ import annotations

import pytest

from provebench import _jsonfile
from provebench._jsonfile import (
    MAX_JSON_DEPTH,
    loads_keeping_surrogates,
    loads_strict,
    nested_too_deep,
)

DEEP = [
    "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1),
    '{"a":' * 100_000 + "1" + "}" * 100_000,
    "[" * 200_000,  # never closed: refused before the parser finds it is no JSON
    '[1,{"b":' * 150 + "null" + "}]" * 150,
]


@pytest.mark.parametrize("text", DEEP, ids=lambda text: f"{len(text)} characters")
def test_a_deep_text_is_refused_before_it_is_parsed(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def parsed(text: str) -> None:
        raise AssertionError("the parser was reached")

    monkeypatch.setattr(_jsonfile, "_decode", parsed)
    assert nested_too_deep(text) and nested_too_deep(text.encode())
    for read in (loads_strict, loads_keeping_surrogates):
        with pytest.raises(ValueError, match=f"^nested deeper than {MAX_JSON_DEPTH} levels$"):
            read(text.encode())


@pytest.mark.parametrize(
    "text",
    [
        "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH,  # exactly at the limit (empty innermost)
        '{"a":"' + "[" * 1000 + '"}',  # brackets in a string are text
        '{"a":"\\"' + "{" * 1000 + '\\\\"}',  # after an escaped quote, still in the string
        "[" + "[]," * 1000 + "[]]",  # many brackets, two deep
    ],
    ids=["at-the-limit", "in-a-string", "after-an-escaped-quote", "wide"],
)
def test_what_is_not_deep_is_read(text: str) -> None:
    assert not nested_too_deep(text)
    assert loads_strict(text) == loads_keeping_surrogates(text.encode())
