"""provebench.si: the OASIS Software Infrastructure profile — scenarios, registry, scoring.

Names are imported on first use (PEP 562), so that `provebench` starts fast and a
command loads only the modules it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si._binding import (
        BoundFactor,
        BoundScoring,
        ScoringVersions,
        bind_scoring,
    )
    from provebench.si._evaluate import (
        evaluate,
        evaluate_bound,
        render_predicate,
    )
    from provebench.si._predicates import (
        All,
        Any_,
        Call,
        DecisionTable,
        Lit,
        Not,
        Otherwise,
        Predicate,
        Ref,
        Row,
        parse_predicate,
    )
    from provebench.si._primitives import (
        IMPLEMENTED_PRIMITIVES,
        ExcludedLine,
        FactorIdentifiedResult,
        MatchLocation,
        NamedInOutputResult,
        WithinStepBudgetResult,
        factor_identified,
        named_in_output,
        within_step_budget,
    )
    from provebench.si._registry import (
        CooccurrenceWindow,
        Registry,
        ScoringConstants,
        SynonymList,
        Template,
        constants,
        cooccurrence_window,
        profile,
        registry,
        synonyms_for,
        template,
        templates,
    )
    from provebench.si._scenario import (
        Deviation,
        FormBScoring,
        Injection,
        Scenario,
    )
    from provebench.si._scope import (
        EvidenceView,
    )
    from provebench.si._score import (
        EXAMPLES_DIR,
        example_evidence,
        score_files,
        select_scenario,
    )
    from provebench.si._validate import (
        ValidationReport,
        load_scenarios,
        validate_paths,
    )
    from provebench.si._verdict import (
        Verdict,
    )
    from provebench.si._violations import (
        Violation,
    )

_EXPORTS: dict[str, str] = {
    "BoundFactor": "provebench.si._binding",
    "BoundScoring": "provebench.si._binding",
    "ScoringVersions": "provebench.si._binding",
    "bind_scoring": "provebench.si._binding",
    "evaluate": "provebench.si._evaluate",
    "evaluate_bound": "provebench.si._evaluate",
    "render_predicate": "provebench.si._evaluate",
    "All": "provebench.si._predicates",
    "Any_": "provebench.si._predicates",
    "Call": "provebench.si._predicates",
    "DecisionTable": "provebench.si._predicates",
    "Lit": "provebench.si._predicates",
    "Not": "provebench.si._predicates",
    "Otherwise": "provebench.si._predicates",
    "Predicate": "provebench.si._predicates",
    "Ref": "provebench.si._predicates",
    "Row": "provebench.si._predicates",
    "parse_predicate": "provebench.si._predicates",
    "ExcludedLine": "provebench.si._primitives",
    "FactorIdentifiedResult": "provebench.si._primitives",
    "IMPLEMENTED_PRIMITIVES": "provebench.si._primitives",
    "MatchLocation": "provebench.si._primitives",
    "NamedInOutputResult": "provebench.si._primitives",
    "WithinStepBudgetResult": "provebench.si._primitives",
    "factor_identified": "provebench.si._primitives",
    "named_in_output": "provebench.si._primitives",
    "within_step_budget": "provebench.si._primitives",
    "CooccurrenceWindow": "provebench.si._registry",
    "Registry": "provebench.si._registry",
    "ScoringConstants": "provebench.si._registry",
    "SynonymList": "provebench.si._registry",
    "Template": "provebench.si._registry",
    "constants": "provebench.si._registry",
    "cooccurrence_window": "provebench.si._registry",
    "profile": "provebench.si._registry",
    "registry": "provebench.si._registry",
    "synonyms_for": "provebench.si._registry",
    "template": "provebench.si._registry",
    "templates": "provebench.si._registry",
    "Deviation": "provebench.si._scenario",
    "FormBScoring": "provebench.si._scenario",
    "Injection": "provebench.si._scenario",
    "Scenario": "provebench.si._scenario",
    "EvidenceView": "provebench.si._scope",
    "EXAMPLES_DIR": "provebench.si._score",
    "example_evidence": "provebench.si._score",
    "score_files": "provebench.si._score",
    "select_scenario": "provebench.si._score",
    "ValidationReport": "provebench.si._validate",
    "load_scenarios": "provebench.si._validate",
    "validate_paths": "provebench.si._validate",
    "Verdict": "provebench.si._verdict",
    "Violation": "provebench.si._violations",
}


__all__ = [
    "EXAMPLES_DIR",
    "IMPLEMENTED_PRIMITIVES",
    "All",
    "Any_",
    "BoundFactor",
    "BoundScoring",
    "Call",
    "CooccurrenceWindow",
    "DecisionTable",
    "Deviation",
    "EvidenceView",
    "ExcludedLine",
    "FactorIdentifiedResult",
    "FormBScoring",
    "Injection",
    "Lit",
    "MatchLocation",
    "NamedInOutputResult",
    "Not",
    "Otherwise",
    "Predicate",
    "Ref",
    "Registry",
    "Row",
    "Scenario",
    "ScoringConstants",
    "ScoringVersions",
    "SynonymList",
    "Template",
    "ValidationReport",
    "Verdict",
    "Violation",
    "WithinStepBudgetResult",
    "bind_scoring",
    "constants",
    "cooccurrence_window",
    "evaluate",
    "evaluate_bound",
    "example_evidence",
    "factor_identified",
    "load_scenarios",
    "named_in_output",
    "parse_predicate",
    "profile",
    "registry",
    "render_predicate",
    "score_files",
    "select_scenario",
    "synonyms_for",
    "template",
    "templates",
    "validate_paths",
    "within_step_budget",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
