"""Public grammar call-name-grammar/1 (pilot §4): valid and invalid names, round trip."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from provebench.pilot import NameRejection, ParsedName, parse_call_name, render_call_name


def _parsed(name: str) -> ParsedName:
    result = parse_call_name(name)
    assert isinstance(result, ParsedName), result
    return result


def _rejected(name: str) -> NameRejection:
    result = parse_call_name(name)
    assert isinstance(result, NameRejection), result
    return result


def test_documented_examples_parse_to_their_fields() -> None:
    first = _parsed("in_4930123456_20261025T023000+0200_M007.mp3")
    assert first.direction == "in"
    assert first.phone == "4930123456"
    assert first.call_instant == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert first.name_offset_minutes == 120
    assert first.manager_code == "M007"
    assert first.tag is None
    assert first.extension == "mp3"

    second = _parsed("out_12125550147_20261231T235959-0500_M012_follow-up call.wav")
    assert second.call_instant == datetime(2027, 1, 1, 4, 59, 59, tzinfo=UTC)
    assert second.tag == "follow-up call"

    third = _parsed("in_447700900123_20260329T010000Z_M003_accept everything.ogg")
    assert third.name_offset_minutes is None
    assert third.call_instant == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
    assert third.tag == "accept everything"


def test_tag_may_hold_underscores_and_dots_and_the_extension_is_the_last_dot() -> None:
    parsed = _parsed("in_4930123456_20260101T000000Z_M001_a_b.mp3.x.wav")
    assert parsed.tag == "a_b.mp3.x"
    assert parsed.extension == "wav"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("IN_4930123456_20260101T000000Z_M001.mp3", "name_not_conforming"),
        ("іn_4930123456_20260101T000000Z_M001.mp3", "name_not_conforming"),  # Cyrillic і
        ("in_４９３０１２３４５６_20260101T000000Z_M001.mp3", "name_not_conforming"),
        ("in_0930123456_20260101T000000Z_M001.mp3", "name_not_conforming"),  # leading 0
        ("in_493012_20260101T000000Z_M001.mp3", "name_not_conforming"),  # 6 digits
        ("in_4930123456789012_20260101T000000Z_M001.mp3", "name_not_conforming"),  # 16
        ("in_4930123456_20260101T000000_M001.mp3", "name_not_conforming"),  # no offset
        ("in_4930123456_20260101T000000Z_М001.mp3", "name_not_conforming"),  # Cyrillic М
        ("in_4930123456_20260101T000000Z_M01.mp3", "name_not_conforming"),
        ("in_4930123456_20260101T000000Z_M001.MP3", "name_not_conforming"),
        ("in_4930123456_20260101T000000Z_M001.flac", "name_not_conforming"),
        ("in_4930123456_20260101T000000Z_M001_.mp3", "name_not_conforming"),  # empty tag
        ("in_4930123456_20260101T000000Z_M001.mp3.exe", "name_not_conforming"),
        ("in_4930123456_20260230T000000Z_M001.mp3", "name_invalid_timestamp"),
        ("in_4930123456_20260101T240000Z_M001.mp3", "name_invalid_timestamp"),
        ("in_4930123456_20260101T235960Z_M001.mp3", "name_invalid_timestamp"),
        ("in_4930123456_20260101T000000+1401_M001.mp3", "name_invalid_timestamp"),
        ("in_4930123456_20260101T000000+0160_M001.mp3", "name_invalid_timestamp"),
        ("in_4930123456_20260101T000000-0000_M001.mp3", "name_invalid_timestamp"),
        ("in_4930123456_19700101T000000Z_M001.mp3", "name_invalid_timestamp"),
        ("../in_4930123456_20260101T000000Z_M001.mp3", "name_forbidden_character"),
        ("in_4930123456_20260101T000000Z_M001_a\nb.mp3", "name_forbidden_character"),
        ("in_4930123456_20260101T000000Z_M001_\x85.mp3", "name_forbidden_character"),  # C1
        ("in_4930123456_20260101T000000Z_M001_\ud800.mp3", "name_forbidden_character"),
        ("in_4930123456_20260101T000000Z_M001_" + "x" * 220 + ".mp3", "name_too_long"),
    ],
)
def test_nonconforming_names_are_rejected_with_their_reason(name: str, reason: str) -> None:
    assert _rejected(name).reason_code == reason


def test_rejection_detail_never_echoes_the_hostile_text() -> None:
    hostile = "in_4930123456_20260101T000000Z_M001_ignore rules\x07.mp3"
    rejection = _rejected(hostile)
    assert "ignore" not in rejection.detail
    assert rejection.detail == "U+0007 at position 48"


def test_length_limit_is_exactly_255_characters() -> None:
    base = "in_4930123456_20260101T000000Z_M001_"
    assert isinstance(parse_call_name(base + "x" * (255 - len(base) - 4) + ".mp3"), ParsedName)
    assert _rejected(base + "x" * (256 - len(base) - 4) + ".mp3").reason_code == "name_too_long"


def test_bidi_and_zero_width_characters_are_allowed_in_the_tag_as_data() -> None:
    parsed = _parsed("out_4930123456_20260101T000000Z_M001_\u202eimported\u200b.ogg")
    assert parsed.tag == "\u202eimported\u200b"
    assert parsed.direction == "out"


_tag_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="/"),
    min_size=1,
    max_size=40,
)


@st.composite
def _fields(draw: st.DrawFn) -> ParsedName:
    offset = draw(st.one_of(st.none(), st.integers(-14 * 60, 14 * 60)))
    seconds = draw(st.integers(0, 60 * 365 * 24 * 3600))
    return ParsedName(
        direction=draw(st.sampled_from(["in", "out"])),
        phone=str(draw(st.integers(10**6, 10**15 - 1))),
        call_instant=datetime(1990, 1, 1, tzinfo=UTC) + timedelta(seconds=seconds),
        name_offset_minutes=offset,
        manager_code=f"M{draw(st.integers(0, 999)):03d}",
        tag=draw(st.one_of(st.none(), _tag_text)),
        extension=draw(st.sampled_from(["mp3", "wav", "ogg", "m4a"])),
    )


@given(_fields())
def test_render_then_parse_gives_back_the_fields(fields: ParsedName) -> None:
    assert parse_call_name(render_call_name(fields)) == fields


@given(_fields(), _tag_text)
def test_a_tag_never_changes_the_structured_fields(fields: ParsedName, tag: str) -> None:
    with_tag = _parsed(render_call_name(fields.model_copy(update={"tag": tag})))
    assert with_tag.model_copy(update={"tag": fields.tag}) == fields
