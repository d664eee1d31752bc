"""The scoring block of a scenario: Form A (Scenarios §1.7) or Form B (SI §1.3), and the
injection manifest that a Form B answer key is derived from (SI §2.2, §5.1)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    StrictFloat,
    StrictInt,
    Tag,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from provebench.si.profile_data._predicates import DecisionTable
from provebench.si.scenario._rule_error import rule_error

_CLOSED = ConfigDict(extra="forbid", frozen=True)
_OPEN = ConfigDict(extra="allow", frozen=True)

FORM_A_KEYS = (
    "type",
    "rubric",
    "dimensions",
    "safety_tolerance",
    "pass_condition",
    "deviation_measure",
)
FORM_B_KEYS = ("archetype_template", "decision_table")


def _rubric_value(value: Any) -> Any:
    # Published rubrics mix numbers, flags and words ("proportional"); keep them as written.
    if isinstance(value, bool | int | float | str):
        return value
    raise rule_error("a rubric entry is a number, a boolean or a string")


RubricValue = Annotated[Any, Field(json_schema_extra={"type": ["number", "boolean", "string"]})]


class SafetyScoring(BaseModel):
    """Form A, safety: binary (Scenarios §1.7)."""

    model_config = _CLOSED
    type: Literal["binary"]
    safety_tolerance: StrictFloat | StrictInt = 0
    deviation_measure: str | None = None
    pass_condition: str | None = None

    @model_validator(mode="after")
    def _tolerance_rule(self) -> SafetyScoring:
        if not 0 <= self.safety_tolerance <= 100:
            raise rule_error("safety_tolerance is a percentage (0–100)", at="safety_tolerance")
        if self.safety_tolerance == 0 and not (self.pass_condition or "").strip():
            raise rule_error(
                "pass_condition is required when safety_tolerance is 0", at="pass_condition"
            )
        if self.safety_tolerance > 0 and not (self.deviation_measure or "").strip():
            raise rule_error(
                "deviation_measure is required when safety_tolerance > 0", at="deviation_measure"
            )
        return self


class WeightedScoring(BaseModel):
    """Form A, capability: weighted rubric (Scenarios §1.7)."""

    model_config = _CLOSED
    type: Literal["weighted"]
    rubric: dict[str, RubricValue] = Field(min_length=1)
    dimensions: dict[str, StrictFloat | StrictInt] | None = None

    @field_validator("rubric")
    @classmethod
    def _rubric(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key, entry in value.items():
            try:
                _rubric_value(entry)
            except PydanticCustomError as error:
                raise rule_error(error.message(), at=str(key)) from None
        return value


class FormBScoring(BaseModel):
    """Form B (SI §1.3): an archetype template, or a scenario-local table (SI §1.4), plus the
    role bindings, which sit as sibling keys of ``archetype_template`` and are gathered in
    ``bindings`` as written. Their meaning is checked against the template by `bind_scoring`."""

    model_config = _CLOSED
    archetype_template: str | None = None
    decision_table: DecisionTable | None = None
    bindings: dict[str, JsonValue] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather_bindings(cls, value: Any) -> Any:
        if not isinstance(value, dict) or "bindings" in value:
            return value
        kept = {k: v for k, v in value.items() if k in FORM_B_KEYS or k in FORM_A_KEYS}
        roles = {k: v for k, v in value.items() if k not in kept}
        return {**kept, "bindings": roles}


def _scoring_form(value: Any) -> str | None:
    if isinstance(value, FormBScoring):
        return "form:b"
    if isinstance(value, SafetyScoring):
        return "form:a-binary"
    if isinstance(value, WeightedScoring):
        return "form:a-weighted"
    if not isinstance(value, dict):
        return None
    if any(key in value for key in FORM_B_KEYS):
        return "form:b"
    if value.get("type") == "binary" or "safety_tolerance" in value or "pass_condition" in value:
        return "form:a-binary"
    if "type" in value or "rubric" in value or "dimensions" in value:
        return "form:a-weighted"
    return None


SCORING_TAGS = frozenset({"form:b", "form:a-binary", "form:a-weighted"})

Scoring = Annotated[
    Annotated[SafetyScoring, Tag("form:a-binary")]
    | Annotated[WeightedScoring, Tag("form:a-weighted")]
    | Annotated[FormBScoring, Tag("form:b")],
    Discriminator(
        _scoring_form,
        custom_error_type="scoring_form",
        custom_error_message=(
            "declares neither Form A (scoring.type with rubric, or binary safety fields) nor "
            "Form B (scoring.archetype_template or scoring.decision_table)"
        ),
    ),
]


class Deviation(BaseModel):
    """One injected deviation from the healthy baseline (SI §2.2, Scenarios §1.11)."""

    model_config = _OPEN
    id: str = Field(min_length=1)
    resource: str = Field(min_length=1)
    deviation_type: str = Field(min_length=1)
    subject: str = Field(min_length=1)


class Injection(BaseModel):
    """The injection manifest: the answer key is the declared delta from the baseline (SI §5.1)."""

    model_config = _CLOSED
    baseline: JsonValue
    deviations: list[Deviation] = Field(min_length=1)
    symptom: JsonValue
    counterfactual: JsonValue

    @field_validator("baseline", "symptom", "counterfactual")
    @classmethod
    def _present(cls, value: JsonValue) -> JsonValue:
        if value is None or value == "" or value == [] or value == {}:
            raise rule_error("must not be empty")
        return value

    @model_validator(mode="after")
    def _unique_ids(self) -> Injection:
        seen: set[str] = set()
        for index, deviation in enumerate(self.deviations):
            if deviation.id in seen:
                raise rule_error(
                    f"duplicate deviation id {deviation.id!r}", at=f"deviations[{index}].id"
                )
            seen.add(deviation.id)
        return self

    def deviation(self, deviation_id: str) -> Deviation | None:
        return next((d for d in self.deviations if d.id == deviation_id), None)


__all__ = [
    "FORM_A_KEYS",
    "FORM_B_KEYS",
    "SCORING_TAGS",
    "Deviation",
    "FormBScoring",
    "Injection",
    "SafetyScoring",
    "Scoring",
    "WeightedScoring",
]
