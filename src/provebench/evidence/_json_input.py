"""Evidence-specific helpers around the strict JSON reader (`provebench._jsonfile`).

The reader itself is shared by every JSON input; it is re-exported here for the evidence readers.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from provebench._errors import ProvebenchError
from provebench._jsonfile import (
    MAX_JSON_DEPTH,
    json_type_name,
    member_path,
    parse_json_bytes,
    parse_json_text,
    read_input_bytes,
    read_json_file,
)
from provebench.evidence._models import InconsistentFieldError
from provebench.evidence._records import RECORD_KINDS


def loc_path(loc: tuple[int | str, ...], *, prefix: str = "") -> str:
    """A pydantic error location as a JSON path, without the union-tag steps pydantic inserts."""
    path = prefix
    previous: int | str | None = None
    for step in loc:
        is_tag = isinstance(previous, int) and isinstance(step, str) and step in RECORD_KINDS
        if not is_tag:
            path = member_path(path, step)
        previous = step
    return path


def validation_problem(error: ValidationError, *, source: str, prefix: str = "") -> ProvebenchError:
    """The first problem of a pydantic `ValidationError`, as one line naming the field."""
    problems = error.errors(include_url=False)
    first = problems[0]
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, InconsistentFieldError):
        field = member_path(prefix, cause.field) if prefix else cause.field
        message = cause.detail
    else:
        field = loc_path(tuple(first["loc"]), prefix=prefix) or "(document)"
        message = _describe(first)
    if len(problems) > 1:
        others = len(problems) - 1
        message += f" (and {others} more problem{'s' if others > 1 else ''})"
    return ProvebenchError(message, path=source, field=field)


def _describe(problem: Any) -> str:
    kind = str(problem["type"])
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field"
    message = str(problem["msg"])
    if kind == "literal_error":
        shown = json.dumps(problem.get("input"), ensure_ascii=False)
        message += f" (got {shown[:60]})"
    elif kind.endswith("_type"):
        message += f" (got {json_type_name(problem.get('input'))})"
    return message


__all__ = [
    "MAX_JSON_DEPTH",
    "json_type_name",
    "loc_path",
    "member_path",
    "parse_json_bytes",
    "parse_json_text",
    "read_input_bytes",
    "read_json_file",
    "validation_problem",
]
