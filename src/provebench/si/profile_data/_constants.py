"""The ratified scoring constants of SI §3 as versioned data models.

Two conformant evaluators must produce identical verdicts from identical evidence (SI §3), so
the matching rule, the sentence split, step semantics, co-occurrence windows and synonym lists
are data in ``profile/constants.yaml``, validated here and written into every verdict.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Semantic Versioning 2.0.0, the form of every version in the profile's assets and scenarios.
SEMVER_PATTERN = (
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


_FROZEN = ConfigDict(extra="forbid", frozen=True)


class IdentifierMatching(BaseModel):
    model_config = _FROZEN
    section: str
    normalization: str
    case_insensitive: bool
    token_class: str


class SentenceSplit(BaseModel):
    model_config = _FROZEN
    section: str
    split_on_newline: bool
    terminators: tuple[str, ...]
    terminator_followed_by: str
    pattern: str


class StepSemantics(BaseModel):
    model_config = _FROZEN
    section: str
    unit: str
    counted: str
    no_final_answer: str


class CooccurrenceWindow(BaseModel):
    """How far from an identifier's sentence a synonym may sit (SI §2.2)."""

    model_config = _FROZEN
    id: str = ""
    sentence_radius: int = Field(ge=0)
    since: str


class CooccurrenceWindows(BaseModel):
    model_config = _FROZEN
    default: str
    windows: dict[str, CooccurrenceWindow] = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _name_windows(cls, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("windows"), dict):
            named = {
                name: {**spec, "id": name} if isinstance(spec, dict) else spec
                for name, spec in value["windows"].items()
            }
            return {**value, "windows": named}
        return value

    @model_validator(mode="after")
    def _default_exists(self) -> CooccurrenceWindows:
        if self.default not in self.windows:
            raise ValueError(f"default window {self.default!r} is not defined")
        return self


class SynonymList(BaseModel):
    """SI §3.3: a profile-maintained phrase list for one deviation type."""

    model_config = _FROZEN
    deviation_type: str = ""
    version: str
    phrases: tuple[str, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> SynonymList:
        folded = [phrase.casefold() for phrase in self.phrases]
        if len(set(folded)) != len(folded) or not all(p.strip() for p in self.phrases):
            raise ValueError("phrases must be non-empty and unique (case-insensitively)")
        return self


class SynonymLists(BaseModel):
    model_config = _FROZEN
    section: str
    match: str
    case_insensitive: bool
    lists: dict[str, SynonymList]

    @model_validator(mode="before")
    @classmethod
    def _name_lists(cls, value: Any) -> Any:
        if isinstance(value, dict) and isinstance(value.get("lists"), dict):
            named = {
                name: {**spec, "deviation_type": name} if isinstance(spec, dict) else spec
                for name, spec in value["lists"].items()
            }
            return {**value, "lists": named}
        return value


class ScoringConstants(BaseModel):
    """SI §3: every constant two conformant evaluators must agree on."""

    model_config = _FROZEN
    version: str = Field(pattern=SEMVER_PATTERN)
    profile_version: str
    identifier_matching: IdentifierMatching
    sentence_split: SentenceSplit
    steps: StepSemantics
    cooccurrence_windows: CooccurrenceWindows
    synonym_lists: SynonymLists


__all__ = [
    "SEMVER_PATTERN",
    "CooccurrenceWindow",
    "CooccurrenceWindows",
    "IdentifierMatching",
    "ScoringConstants",
    "SentenceSplit",
    "StepSemantics",
    "SynonymList",
    "SynonymLists",
]
