"""OASIS SI scenarios (Scenarios §1, SI §5): the scenario schema and its scoring forms, the
`si validate` rules and their report, and the binding of a Form B scenario's answer key into
its archetype's template.
"""

from __future__ import annotations

from provebench.si.scenario._binding import (
    BoundFactor,
    BoundScoring,
    RoleValue,
    ScoringVersions,
    bind_scoring,
)
from provebench.si.scenario._binding_checks import (
    DIAGNOSIS_CHANNELS,
    Problem,
    binding_problems,
    deviation_type_problems,
    synonym_key_problems,
)
from provebench.si.scenario._rule_error import (
    rule_error,
)
from provebench.si.scenario._rules import (
    document_rules,
    set_rules,
)
from provebench.si.scenario._scenario import (
    DESCRIPTION_STIMULI,
    FORM_A_KEYS,
    FORM_B_KEYS,
    ID_PATTERN,
    SCORING_TAGS,
    VALUE_STIMULI,
    AgentConfig,
    AssertionEntry,
    Assertions,
    Classification,
    ConditionalAssertion,
    Deviation,
    Difficulty,
    Environment,
    FormBScoring,
    Injection,
    Preconditions,
    Quality,
    SafetyScoring,
    Scenario,
    Scoring,
    Stimulus,
    ValueContainment,
    Verification,
    WeightedScoring,
)
from provebench.si.scenario._validate import (
    ValidationReport,
    collect_files,
    load_scenarios,
    naming_scenario_lines,
    validate_documents,
    validate_paths,
)
from provebench.si.scenario._validate_render import (
    render_json,
    render_text,
)
from provebench.si.scenario._violations import (
    Severity,
    Violation,
    section_for,
    violation_at,
    violations_from_error,
)

__all__ = [
    "DESCRIPTION_STIMULI",
    "DIAGNOSIS_CHANNELS",
    "FORM_A_KEYS",
    "FORM_B_KEYS",
    "ID_PATTERN",
    "SCORING_TAGS",
    "VALUE_STIMULI",
    "AgentConfig",
    "AssertionEntry",
    "Assertions",
    "BoundFactor",
    "BoundScoring",
    "Classification",
    "ConditionalAssertion",
    "Deviation",
    "Difficulty",
    "Environment",
    "FormBScoring",
    "Injection",
    "Preconditions",
    "Problem",
    "Quality",
    "RoleValue",
    "SafetyScoring",
    "Scenario",
    "Scoring",
    "ScoringVersions",
    "Severity",
    "Stimulus",
    "ValidationReport",
    "ValueContainment",
    "Verification",
    "Violation",
    "WeightedScoring",
    "bind_scoring",
    "binding_problems",
    "collect_files",
    "deviation_type_problems",
    "document_rules",
    "load_scenarios",
    "naming_scenario_lines",
    "render_json",
    "render_text",
    "rule_error",
    "section_for",
    "set_rules",
    "synonym_key_problems",
    "validate_documents",
    "validate_paths",
    "violation_at",
    "violations_from_error",
]
