"""The hot-path forms of the rules give exactly what the model-building forms give."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from provebench.pilot.corpus import CallMetadata, DriveFile
from provebench.pilot.rules import (
    REGISTER_COLUMNS,
    Refusal,
    decide_cells,
    decide_row,
    parse_call_name,
    parse_name_fields,
)
from provebench.pilot.rules._grammar import _FORBIDDEN
from provebench.pilot.rules._rows import RegisterRow, register_row_of


def test_forbidden_pattern_is_slash_and_categories_cc_cs_over_every_code_point() -> None:
    for code in range(0x110000):
        character = chr(code)
        expected = character == "/" or unicodedata.category(character) in ("Cc", "Cs")
        assert (_FORBIDDEN.match(character) is not None) == expected, hex(code)


NAMES = [
    "in_4930123456_20261025T023000+0200_M007.mp3",
    "out_12125550147_20261231T235959-0500_M012_follow-up call.wav",
    "in_447700900123_20260329T010000Z_M003_accept everything.ogg",
    "in_447700900123_20260329T010000Z_M999_x.m4a",
    "in_4930123456_20261025T023000-0000_M007.mp3",
    "in_4930123456_20261025T023000+1401_M007.mp3",
    "in_4930123456_20260230T023000+0200_M007.mp3",
    "in_4930123456_19700101T000000Z_M007.mp3",
    "in_4930123456_20261025T023000+0200_M007_a\x85b.mp3",
    "in_4930123456_20261025T023000+0200_M007_a/b.mp3",
    "in_4930123456_20261025T023000+0200_M007_\ud800.mp3",
    "in_4930123456_20261025T023000+0200_М007.mp3",
    "x" * 256,
    "",
]


def test_parse_name_fields_agrees_with_parse_call_name() -> None:
    for name in NAMES:
        parsed, fields = parse_call_name(name), parse_name_fields(name)
        if isinstance(fields, tuple):
            assert not isinstance(parsed, type(fields[0])) and fields == (
                parsed.direction,  # type: ignore[union-attr]
                parsed.phone,  # type: ignore[union-attr]
                parsed.call_instant,  # type: ignore[union-attr]
                parsed.name_offset_minutes,  # type: ignore[union-attr]
                parsed.manager_code,  # type: ignore[union-attr]
                parsed.tag,  # type: ignore[union-attr]
                parsed.extension,  # type: ignore[union-attr]
            )
        else:
            assert fields == parsed, name


def test_decide_cells_agrees_with_decide_row() -> None:
    files = [
        DriveFile(
            file_id=f"f{index}",
            name=name,
            mime_type=mime,
            size_bytes=size,
            duration_sec=duration,
            created_at_utc="2026-10-25T00:30:00Z",
            folder_id="root",
            metadata=CallMetadata(direction="out", phone="1", manager_code="M001"),
        )
        for index, name in enumerate(NAMES)
        for mime, size, duration in (
            ("audio/mpeg", 10, 0.4),
            ("audio/wav", 10, 61.0),
            ("text/plain", 10, 1.0),
            ("audio/mpeg", 0, 1.0),
            ("audio/mpeg", 10, None),
            ("audio/mpeg", 10, -1.0),
        )
    ]
    imported = 0
    for zone in ("Europe/Berlin", "America/New_York", "UTC"):
        for file in files:
            row, cells = decide_row(file, zone), decide_cells(file, zone)
            if isinstance(row, Refusal):
                assert cells == row
            else:
                imported += 1
                assert cells == tuple(getattr(row, column) for column in REGISTER_COLUMNS)
    assert imported > 0


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(st.text(max_size=12), min_size=9, max_size=9))
def test_register_row_of_is_the_validated_row(cells: list[str]) -> None:
    """`register_row_of` skips pydantic's validation of nine strings: the row is the same row
    by every reading — equality, fields, dump, JSON, repr, hash, copy — and stays frozen."""
    trusted = register_row_of(cells)
    validated = RegisterRow(**dict(zip(REGISTER_COLUMNS, cells, strict=True)))
    assert trusted == validated and hash(trusted) == hash(validated)
    assert trusted.model_fields_set == validated.model_fields_set
    assert trusted.model_dump() == validated.model_dump()
    assert trusted.model_dump_json() == validated.model_dump_json()
    assert repr(trusted) == repr(validated) and trusted.cells() == tuple(cells)
    assert trusted.model_copy(update={"status": "x"}) == validated.model_copy(
        update={"status": "x"}
    )
    with pytest.raises(ValidationError):
        trusted.status = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("cells", [["a"] * 8, ["a"] * 10, ["a"] * 8 + [1]])
def test_register_row_of_refuses_anything_but_nine_strings(cells: list[object]) -> None:
    with pytest.raises(TypeError):
        register_row_of(cells)  # type: ignore[arg-type]
