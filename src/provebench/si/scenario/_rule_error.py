"""Validation errors that carry our own message and, optionally, the sub-field they concern.

A rule raised inside a pydantic validator can only be located at the object being validated;
the error context key ``at`` lets ``si validate`` point at the exact sub-field and line.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import PydanticCustomError


def rule_error(message: str, at: str | None = None) -> PydanticCustomError:
    """A validation error whose message is ours, optionally pointing at sub-field ``at``."""
    context: dict[str, Any] = {"message": message}
    if at is not None:
        context["at"] = at
    return PydanticCustomError("scenario_rule", "{message}", context)


__all__ = ["rule_error"]
