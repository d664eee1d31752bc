"""The JSON Schema of the evidence format, generated from the models (the source of truth).

`schemas/evidence.schema.json` in the repository is this text, committed; a test fails when the
two differ. Regenerate with `provebench schema evidence > schemas/evidence.schema.json`.
"""

from __future__ import annotations

from typing import Any, Final

from provebench._canonical import canonical_json
from provebench.evidence._models import Evidence

JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


def evidence_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a provebench evidence file."""
    return {"$schema": JSON_SCHEMA_DIALECT, **Evidence.model_json_schema(mode="validation")}


def evidence_schema_text() -> str:
    """The schema as canonical JSON text: the same bytes on every run."""
    return canonical_json(evidence_json_schema())


__all__ = ["JSON_SCHEMA_DIALECT", "evidence_json_schema", "evidence_schema_text"]
