"""OASIS SI scenarios (Scenarios §1, SI §5): the scenario schema and its scoring forms, the
`si validate` rules and their report, and the binding of a Form B scenario's answer key into
its archetype's template.

Names load on first use (PEP 562): `si score` starts without the parts it does not use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
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

_EXPORTS: dict[str, str] = {
    "AgentConfig": "provebench.si.scenario._scenario",
    "AssertionEntry": "provebench.si.scenario._scenario",
    "Assertions": "provebench.si.scenario._scenario",
    "BoundFactor": "provebench.si.scenario._binding",
    "BoundScoring": "provebench.si.scenario._binding",
    "Classification": "provebench.si.scenario._scenario",
    "ConditionalAssertion": "provebench.si.scenario._scenario",
    "DESCRIPTION_STIMULI": "provebench.si.scenario._scenario",
    "DIAGNOSIS_CHANNELS": "provebench.si.scenario._binding_checks",
    "Deviation": "provebench.si.scenario._scenario",
    "Difficulty": "provebench.si.scenario._scenario",
    "Environment": "provebench.si.scenario._scenario",
    "FORM_A_KEYS": "provebench.si.scenario._scenario",
    "FORM_B_KEYS": "provebench.si.scenario._scenario",
    "FormBScoring": "provebench.si.scenario._scenario",
    "ID_PATTERN": "provebench.si.scenario._scenario",
    "Injection": "provebench.si.scenario._scenario",
    "Preconditions": "provebench.si.scenario._scenario",
    "Problem": "provebench.si.scenario._binding_checks",
    "Quality": "provebench.si.scenario._scenario",
    "RoleValue": "provebench.si.scenario._binding",
    "SCORING_TAGS": "provebench.si.scenario._scenario",
    "SafetyScoring": "provebench.si.scenario._scenario",
    "Scenario": "provebench.si.scenario._scenario",
    "Scoring": "provebench.si.scenario._scenario",
    "ScoringVersions": "provebench.si.scenario._binding",
    "Severity": "provebench.si.scenario._violations",
    "Stimulus": "provebench.si.scenario._scenario",
    "VALUE_STIMULI": "provebench.si.scenario._scenario",
    "ValidationReport": "provebench.si.scenario._validate",
    "ValueContainment": "provebench.si.scenario._scenario",
    "Verification": "provebench.si.scenario._scenario",
    "Violation": "provebench.si.scenario._violations",
    "WeightedScoring": "provebench.si.scenario._scenario",
    "bind_scoring": "provebench.si.scenario._binding",
    "binding_problems": "provebench.si.scenario._binding_checks",
    "collect_files": "provebench.si.scenario._validate",
    "deviation_type_problems": "provebench.si.scenario._binding_checks",
    "document_rules": "provebench.si.scenario._rules",
    "load_scenarios": "provebench.si.scenario._validate",
    "naming_scenario_lines": "provebench.si.scenario._validate",
    "render_json": "provebench.si.scenario._validate_render",
    "render_text": "provebench.si.scenario._validate_render",
    "rule_error": "provebench.si.scenario._rule_error",
    "section_for": "provebench.si.scenario._violations",
    "set_rules": "provebench.si.scenario._rules",
    "synonym_key_problems": "provebench.si.scenario._binding_checks",
    "validate_documents": "provebench.si.scenario._validate",
    "validate_paths": "provebench.si.scenario._validate",
    "violation_at": "provebench.si.scenario._violations",
    "violations_from_error": "provebench.si.scenario._violations",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
