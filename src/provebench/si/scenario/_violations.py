"""Violations found by ``si validate``, and the translation of pydantic errors into them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from provebench._yaml import FieldPath, YamlDocument, format_field, parse_field
from provebench.si.profile_data._predicates import PREDICATE_TAGS
from provebench.si.scenario._scoring_forms import FORM_A_KEYS, SCORING_TAGS

Severity = Literal["error", "warning"]
_TAGS = PREDICATE_TAGS | SCORING_TAGS

# Where each top-level field is defined (Scenarios §1 unless noted).
_SECTIONS = {
    "quality": "Scenarios §1.2",
    "preconditions": "Scenarios §1.3",
    "stimuli": "Scenarios §1.4",
    "assertions": "Scenarios §1.5",
    "verification": "Scenarios §1.6",
    "scoring": "Scenarios §1.7",
    "observability_requirements": "Scenarios §1.8",
    "applicability": "Scenarios §1.9",
    "injection": "SI §2.2",
}


class Violation(BaseModel):
    """One problem in one scenario file: where, what, and which rule it breaks."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    file: str
    line: int
    field: str
    message: str
    rule: str
    severity: Severity = "error"

    def one_line(self) -> str:
        text = f"{self.file}:{self.line}: {self.field or '(document)'}: {self.message}"
        text = f"{text} [{self.rule}]" + (" (warning)" if self.severity == "warning" else "")
        return text.replace("\r", "\\r").replace("\n", "\\n")


def section_for(path: FieldPath) -> str:
    """The spec section that defines the field at ``path``."""
    if not path:
        return "Scenarios §1"
    head = path[0]
    if head == "assertions" and "conditional" in path:
        return "Scenarios §1.10"
    if head == "scoring" and len(path) > 1 and path[1] not in FORM_A_KEYS:
        return "SI §1.3"
    return _SECTIONS.get(str(head), "Scenarios §1.1")


def violation_at(
    document: YamlDocument,
    path: FieldPath,
    message: str,
    rule: str | None = None,
    severity: Severity = "error",
) -> Violation:
    return Violation(
        file=document.path,
        line=document.line_of(path),
        field=format_field(path),
        message=message,
        rule=rule or section_for(path),
        severity=severity,
    )


def _real_path(loc: tuple[Any, ...], context: dict[str, Any] | None) -> FieldPath:
    """A pydantic ``loc`` as a YAML field path: union tags dropped, rule sub-fields appended."""
    path: FieldPath = tuple(
        part
        for part in loc
        if isinstance(part, int) or (isinstance(part, str) and part not in _TAGS)
    )
    if context and isinstance(context.get("at"), str):
        path = (*path, *parse_field(context["at"]))
    return path


def _message(kind: str, loc: tuple[Any, ...], path: FieldPath, raw: str, context: Any) -> str:
    if kind == "scenario_rule":
        return str(context["message"])
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        if "form:b" in loc and path[-1] in FORM_A_KEYS:
            return (
                f"a Form B scoring block (archetype_template / decision_table) declares no "
                f"scoring.{path[-1]}; declaring both forms is an error"
            )
        return "unknown field"
    if kind == "string_pattern_mismatch" and path == ("id",):
        return (
            "id does not follow {domain}.{classification}.{category_code}."
            "{archetype_code}-{sequence} (e.g. infra.capability.da.single-signal-diagnosis-001)"
        )
    if kind == "string_pattern_mismatch" and path == ("version",):
        return "version must be a semver version (e.g. 0.3.0)"
    return raw


def violations_from_error(document: YamlDocument, error: ValidationError) -> list[Violation]:
    """Every error of a pydantic validation, located in the YAML document."""
    found: list[Violation] = []
    for item in error.errors(include_url=False):
        loc = tuple(item["loc"])
        context = item.get("ctx")
        path = _real_path(loc, context)
        message = _message(item["type"], loc, path, item["msg"], context)
        rule = section_for(path)
        if item["type"] == "extra_forbidden" and "form:b" in loc and path[-1] in FORM_A_KEYS:
            rule = "SI §1.3"
        found.append(violation_at(document, path, message, rule))
    return found


__all__ = ["Severity", "Violation", "section_for", "violation_at", "violations_from_error"]
