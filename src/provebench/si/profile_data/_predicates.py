"""The predicate language of decision tables (SI §1.2 templates, SI §1.4 scenario-local tables).

A predicate is exactly one of::

    {call: <registered primitive>, with: {param: literal | "$role"}}
    {not: P}
    {all: [P, ...]}
    {any: [P, ...]}
    otherwise            # only as the last row of a table

``$name`` refers to a template role; a literal string that starts with ``$`` is written ``$$...``.
Rows are tried in order and the first whose predicate holds gives the band (SI §5.1).
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    Tag,
    TypeAdapter,
    field_validator,
    model_serializer,
    model_validator,
)

from provebench.si.profile_data._ext_params import ParamType

_ROLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FROZEN = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Ref(BaseModel):
    """``$role`` — an argument taken from the scenario's binding of a template role."""

    model_config = _FROZEN
    role: str

    def __str__(self) -> str:
        return f"${self.role}"

    @model_serializer
    def _as_written(self) -> str:
        return f"${self.role}"


class Lit(BaseModel):
    """A literal argument (``$$x`` in YAML is the literal string ``$x``)."""

    model_config = _FROZEN
    value: JsonValue

    @model_serializer
    def _as_written(self) -> JsonValue:
        # Dumps back to the YAML form: a literal starting with `$` is escaped as `$$`.
        if isinstance(self.value, str) and self.value.startswith("$"):
            return f"${self.value}"
        return self.value


Arg = Ref | Lit


def parse_arg(raw: Any) -> Ref | Lit:
    """YAML argument -> `Ref` or `Lit`, applying the ``$role`` / ``$$literal`` convention."""
    if isinstance(raw, Ref | Lit):
        return raw
    if isinstance(raw, str) and raw.startswith("$$"):
        return Lit(value=raw[1:])
    if isinstance(raw, str) and raw.startswith("$"):
        name = raw[1:]
        if not _ROLE_NAME.fullmatch(name):
            raise ValueError(f"{raw!r} is not a role reference ($name); write $$... for a literal")
        return Ref(role=name)
    return Lit(value=raw)


class Call(BaseModel):
    """A call of a registered primitive with its arguments."""

    model_config = _FROZEN
    call: str = Field(min_length=1)
    args: dict[str, Ref | Lit] = Field(default_factory=dict, alias="with")

    @field_validator("args", mode="before")
    @classmethod
    def _parse_args(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {name: parse_arg(arg) for name, arg in value.items()}
        return value


class Not(BaseModel):
    model_config = _FROZEN
    operand: Predicate = Field(alias="not")


class All(BaseModel):
    model_config = _FROZEN
    operands: list[Predicate] = Field(alias="all", min_length=1)


class Any_(BaseModel):  # `Any` is taken by typing
    model_config = _FROZEN
    operands: list[Predicate] = Field(alias="any", min_length=1)


class Otherwise(BaseModel):
    """The catch-all of a table's last row; written as the bare string ``otherwise``."""

    model_config = _FROZEN

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, value: Any) -> Any:
        if value == "otherwise":
            return {}
        return value

    @model_serializer
    def _as_written(self) -> str:
        return "otherwise"


# Discriminator tags carry a prefix so that error locations can drop them unambiguously
# (a tag named "not" would be indistinguishable from the field `not`).
_KINDS: dict[type[BaseModel], str] = {
    Call: "predicate:call",
    Not: "predicate:not",
    All: "predicate:all",
    Any_: "predicate:any",
    Otherwise: "predicate:otherwise",
}
PREDICATE_TAGS = frozenset(_KINDS.values())


def _predicate_kind(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return _KINDS.get(type(value))
    if value == "otherwise":
        return "predicate:otherwise"
    if isinstance(value, dict):
        present = [key for key in ("call", "not", "all", "any") if key in value]
        if len(present) == 1:
            return f"predicate:{present[0]}"
    return None


Predicate = Annotated[
    Annotated[Call, Tag("predicate:call")]
    | Annotated[Not, Tag("predicate:not")]
    | Annotated[All, Tag("predicate:all")]
    | Annotated[Any_, Tag("predicate:any")]
    | Annotated[Otherwise, Tag("predicate:otherwise")],
    Discriminator(
        _predicate_kind,
        custom_error_type="predicate",
        custom_error_message=(
            "a predicate is exactly one of {call, with}, {not}, {all: [...]}, {any: [...]} "
            "or the string 'otherwise'"
        ),
    ),
]

Not.model_rebuild()
All.model_rebuild()
Any_.model_rebuild()

_PREDICATE_ADAPTER: TypeAdapter[Call | Not | All | Any_ | Otherwise] = TypeAdapter(Predicate)


def parse_predicate(raw: Any) -> Call | Not | All | Any_ | Otherwise:
    """Parse one predicate as written in YAML; raises `pydantic.ValidationError`."""
    return _PREDICATE_ADAPTER.validate_python(raw)


class Row(BaseModel):
    """One row of a decision table: if ``when`` holds, the verdict is ``band`` / ``score``."""

    model_config = _FROZEN
    id: int = Field(ge=1)
    when: Predicate
    band: str = Field(min_length=1)
    score: float = Field(ge=0.0, le=1.0)

    @field_validator("score")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("score must be a finite number")
        return value


def check_rows(rows: list[Row]) -> list[str]:
    """Table-shape problems: unique row ids, and ``otherwise`` as the last row and only there.

    A table must end in ``otherwise`` so every evidence artifact lands in exactly one band — a
    table that can fall through would leave a verdict undefined (fail closed, SI §5.1).
    """
    problems: list[str] = []
    seen: set[int] = set()
    for index, row in enumerate(rows):
        if row.id in seen:
            problems.append(f"rows[{index}]: duplicate row id {row.id}")
        seen.add(row.id)
        if isinstance(row.when, Otherwise) and index != len(rows) - 1:
            problems.append(f"rows[{index}]: 'otherwise' is only valid in the last row")
    if rows and not isinstance(rows[-1].when, Otherwise):
        problems.append(f"rows[{len(rows) - 1}]: the last row must be 'otherwise'")
    return problems


class DecisionTable(BaseModel):
    """A scenario-local composite table (SI §1.4): literal arguments over registry primitives."""

    model_config = _FROZEN
    rows: list[Row] = Field(min_length=1)


def iter_calls(
    predicate: Call | Not | All | Any_ | Otherwise, at: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], Call]]:
    """Every primitive call inside ``predicate`` with its YAML path below ``at``, in order."""
    if isinstance(predicate, Call):
        return [(at, predicate)]
    if isinstance(predicate, Not):
        return iter_calls(predicate.operand, (*at, "not"))
    if isinstance(predicate, All | Any_):
        key = "all" if isinstance(predicate, All) else "any"
        return [
            found
            for index, operand in enumerate(predicate.operands)
            for found in iter_calls(operand, (*at, key, index))
        ]
    return []


# Registry v1's types (SI §5.1's role table), and the registry extension's (`registry-ext-1.yaml`,
# checked by `_ext_params.value_problem`).
RoleType = Literal["factor", "identifier_list", "positive_int", ParamType]

__all__ = [
    "PREDICATE_TAGS",
    "All",
    "Any_",
    "Arg",
    "Call",
    "DecisionTable",
    "Lit",
    "Not",
    "Otherwise",
    "Predicate",
    "Ref",
    "RoleType",
    "Row",
    "check_rows",
    "iter_calls",
    "parse_arg",
    "parse_predicate",
]
