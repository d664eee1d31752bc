"""Canonical JSON lines of the generated event stream, fast.

Every line of `drive_events.jsonl` must equal `compact_json` of its parsed model (sorted keys,
no spaces, UTF-8, no ASCII escaping). `encode_event` is the general encoder; `encode_file`
writes a generated `DriveFile` dict by hand, which is most of the bytes of a large corpus. A test
compares every line of generated corpora with `compact_json` of its model.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

# The JSON string encoder `json.dumps(..., ensure_ascii=False)` uses.
encode_string: Callable[[str], str] = json.encoder.encode_basestring
encode_event: Callable[[Any], str] = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
).encode


def _optional(value: str | None) -> str:
    return "null" if value is None else encode_string(value)


def encode_file(file: dict[str, Any]) -> str:
    """The canonical JSON (`compact_json`) of a generated `DriveFile` dict, keys in sorted order.

    A test compares every line of generated corpora with `compact_json` of its parsed model.
    """
    metadata = file["metadata"]
    metadata_json = (
        "null"
        if metadata is None
        else f'{{"direction":{_optional(metadata["direction"])},'
        f'"manager_code":{_optional(metadata["manager_code"])},'
        f'"phone":{_optional(metadata["phone"])}}}'
    )
    duration = file["duration_sec"]
    return (
        f'{{"created_at_utc":{encode_string(file["created_at_utc"])},'
        f'"duration_sec":{"null" if duration is None else float.__repr__(duration)},'
        f'"file_id":{encode_string(file["file_id"])},"folder_id":{encode_string(file["folder_id"])},'
        f'"metadata":{metadata_json},"mime_type":{encode_string(file["mime_type"])},'
        f'"name":{encode_string(file["name"])},"size_bytes":{int(file["size_bytes"])}}}'
    )


__all__ = ["encode_event", "encode_file", "encode_string"]
