"""A pydantic model instance built from values its caller has already checked.

Validation is pydantic's job at the edges, where input arrives. Two hot paths build models from
values that were checked a moment before: the ledger's appends (payloads checked and hashed) and
the corpus's expected rows (nine strings from the csv module). For them, validating again costs
more than the rest of the work. This is the one place that knows what state a pydantic v2 model
instance holds: the same state `BaseModel.model_construct` sets, without that method's per-field
generality. Each caller's tests hold its instances equal to validated ones.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def unvalidated(model: type[M], values: dict[str, Any], fields_set: set[str]) -> M:
    """An instance of `model` holding `values` (every field, in field order) and reporting
    `fields_set` as its set fields. `fields_set` may be shared by many instances of a frozen
    model: pydantic writes only to a copy's set (`model_copy`), never to this one."""
    instance = object.__new__(model)
    object.__setattr__(instance, "__dict__", values)
    object.__setattr__(instance, "__pydantic_fields_set__", fields_set)
    object.__setattr__(instance, "__pydantic_extra__", None)
    object.__setattr__(instance, "__pydantic_private__", None)
    return instance


__all__ = ["unvalidated"]
