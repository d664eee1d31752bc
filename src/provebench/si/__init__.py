"""provebench.si: the OASIS Software Infrastructure profile — scenarios, registry, scoring."""

from provebench.si._binding import (
    BoundFactor,
    BoundScoring,
    ScoringVersions,
    bind_scoring,
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
from provebench.si._scenario import Deviation, FormBScoring, Injection, Scenario
from provebench.si._validate import ValidationReport, load_scenarios, validate_paths
from provebench.si._violations import Violation

__all__ = [
    "All",
    "Any_",
    "BoundFactor",
    "BoundScoring",
    "Call",
    "CooccurrenceWindow",
    "DecisionTable",
    "Deviation",
    "FormBScoring",
    "Injection",
    "Lit",
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
    "Violation",
    "bind_scoring",
    "constants",
    "cooccurrence_window",
    "load_scenarios",
    "profile",
    "registry",
    "synonyms_for",
    "template",
    "templates",
    "validate_paths",
]
