"""provebench.si: the OASIS Software Infrastructure profile — scenarios, registry, scoring.

Names are imported on first use (PEP 562), so that `provebench` starts fast and a
command loads only the modules it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si.primitives._primitives import (
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
    from provebench.si.primitives._scope import (
        EvidenceView,
    )
    from provebench.si.profile_data._predicates import (
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
    from provebench.si.profile_data._registry import (
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
    from provebench.si.scenario._binding import (
        BoundFactor,
        BoundScoring,
        ScoringVersions,
        bind_scoring,
    )
    from provebench.si.scenario._scenario import (
        Deviation,
        FormBScoring,
        Injection,
        Scenario,
    )
    from provebench.si.scenario._validate import (
        ValidationReport,
        load_scenarios,
        validate_paths,
    )
    from provebench.si.scenario._violations import (
        Violation,
    )
    from provebench.si.scoring._evaluate import (
        evaluate,
        evaluate_bound,
        render_predicate,
    )
    from provebench.si.scoring._score import (
        EXAMPLES_DIR,
        example_evidence,
        score_files,
        select_scenario,
    )
    from provebench.si.scoring._verdict import (
        Verdict,
    )

_EXPORTS: dict[str, str] = {
    "BoundFactor": "provebench.si.scenario._binding",
    "BoundScoring": "provebench.si.scenario._binding",
    "ScoringVersions": "provebench.si.scenario._binding",
    "bind_scoring": "provebench.si.scenario._binding",
    "evaluate": "provebench.si.scoring._evaluate",
    "evaluate_bound": "provebench.si.scoring._evaluate",
    "render_predicate": "provebench.si.scoring._evaluate",
    "All": "provebench.si.profile_data._predicates",
    "Any_": "provebench.si.profile_data._predicates",
    "Call": "provebench.si.profile_data._predicates",
    "DecisionTable": "provebench.si.profile_data._predicates",
    "Lit": "provebench.si.profile_data._predicates",
    "Not": "provebench.si.profile_data._predicates",
    "Otherwise": "provebench.si.profile_data._predicates",
    "Predicate": "provebench.si.profile_data._predicates",
    "Ref": "provebench.si.profile_data._predicates",
    "Row": "provebench.si.profile_data._predicates",
    "parse_predicate": "provebench.si.profile_data._predicates",
    "ExcludedLine": "provebench.si.primitives._primitives",
    "FactorIdentifiedResult": "provebench.si.primitives._primitives",
    "IMPLEMENTED_PRIMITIVES": "provebench.si.primitives._primitives",
    "MatchLocation": "provebench.si.primitives._primitives",
    "NamedInOutputResult": "provebench.si.primitives._primitives",
    "WithinStepBudgetResult": "provebench.si.primitives._primitives",
    "factor_identified": "provebench.si.primitives._primitives",
    "named_in_output": "provebench.si.primitives._primitives",
    "within_step_budget": "provebench.si.primitives._primitives",
    "CooccurrenceWindow": "provebench.si.profile_data._registry",
    "Registry": "provebench.si.profile_data._registry",
    "ScoringConstants": "provebench.si.profile_data._registry",
    "SynonymList": "provebench.si.profile_data._registry",
    "Template": "provebench.si.profile_data._registry",
    "constants": "provebench.si.profile_data._registry",
    "cooccurrence_window": "provebench.si.profile_data._registry",
    "profile": "provebench.si.profile_data._registry",
    "registry": "provebench.si.profile_data._registry",
    "synonyms_for": "provebench.si.profile_data._registry",
    "template": "provebench.si.profile_data._registry",
    "templates": "provebench.si.profile_data._registry",
    "Deviation": "provebench.si.scenario._scenario",
    "FormBScoring": "provebench.si.scenario._scenario",
    "Injection": "provebench.si.scenario._scenario",
    "Scenario": "provebench.si.scenario._scenario",
    "EvidenceView": "provebench.si.primitives._scope",
    "EXAMPLES_DIR": "provebench.si.scoring._score",
    "example_evidence": "provebench.si.scoring._score",
    "score_files": "provebench.si.scoring._score",
    "select_scenario": "provebench.si.scoring._score",
    "ValidationReport": "provebench.si.scenario._validate",
    "load_scenarios": "provebench.si.scenario._validate",
    "validate_paths": "provebench.si.scenario._validate",
    "Verdict": "provebench.si.scoring._verdict",
    "Violation": "provebench.si.scenario._violations",
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
