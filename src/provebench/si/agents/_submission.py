"""The answer tool's arguments, as every tool-calling face takes them (docs/si-agents.md).

`submit_answer` takes the final answer, an optional reasoning trace and an optional structured
diagnosis (`provebench.evidence.Diagnosis`, docs/si-scoring.md "The structured diagnosis"): the
same schema for `si serve`, the sealed MCP road, the `openai:` loop and the Inspect solver, and
the same strict validation, so a diagnosis means one thing whichever way it came.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from pydantic import JsonValue

from provebench._jsonfile import text_problem
from provebench.evidence import Diagnosis, blank_answer
from provebench.evidence._diagnosis import (
    DEVIATION_TYPE_PATTERN,
    KEY_PATTERN,
    MAX_FACTORS,
    NAMESPACE_PATTERN,
    RESOURCE_PATTERN,
)
from provebench.si.agents._protocol import submitted_diagnosis
from provebench.si.scoring._diagnosis import deviation_types

_RESOURCE: Final[dict[str, JsonValue]] = {
    "type": "string",
    "pattern": RESOURCE_PATTERN,
    "description": "The resource, as kind/name (e.g. configmap/smtp-config).",
}
_NAMESPACE: Final[dict[str, JsonValue]] = {
    "type": "string",
    "pattern": NAMESPACE_PATTERN,
    "description": "Its namespace (optional).",
}


def diagnosis_argument_schema() -> dict[str, JsonValue]:
    """The JSON Schema of the `diagnosis` argument: closed objects, the profile's deviation
    types as an enum, every property described (a model reads the descriptions)."""
    factor: dict[str, JsonValue] = {
        "type": "object",
        "properties": {
            "resource": _RESOURCE,
            "namespace": _NAMESPACE,
            "key": {
                "type": "string",
                "pattern": KEY_PATTERN,
                "description": "The key that deviates (e.g. SMTP_PORT), or the resource's own "
                "name when the resource itself deviates.",
            },
            "deviation_type": {
                "type": "string",
                "enum": list(deviation_types()),
                "pattern": DEVIATION_TYPE_PATTERN,
                "description": "How it deviates from the healthy baseline.",
            },
        },
        "required": ["resource", "key", "deviation_type"],
        "additionalProperties": False,
    }
    dismissed: dict[str, JsonValue] = {
        "type": "object",
        "properties": {"resource": _RESOURCE, "namespace": _NAMESPACE},
        "required": ["resource"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "description": "Optional, structured: the cause as exact fields, scored exactly under "
        "the strict reading.",
        "properties": {
            "factors": {
                "type": "array",
                "items": factor,
                "minItems": 1,
                "maxItems": MAX_FACTORS,
                "description": "The factor(s) that cause the symptom.",
            },
            "dismissed": {
                "type": "array",
                "items": dismissed,
                "maxItems": MAX_FACTORS,
                "description": "Signals you looked at and set aside as not the cause.",
            },
        },
        "required": ["factors"],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class Submission:
    """`submit_answer`'s arguments, validated."""

    final_answer: str
    reasoning_trace: str
    diagnosis: Diagnosis | None


ANSWER_FIELDS: Final = frozenset({"final_answer", "reasoning_trace", "diagnosis"})
_USAGE: Final = (
    "it takes final_answer (string), optional reasoning_trace (string) and optional diagnosis"
)


def submission_of(arguments: Mapping[str, Any]) -> Submission | str:
    """The submission, or one line naming what is wrong with it (the agent may retry: a
    malformed submission is a tool error, never recorded)."""
    unknown = sorted(set(arguments) - ANSWER_FIELDS)
    if unknown:
        return f"submit_answer: no argument {unknown[0]!r}; {_USAGE}"
    final_answer = arguments.get("final_answer")
    reasoning_trace = arguments.get("reasoning_trace", "")
    for name, value in (("final_answer", final_answer), ("reasoning_trace", reasoning_trace)):
        if text_problem(value) is not None:
            return f"submit_answer: {name} must be a string that can be recorded; {_USAGE}"
    assert isinstance(final_answer, str) and isinstance(reasoning_trace, str)
    diagnosis = submitted_diagnosis(arguments.get("diagnosis"))
    if isinstance(diagnosis, str):
        return f"submit_answer: {diagnosis}"
    if diagnosis is not None and blank_answer(final_answer):
        return "submit_answer: a diagnosis needs a final_answer beside it (not a blank one)"
    return Submission(final_answer, reasoning_trace, diagnosis)


__all__ = ["ANSWER_FIELDS", "Submission", "diagnosis_argument_schema", "submission_of"]
