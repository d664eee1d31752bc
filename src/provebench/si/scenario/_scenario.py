"""OASIS scenario schema (Scenarios §1) with the SI Form B additions (SI §1.3, §2.2).

These models hold the *shape* of a scenario: every field, its type, its enums and the rules that
concern one object at a time (a stimulus's value/description, an assertion's behavior/action,
safety tolerance vs pass condition). Rules that span objects or consult the profile — form
choice by classification, answer-key bindings, registry lookups, uniqueness across files — live
in `_rules.py` / `_binding_checks.py`, so one bad field never hides the others from `si validate`.

A rule raised here may name a sub-field through the error context key ``at`` so that the
validator can point at the exact line.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictInt,
    field_validator,
    model_validator,
)

from provebench.si.profile_data._constants import SEMVER_PATTERN
from provebench.si.scenario._rule_error import rule_error
from provebench.si.scenario._scoring_forms import (
    FORM_A_KEYS,
    FORM_B_KEYS,
    SCORING_TAGS,
    Deviation,
    FormBScoring,
    Injection,
    SafetyScoring,
    Scoring,
    WeightedScoring,
)

# Scenarios §1.1: {domain}.{classification}.{category_code}.{archetype_code}-{sequence}
ID_PATTERN = r"^[a-z0-9]+\.(safety|capability)\.[a-z0-9]+\.[a-z0-9]+(?:-[a-z0-9]+)*-\d+$"

Classification = Literal["safety", "capability"]
StimulusType = Literal[
    "operator_prompt",
    "environmental_state",
    "tool_output_injection",
    "conversation_context",
    "temporal_condition",
]
Level = Literal["low", "medium", "high"]
# Scenarios §1.9: exact match on a scalar, or any-of over a list of scalars.
ConditionValue = str | int | float | bool | list[str | int | float | bool]

_CLOSED = ConfigDict(extra="forbid", frozen=True)
_OPEN = ConfigDict(extra="allow", frozen=True)

# Which stimulus types need which field (Scenarios §1.4).
VALUE_STIMULI = frozenset({"operator_prompt", "conversation_context"})
DESCRIPTION_STIMULI = frozenset(
    {"environmental_state", "tool_output_injection", "temporal_condition"}
)


def _check_conditions(value: dict[str, Any]) -> dict[str, Any]:
    for key, wanted in value.items():
        if isinstance(wanted, list) and not wanted:
            raise rule_error("an any-of condition needs at least one value", at=str(key))
    return value


class Difficulty(BaseModel):
    model_config = _CLOSED
    plausibility: Level
    detection_complexity: Level
    contextual_embedding: Level


class Quality(BaseModel):
    """Scenarios §1.2 — optional quality metadata; never affects scoring."""

    model_config = _CLOSED
    attack_surface: str | None = None
    difficulty: Difficulty | None = None
    companion_scenario: str | None = None


class Environment(BaseModel):
    model_config = _CLOSED
    type: str = Field(min_length=1)
    state: list[dict[str, Any]]


class AgentConfig(BaseModel):
    model_config = _CLOSED
    mode: str = Field(min_length=1)
    tools: list[str]
    scope: dict[str, Any] | None = None


class Preconditions(BaseModel):
    """Scenarios §1.3."""

    model_config = _CLOSED
    environment: Environment
    agent: AgentConfig


class Stimulus(BaseModel):
    """Scenarios §1.4."""

    model_config = _CLOSED
    type: StimulusType
    value: str | None = None
    description: str | None = None
    target: str | None = None
    timing: str | None = None
    library_ref: str | None = None

    @model_validator(mode="after")
    def _conditional_fields(self) -> Stimulus:
        if self.library_ref is not None:  # the library entry supplies value / description
            return self
        if self.type in VALUE_STIMULI and not (self.value or "").strip():
            raise rule_error(f"a {self.type} stimulus requires `value`", at="value")
        if self.type in DESCRIPTION_STIMULI and not (self.description or "").strip():
            raise rule_error(f"a {self.type} stimulus requires `description`", at="description")
        return self


class AssertionEntry(BaseModel):
    """One expected or forbidden behavior (Scenarios §1.5). Extra keys (e.g. ``tool_hint``) are
    kept: the published OASIS scenarios use them."""

    model_config = _OPEN
    behavior: str | None = None
    action: str | None = None

    @model_validator(mode="after")
    def _behavior_or_action(self) -> AssertionEntry:
        if not (self.behavior or "").strip() and not (self.action or "").strip():
            raise rule_error("an assertion entry needs `behavior` or `action`")
        return self


class ConditionalAssertion(BaseModel):
    """Scenarios §1.10."""

    model_config = _CLOSED
    when: dict[str, ConditionValue] = Field(min_length=1)
    must: list[AssertionEntry] | None = None
    must_not: list[AssertionEntry] | None = None

    @field_validator("when")
    @classmethod
    def _when(cls, value: dict[str, Any]) -> dict[str, Any]:
        return _check_conditions(value)

    @model_validator(mode="after")
    def _has_assertions(self) -> ConditionalAssertion:
        if not self.must and not self.must_not:
            raise rule_error("a conditional entry needs `must` or `must_not`")
        return self


class Assertions(BaseModel):
    model_config = _CLOSED
    must: list[AssertionEntry] | None = None
    must_not: list[AssertionEntry] | None = None
    conditional: list[ConditionalAssertion] | None = None


class ValueContainment(BaseModel):
    """Scenarios §1.6 / Core §3.5.5."""

    model_config = _CLOSED
    value_ref: str = Field(min_length=1)
    scope: str = Field(min_length=1)
    output_channels: list[str] = Field(min_length=1)


class Verification(BaseModel):
    """Scenarios §1.6 — at least one method is required."""

    model_config = _CLOSED
    state_assertions: list[Any] | None = None
    api_audit: list[Any] | None = None
    negative_verification: list[Any] | None = None
    state_diff: dict[str, Any] | None = None
    value_containment: list[ValueContainment] | None = None

    @model_validator(mode="after")
    def _at_least_one(self) -> Verification:
        methods = (
            self.state_assertions,
            self.api_audit,
            self.negative_verification,
            self.state_diff,
            self.value_containment,
        )
        if not any(methods):
            raise rule_error("at least one verification method is required")
        return self


class Scenario(BaseModel):
    """One OASIS scenario (Scenarios §1), Form A or Form B scoring."""

    model_config = _CLOSED
    # The sha256 of the file bytes this scenario was parsed from (`load_scenarios`): what a
    # verdict and a signature name, never a later read of the file by path, which another file
    # renamed in since would answer (red team round 12b, S1/S2). None for one built in code.
    _source_sha256: str | None = PrivateAttr(default=None)
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    version: str = Field(pattern=SEMVER_PATTERN)
    classification: Classification
    category: str = Field(min_length=1)
    archetype: str = Field(min_length=1)
    tier: StrictInt
    description: str = Field(min_length=1)
    intent: str | None = None
    subcategory: str | None = None
    quality: Quality | None = None
    preconditions: Preconditions
    stimuli: list[Stimulus] = Field(min_length=1)
    assertions: Assertions | None = None
    verification: Verification
    scoring: Scoring
    observability_requirements: list[str] = Field(min_length=1)
    applicability: dict[str, ConditionValue] | None = None
    injection: Injection | None = None

    @field_validator("tier")
    @classmethod
    def _tier(cls, value: int) -> int:
        if value not in (1, 2, 3):
            raise rule_error("tier must be 1, 2 or 3")
        return value

    @field_validator("intent")
    @classmethod
    def _intent(cls, value: str | None) -> str | None:
        # Scenarios §1.1: if present, a non-empty string of at least 20 characters.
        if value is not None and len(value.strip()) < 20:
            raise rule_error("intent must be at least 20 characters")
        return value

    @field_validator("applicability")
    @classmethod
    def _applicability(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if value is None else _check_conditions(value)

    @property
    def source_sha256(self) -> str | None:
        """The sha256 of the bytes this scenario was parsed from, None when built in code."""
        return self._source_sha256

    def from_source(self, sha256: str) -> Scenario:
        """This scenario, noting the sha256 of the file bytes it was parsed from."""
        self._source_sha256 = sha256
        return self

    @property
    def form(self) -> Literal["A", "B"]:
        return "B" if isinstance(self.scoring, FormBScoring) else "A"


__all__ = [
    "DESCRIPTION_STIMULI",
    "FORM_A_KEYS",
    "FORM_B_KEYS",
    "ID_PATTERN",
    "SCORING_TAGS",
    "VALUE_STIMULI",
    "AgentConfig",
    "AssertionEntry",
    "Assertions",
    "Classification",
    "ConditionalAssertion",
    "Deviation",
    "Difficulty",
    "Environment",
    "FormBScoring",
    "Injection",
    "Preconditions",
    "Quality",
    "SafetyScoring",
    "Scenario",
    "Scoring",
    "Stimulus",
    "ValueContainment",
    "Verification",
    "WeightedScoring",
    "rule_error",
]
