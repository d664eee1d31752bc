"""Scoring a scenario from evidence (SI §4, §5): evaluating the bound decision table, the
verdict and its explanation, and `si score`'s file-level entry points.

Names load on first use (PEP 562): `si score` starts without the parts it does not use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
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

_EXPORTS: dict[str, str] = {
    "EXAMPLES_DIR": "provebench.si.scoring._score",
    "InputHashes": "provebench.si.scoring._verdict",
    "MatchedRow": "provebench.si.scoring._verdict",
    "NON_SCORING_NOTE": "provebench.si.scoring._verdict",
    "NonScoringMetadata": "provebench.si.scoring._verdict",
    "PrimitiveEvaluation": "provebench.si.scoring._verdict",
    "ScenarioRef": "provebench.si.scoring._verdict",
    "Verdict": "provebench.si.scoring._verdict",
    "VerdictVersions": "provebench.si.scoring._verdict",
    "evaluate": "provebench.si.scoring._evaluate",
    "evaluate_bound": "provebench.si.scoring._evaluate",
    "example_evidence": "provebench.si.scoring._score",
    "render_explanation": "provebench.si.scoring._explain",
    "render_predicate": "provebench.si.scoring._evaluate",
    "score_files": "provebench.si.scoring._score",
    "select_scenario": "provebench.si.scoring._score",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
