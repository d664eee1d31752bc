"""decide_row: admissibility, precedence, mapping, row format and ordering (pilot §4, §6)."""

from __future__ import annotations

import csv
import io

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot import (
    REGISTER_COLUMNS,
    UNMAPPED_MANAGER_NAME,
    CallMetadata,
    DriveFile,
    Refusal,
    RegisterRow,
    decide_row,
    formula_like_cells,
    manager_mapping,
    metadata_disagreements,
    parse_call_name,
    register_csv_text,
    sorted_register,
)
from provebench.pilot.corpus import ADVERSARIAL_ITEMS, CallTruth, format_name
from provebench.pilot.rules import mapping_table_bytes, parse_mapping_table

NAME = "out_4930123456_20261025T023000+0200_M006_callback.m4a"
ZONE = "Europe/Berlin"


def _file(**changes: object) -> DriveFile:
    values: dict[str, object] = {
        "file_id": "abc-1",
        "name": NAME,
        "created_at_utc": "2026-10-26T09:00:00Z",
        "mime_type": "audio/mp4",
        "size_bytes": 1000,
        "duration_sec": 61.2,
        "folder_id": "fld-1",
    }
    values.update(changes)
    return DriveFile.model_validate(values)


def _row(file: DriveFile) -> RegisterRow:
    result = decide_row(file, ZONE)
    assert isinstance(result, RegisterRow), result
    return result


def _refusal(file: DriveFile) -> Refusal:
    result = decide_row(file, ZONE)
    assert isinstance(result, Refusal), result
    return result


def test_an_admissible_file_gives_the_documented_row() -> None:
    assert _row(_file()) == RegisterRow(
        file_id="abc-1",
        call_local_datetime="2026-10-25T02:30:00+02:00",
        direction="outgoing",
        manager_code="M006",
        manager_name="Fischer, Jonas",
        phone="4930123456",
        duration_sec="62",
        source_link="drive://file/abc-1",
        status="imported",
    )


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"file_id": "-abc"}, "invalid_file_id"),
        ({"file_id": "=HYPERLINK(1)"}, "invalid_file_id"),
        ({"file_id": ""}, "invalid_file_id"),
        ({"mime_type": "video/mp4"}, "unsupported_mime_type"),
        ({"mime_type": "audio/MPEG"}, "unsupported_mime_type"),
        ({"mime_type": "audio/flac"}, "unsupported_mime_type"),
        ({"size_bytes": 0}, "corrupted_empty_file"),
        ({"size_bytes": -5}, "corrupted_empty_file"),
        ({"duration_sec": None}, "corrupted_unreadable_duration"),
        ({"duration_sec": 0.0}, "corrupted_non_positive_duration"),
        ({"duration_sec": -3.5}, "corrupted_non_positive_duration"),
        ({"name": "recording.mp3"}, "name_not_conforming"),
        # The first failing check decides: mime before size before the name.
        ({"mime_type": "text/plain", "size_bytes": 0, "name": "x"}, "unsupported_mime_type"),
        ({"size_bytes": 0, "duration_sec": None, "name": "x"}, "corrupted_empty_file"),
    ],
)
def test_inadmissible_files_are_refused_with_a_reason_code(
    changes: dict[str, object], reason: str
) -> None:
    assert _refusal(_file(**changes)).reason_code == reason


@pytest.mark.parametrize(
    ("duration", "shown"), [(0.3, "1"), (1.0, "1"), (59.9, "60"), (125.0, "125")]
)
def test_duration_is_whole_seconds_rounded_up(duration: float, shown: str) -> None:
    assert _row(_file(duration_sec=duration)).duration_sec == shown


def test_unknown_manager_code_is_imported_with_the_unmapped_name() -> None:
    row = _row(_file(name="in_4930123456_20261025T023000+0200_M999.mp3", mime_type="audio/mpeg"))
    assert (row.manager_code, row.manager_name) == ("M999", UNMAPPED_MANAGER_NAME)
    assert "M999" not in manager_mapping()


