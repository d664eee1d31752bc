"""The SI primitives over a transcript's text (SI §2): identifier normalisation and matching,
tool-echo exclusion, the output channels in scope, and the registered primitives themselves
(`named_in_output`, `factor_identified`, `within_step_budget`).
"""

from __future__ import annotations

from provebench.si.primitives._echo import (
    EchoSource,
    echo_sources,
)
from provebench.si.primitives._matching import (
    TOKEN_CHARACTERS,
    ChannelText,
    Sentence,
    Span,
    delimited_occurrences,
    identifier_problem,
    literal_occurrences,
    validate_identifier,
    validate_identifier_set,
)
from provebench.si.primitives._normalize import (
    NormalizedText,
    comparison_key,
    normalize,
)
from provebench.si.primitives._primitives import (
    IMPLEMENTED_PRIMITIVES,
    REPORTED_LIMIT,
    Cooccurrence,
    ExcludedLine,
    Factor,
    FactorIdentifiedResult,
    FactorSummary,
    MatchLocation,
    NamedInOutputResult,
    PrimitiveResult,
    SynonymPhrases,
    Window,
    WithinStepBudgetResult,
    factor_identified,
    named_in_output,
    within_step_budget,
)
from provebench.si.primitives._scope import (
    EchoedLine,
    EvidenceView,
)

__all__ = [
    "IMPLEMENTED_PRIMITIVES",
    "REPORTED_LIMIT",
    "TOKEN_CHARACTERS",
    "ChannelText",
    "Cooccurrence",
    "EchoSource",
    "EchoedLine",
    "EvidenceView",
    "ExcludedLine",
    "Factor",
    "FactorIdentifiedResult",
    "FactorSummary",
    "MatchLocation",
    "NamedInOutputResult",
    "NormalizedText",
    "PrimitiveResult",
    "Sentence",
    "Span",
    "SynonymPhrases",
    "Window",
    "WithinStepBudgetResult",
    "comparison_key",
    "delimited_occurrences",
    "echo_sources",
    "factor_identified",
    "identifier_problem",
    "literal_occurrences",
    "named_in_output",
    "normalize",
    "validate_identifier",
    "validate_identifier_set",
    "within_step_budget",
]
