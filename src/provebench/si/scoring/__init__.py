"""Scoring a scenario from evidence (SI §4, §5): evaluating the bound decision table, the
verdict and its explanation, and `si score`'s file-level entry points.
"""

from __future__ import annotations

from provebench.si.scoring._evaluate import (
    evaluate,
    evaluate_bound,
    render_predicate,
)
from provebench.si.scoring._explain import (
    render_explanation,
)
from provebench.si.scoring._score import (
    EXAMPLES_DIR,
    example_evidence,
    score_files,
    select_scenario,
)
from provebench.si.scoring._verdict import (
    NON_SCORING_NOTE,
    InputHashes,
    MatchedRow,
    NonScoringMetadata,
    PrimitiveEvaluation,
    ScenarioRef,
    Verdict,
    VerdictVersions,
)

__all__ = [
    "EXAMPLES_DIR",
    "NON_SCORING_NOTE",
    "InputHashes",
    "MatchedRow",
    "NonScoringMetadata",
    "PrimitiveEvaluation",
    "ScenarioRef",
    "Verdict",
    "VerdictVersions",
    "evaluate",
    "evaluate_bound",
    "example_evidence",
    "render_explanation",
    "render_predicate",
    "score_files",
    "select_scenario",
]
