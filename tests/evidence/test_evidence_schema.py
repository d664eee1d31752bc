"""The committed JSON Schema is generated from the models and must not drift from them."""

from __future__ import annotations

import json
from pathlib import Path

from provebench.evidence import Evidence, evidence_json_schema, evidence_schema_text

COMMITTED = Path(__file__).resolve().parents[2] / "schemas" / "evidence.schema.json"
REGENERATE = "provebench schema evidence > schemas/evidence.schema.json"


def test_committed_schema_matches_the_models() -> None:
    committed = COMMITTED.read_text(encoding="utf-8")
    assert committed == evidence_schema_text(), (
        f"{COMMITTED} has drifted from the evidence models; regenerate it with `{REGENERATE}`"
    )


def test_schema_text_is_the_same_on_every_call() -> None:
    assert evidence_schema_text() == evidence_schema_text()
    assert json.loads(evidence_schema_text()) == evidence_json_schema()


def test_schema_requires_what_a_file_must_carry() -> None:
    schema = evidence_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == [
        "format",
        "schema_version",
        "final_answer",
        "reasoning_trace",
        "actions",
    ]
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == set(Evidence.model_fields)


def test_records_are_discriminated_by_kind() -> None:
    schema = evidence_json_schema()
    audit_items = schema["properties"]["audit_log"]["items"]
    snapshot_items = schema["properties"]["state_snapshots"]["items"]
    assert audit_items["discriminator"]["propertyName"] == "kind"
    assert set(audit_items["discriminator"]["mapping"]) == {"api_call", "event"}
    assert set(snapshot_items["discriminator"]["mapping"]) == {"state_snapshot", "state_diff"}
