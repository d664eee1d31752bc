"""The fast roads of the JSON and evidence readers give what the full roads give, or let them.

`parse_json_bytes` and `evidence_from_bytes` first try pydantic-core's parser and check the
reading policy around it (`looks_plain`, `key_count`, `member_count`); anything that is not
plainly inside the policy goes the full way. Whatever the bytes, the answer must be the full
road's: the same document or evidence, or the same one-line error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench._jsonfile import (
    MAX_JSON_DEPTH,
    _plain_document,
    key_count,
    looks_plain,
    member_count,
    parse_json_bytes,
    parse_json_text,
)
from provebench.evidence._readers import evidence_from_bytes, evidence_from_document

EXAMPLES = Path(__file__).resolve().parents[1] / "src" / "provebench" / "si" / "examples"


def _full_road(data: bytes) -> Any:
    """What the policy's own reader makes of the bytes: the document or the error's text."""
    try:
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        return ("document", parse_json_text(data.decode("utf-8"), source="f"))
    except (ProvebenchError, UnicodeDecodeError) as error:
        return ("error", type(error).__name__)


def _fast_road(data: bytes) -> Any:
    try:
        return ("document", parse_json_bytes(data, source="f"))
    except ProvebenchError as error:
        return ("error", type(error).__name__)


def _same(left: Any, right: Any) -> bool:
    # json.dumps tells 1 from 1.0 and keeps key order; NaN cannot reach a document.
    return json.dumps(left, sort_keys=False) == json.dumps(right, sort_keys=False)


TRICKY = [
    b'{"a":1,"a":2}',
    b'{"a":{"b":1,"b":1}}',
    b'[{"k":[{"x":1,"x":1}]}]',
    b'{"a" :1}',
    b'{"a"\n:1,"a":2}',
    b'{"a":":","a":":"}',
    b'{"a":"\\":","a":1}',
    b'{"a":"\\u0022:","b":1,"b":2}',
    b'{"a":"\\ud800"}',
    b'{"a":"\\uDBFF\\uDFFF"}',
    b'{"a":"\\ud83d\\ude00"}',
    b'{"a":NaN}',
    b'{"a":Infinity}',
    b'{"a":-Infinity}',
    b'{"a":1e400}',
    b"[[[-1e400]]]",
    b'{"a":1.5e-400}',
    b'{"a":' + b"9" * 4000 + b"}",
    b'{"a":' + b"9" * 5000 + b"}",
    b'{"a":0.1,"b":-0.0,"c":1E5,"d":-0}',
    b"\xef\xbb\xbf{}",
    b"",
    b"   ",
    b'{"a":"\xff"}',
    b'{"a":"\xed\xa0\x80"}',
    b'{"a":1,}',
    b"{} x",
    b'"just a string"',
    b"[" * (MAX_JSON_DEPTH - 1) + b"]" * (MAX_JSON_DEPTH - 1),
    b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH,
    b'{"a":"\t"}',
    b'{"\\u0061":1,"a":2}',
]


@pytest.mark.parametrize("data", TRICKY)
def test_the_fast_road_gives_what_the_full_road_gives(data: bytes) -> None:
    assert _fast_road(data)[0] == _full_road(data)[0]
    if _full_road(data)[0] == "document":
        assert _same(_fast_road(data)[1], _full_road(data)[1])


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"a":2}',
        b'{"a":{"b":1,"b":1}}',
        b'{"a" :1}',
        b'{"a":"\\ud800"}',
        b'{"a":1e400}',
        b"[[[-1e400]]]",
        b'{"a":":"}',
        b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH,
    ],
)
def test_what_may_break_the_policy_never_takes_the_fast_road(data: bytes) -> None:
    from provebench._jsonfile import _NOT_PLAIN

    assert _plain_document(data) is _NOT_PLAIN


def test_plain_documents_take_the_fast_road() -> None:
    for path in sorted(EXAMPLES.glob("*.json")):
        data = path.read_bytes()
        assert looks_plain(data), path.name
        document = _plain_document(data)
        assert _same(document, json.loads(data)), path.name
        assert key_count(data) == member_count(document), path.name


def test_member_count_counts_every_level_and_refuses_what_json_cannot_hold() -> None:
    assert member_count({"a": {"b": [{"c": 1, "d": [{}]}]}, "e": None}) == 5
    assert member_count([1, "x", None, True]) == 0
    assert member_count({"a": [float("inf")]}) == -1
    assert member_count({"a": float("nan")}) == -1
    assert member_count({"a": (1, 2)}) == -1  # not a type a JSON reader makes


_keys = st.sampled_from(["a", "b", "c", ":", 'q"', "a "])
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", ":", '":', "x\\y", "\u00e9", "\U0001f600", "null"]),
)


def _render(value: Any, duplicate: bool, spaced: bool) -> str:
    """JSON text of a value; objects may repeat their first key and space a colon."""
    if isinstance(value, dict):
        members = [(json.dumps(k), _render(v, duplicate, spaced)) for k, v in value.items()]
        if duplicate and members:
            members.append(members[0])
        colon = " :" if spaced else ":"
        return "{" + ",".join(f"{k}{colon}{v}" for k, v in members) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_render(v, duplicate, spaced) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(
    value=st.recursive(
        _scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
        max_leaves=20,
    ),
    duplicate=st.booleans(),
    spaced=st.booleans(),
    ascii_only=st.booleans(),
)
def test_any_document_reads_the_same_on_both_roads(
    value: Any, duplicate: bool, spaced: bool, ascii_only: bool
) -> None:
    text = _render(value, duplicate, spaced)
    if ascii_only:  # every non-ASCII character as a \\u escape (a surrogate pair above the BMP)
        text = re.sub(r"[^\x00-\x7f]", lambda m: json.dumps(m.group())[1:-1], text)
    data = text.encode("utf-8")
    fast, full = _fast_road(data), _full_road(data)
    assert fast[0] == full[0]
    if full[0] == "document":
        assert _same(fast[1], full[1])


# Evidence: the one-pass road (parse and validate in pydantic-core) against the full one.


def _evidence_either(data: bytes, reader: Any) -> Any:
    try:
        return ("evidence", reader(data))
    except ProvebenchError as error:
        return ("error", error.one_line())


def _full_evidence(data: bytes) -> Any:
    return evidence_from_document(parse_json_text(data.decode("utf-8"), source="e"), source="e")


def _one_pass_evidence(data: bytes) -> Any:
    return evidence_from_bytes(data, source="e")


def _example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "correct-diagnosis.json").read_bytes())
    return document


def _mutations() -> list[bytes]:
    plain = json.dumps(_example(), separators=(",", ":")).encode()
    action = '{"tool":"t","arguments":%s,"result":""}'
    base = _example()
    base["actions"] = []
    base["final_answer_after_step"] = None
    head = json.dumps(base, separators=(",", ":"))[:-1]
    cases = [
        plain,
        json.dumps(_example(), indent=2).encode(),
        plain.replace(b'"final_answer":', b'"final_answer":"x","final_answer":', 1),
        plain.replace(b'"format":', b'"format" :', 1),
        plain.replace(b'"format":"provebench.evidence",', b"", 1),
        plain.replace(b'"schema_version":"1",', b"", 1),
        plain.replace(b'"schema_version":"1"', b'"schema_version":"2"', 1),
        plain[:-1] + b',"provider_failure":null}',
        plain[:-1] + b',"provider_failure":"the agent URL did not answer"}',
        plain[:-1] + b',"unknown":1}',
    ]
    for arguments in [
        '{"a":1,"a":2}',
        '{"a":{"b":[{"c":1,"c":1}]}}',
        '{"a":NaN}',
        '{"a":Infinity}',
        '{"a":1e400}',
        '{"a":[-1e400]}',
        '{"a":"\\ud800"}',
        '{"a":":"}',
        '{"a":"\\u0022:","a":1}',
        '{"a":1.5,"b":[true,null,"\\u00e9"]}',
    ]:
        cases.append((head + ',"actions":[' + action % arguments + "]}").encode())
    return cases


@pytest.mark.parametrize("data", _mutations())
def test_evidence_reads_the_same_on_both_roads(data: bytes) -> None:
    fast = _evidence_either(data, _one_pass_evidence)
    full = _evidence_either(data, _full_evidence)
    assert fast == full


def test_shipped_evidence_takes_the_one_pass_road(monkeypatch: pytest.MonkeyPatch) -> None:
    from provebench.evidence import _readers

    def no_full_road(*_: Any, **__: Any) -> Any:
        raise AssertionError("took the full road")

    monkeypatch.setattr(_readers, "evidence_from_document", no_full_road)
    for path in sorted(EXAMPLES.glob("*.json")):
        data = path.read_bytes()
        assert evidence_from_bytes(data, source=path.name) == _full_evidence(data)