def test_metadata_never_fills_or_overrides_the_name() -> None:
    plain = _row(_file())
    hostile = CallMetadata(
        direction="in; accept everything", phone="=1+2", manager_code="ignore rules"
    )
    assert _row(_file(metadata=hostile)) == plain
    disagreeing = CallMetadata(direction="in", phone="111", manager_code="M001")
    assert _row(_file(metadata=disagreeing)) == plain
    parsed = parse_call_name(NAME)
    assert not isinstance(parsed, Refusal)
    assert metadata_disagreements(_file(metadata=disagreeing), parsed) == [  # type: ignore[arg-type]
        "direction",
        "phone",
        "manager_code",
    ]
    agreeing = CallMetadata(direction="out", phone="4930123456", manager_code="M006")
    assert metadata_disagreements(_file(metadata=agreeing), parsed) == []  # type: ignore[arg-type]


def test_metadata_cannot_rescue_a_nonconforming_name() -> None:
    complete = CallMetadata(direction="in", phone="4930123456", manager_code="M001")
    assert _refusal(_file(name="call.mp3", metadata=complete)).reason_code == "name_not_conforming"


@pytest.mark.parametrize("item", ADVERSARIAL_ITEMS, ids=lambda item: item.label)
def test_adversarial_text_changes_nothing_beyond_the_grammar(item: object) -> None:
    truth = CallTruth("in", "4930123456", 1_790_000_000, 60, "M003", None, "wav")
    clean = _row(_file(name=format_name(truth), mime_type="audio/wav"))
    metadata = None if item.metadata is None else CallMetadata(**item.metadata)  # type: ignore[attr-defined]
    hostile = decide_row(
        _file(name=item.make_name(truth), mime_type="audio/wav", metadata=metadata),  # type: ignore[attr-defined]
        ZONE,
    )
    if item.conforming:  # type: ignore[attr-defined]
        assert hostile == clean
    else:
        assert isinstance(hostile, Refusal)
        assert hostile.reason_code.startswith("name_")


def test_no_register_cell_can_start_like_a_formula() -> None:
    for code in [*manager_mapping(), "M999"]:
        name = f"out_4930123456_20261025T023000+0200_{code}.mp3"
        row = _row(_file(name=name, mime_type="audio/mpeg", file_id="A-b_9"))
        assert formula_like_cells(row) == []
    row = _row(_file())
    assert formula_like_cells(row.model_copy(update={"phone": "+4930"})) == ["phone"]


def test_mapping_table_loader_refuses_unsafe_tables() -> None:
    assert parse_mapping_table(mapping_table_bytes(), source="t") == manager_mapping()
    for bad in (
        b"manager_code,manager_name\nM001,=cmd\n",
        b"manager_code,manager_name\nM001,A\nM001,B\n",
        b"manager_code,manager_name\nX1,A\n",
        b"manager_code,manager_name\n",
        b"code,name\nM001,A\n",
        b"manager_code,manager_name\nM001,\n",
        b"manager_code,manager_name\nM001,(unmapped)\n",
    ):
        with pytest.raises(ProvebenchError):
            parse_mapping_table(bad, source="t")


def test_register_csv_is_utf8_lf_and_minimally_quoted() -> None:
    row = _row(_file())
    text = register_csv_text([row])
    assert text.splitlines()[0] == ",".join(REGISTER_COLUMNS)
    assert "\r" not in text and text.endswith("\n")
    assert '"Fischer, Jonas"' in text
    assert next(csv.DictReader(io.StringIO(text)))["manager_name"] == "Fischer, Jonas"


def test_ordering_is_by_instant_then_file_id_not_by_local_text() -> None:
    fold_first = _row(
        _file(
            file_id="z", name="in_4930123456_20261025T023000+0200_M001.mp3", mime_type="audio/mpeg"
        )
    )
    fold_second = _row(
        _file(
            file_id="a", name="in_4930123456_20261025T023000+0100_M001.mp3", mime_type="audio/mpeg"
        )
    )
    same_instant = _row(
        _file(file_id="b", name="in_4930123456_20261025T003000Z_M001.mp3", mime_type="audio/mpeg")
    )
    # Local texts are equal for the fold pair; instants differ by one hour.
    assert fold_first.call_local_datetime[:19] == fold_second.call_local_datetime[:19]
    ordered = sorted_register([fold_second, same_instant, fold_first])
    assert [row.file_id for row in ordered] == ["b", "z", "a"]
