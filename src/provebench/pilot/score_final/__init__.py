"""The final-state scorer (pilot §7 "basic scorer scope", §10): the published
`score_final_state.py`'s document, byte for byte, on every input it scores, ten times faster
and in a fifth of its memory on large registers (docs/score-final.md), and its self-test sets.
"""

from __future__ import annotations

from provebench.pilot.score_final._score import (
    DUPLICATE_EXPECTED_FILE_ID,
    EMPTY_EXPECTED_FILE_ID,
    EMPTY_EXPECTED_SET,
    EXTERNAL_CHECKS_REQUIRED,
    SCORER_SCOPE,
    FinalStateScore,
    print_final_score,
    score_final_state,
)
from provebench.pilot.score_final._selftest import (
    METRIC_NAMES,
    SELFTEST_ROOT,
    SelftestReason,
    SelftestResult,
    load_reason,
    metrics_below_one,
    run_selftest,
    run_selftest_set,
    selftest_sets,
    selftest_table,
)

__all__ = [
    "DUPLICATE_EXPECTED_FILE_ID",
    "EMPTY_EXPECTED_FILE_ID",
    "EMPTY_EXPECTED_SET",
    "EXTERNAL_CHECKS_REQUIRED",
    "METRIC_NAMES",
    "SCORER_SCOPE",
    "SELFTEST_ROOT",
    "FinalStateScore",
    "SelftestReason",
    "SelftestResult",
    "load_reason",
    "metrics_below_one",
    "print_final_score",
    "run_selftest",
    "run_selftest_set",
    "score_final_state",
    "selftest_sets",
    "selftest_table",
]
