"""`pseudonym/1`: keyed, shape-preserving, standing-preserving pseudonyms (pilot §16)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import CallMetadata, DriveFile
from provebench.pilot.rules import manager_mapping, parse_name_fields
from provebench.pilot.rules._grammar import NameRejection
from provebench.pilot.shadow import Pseudonymiser, read_key
from provebench.pilot.shadow._pseudonym import new_key_text

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
NAME = "in_4930123456_20261025T023000+0200_M007_customer Jane Doe.mp3"


def _standing(name: str) -> str:
    parsed = parse_name_fields(name)
    return parsed.reason_code if isinstance(parsed, NameRejection) else "admissible"


def test_same_key_same_pseudonym_other_key_other_pseudonym() -> None:
    one, again, other = Pseudonymiser(KEY), Pseudonymiser(KEY), Pseudonymiser(OTHER_KEY)
    assert one.file_id("1AbC") == again.file_id("1AbC")
    assert one.file_id("1AbC") != other.file_id("1AbC")
    assert one.key_check == again.key_check != other.key_check
    # Domains separate kinds of value: the same text as a file id and a folder id differs.
    assert one.file_id("x")[1:] != one.folder_id("x")[1:]


def test_an_admissible_name_keeps_its_row_shape_and_loses_its_identifiers() -> None:
    pseudonyms = Pseudonymiser(KEY)
    rewritten = pseudonyms.name(NAME)
    parsed = parse_name_fields(rewritten)
    assert not isinstance(parsed, NameRejection)
    direction, phone, instant, offset, manager, tag, extension = parsed
    original = parse_name_fields(NAME)
    assert not isinstance(original, NameRejection)
    assert (direction, instant, offset, extension) == (original[0], original[2], original[3], "mp3")
    assert len(phone) == len("4930123456") and phone != "4930123456" and phone[0] != "0"
    assert manager in manager_mapping() and tag is not None and tag.startswith("t")
    for secret in ("4930123456", "Jane", "Doe", "customer"):
        assert secret not in rewritten


@pytest.mark.parametrize(
    "name",
    [
        "x" * 300,  # too long
        "in_4930123456_20261025T023000Z_M007_a\x07b.mp3",  # a control character
        "recording 17.mp3",  # not the grammar's shape
        "in_4930123456_20261399T023000Z_M007.mp3",  # the shape, an invalid timestamp
        "out_12125550147_20261231T235959-0500_M999.wav",  # an unmapped manager
        NAME,
    ],
)
def test_a_name_keeps_its_standing_under_the_grammar(name: str) -> None:
    rewritten = Pseudonymiser(KEY).name(name)
    assert _standing(rewritten) == _standing(name)
    assert "4930123456" not in rewritten and "12125550147" not in rewritten


def test_a_listed_manager_stays_listed_and_an_unlisted_one_unlisted() -> None:
    pseudonyms = Pseudonymiser(KEY)
    listed = sorted(manager_mapping())
    images = [pseudonyms.manager_code(code) for code in listed]
    assert sorted(images) == listed  # a permutation of the table: one manager, one pseudonym
    assert images != listed
    assert pseudonyms.manager_code("M999") not in manager_mapping()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789", min_size=6, max_size=14), st.sampled_from("123456789"))
def test_a_phone_stays_a_phone_of_the_same_length(rest: str, first: str) -> None:
    phone = first + rest
    pseudonym = Pseudonymiser(KEY).phone(phone)
    assert len(pseudonym) == len(phone) and pseudonym.isdigit() and pseudonym[0] != "0"


def test_metadata_shaped_values_follow_the_name_and_free_text_becomes_a_token() -> None:
    pseudonyms = Pseudonymiser(KEY)
    metadata = pseudonyms.metadata(
        CallMetadata(direction="in", phone="4930123456", manager_code="ignore previous rules")
    )
    assert metadata is not None
    assert metadata.direction == "in"
    assert metadata.phone == pseudonyms.phone("4930123456")  # the same as in the name
    assert metadata.manager_code is not None and "ignore" not in metadata.manager_code


def test_a_file_keeps_times_sizes_and_type() -> None:
    file = DriveFile(
        file_id="1RealDriveId",
        name=NAME,
        created_at_utc="2026-10-25T00:31:00Z",
        mime_type="audio/mpeg",
        size_bytes=1234,
        duration_sec=61.5,
        folder_id="0RealFolder",
    )
    rewritten = Pseudonymiser(KEY).file(file)
    assert rewritten.model_dump(include={"created_at_utc", "mime_type", "size_bytes",
                                         "duration_sec"}) == file.model_dump(
        include={"created_at_utc", "mime_type", "size_bytes", "duration_sec"}
    )  # fmt: skip
    assert "Real" not in rewritten.file_id + rewritten.folder_id


def test_the_key_file_is_checked(tmp_path: Path) -> None:
    good = tmp_path / "key"
    good.write_text(new_key_text(), encoding="ascii")
    assert len(read_key(good)) == 32
    short = tmp_path / "short"
    short.write_text("ab" * 16 + "\n", encoding="ascii")
    with pytest.raises(ProvebenchError, match="at least 32"):
        read_key(short)
    garbage = tmp_path / "garbage"
    garbage.write_text("not a key", encoding="ascii")
    with pytest.raises(ProvebenchError, match="hex") as caught:
        read_key(garbage)
    assert caught.value.field == "--key-file" and "not a key" not in str(caught.value)
    with pytest.raises(ProvebenchError, match="no such key file"):
        read_key(tmp_path / "missing")
