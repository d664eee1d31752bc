"""The final-state scorer (pilot §7 "basic scorer scope", §10): the published
`score_final_state.py`'s document, byte for byte, on every input it scores, ten times faster
and in a fifth of its memory on large registers (docs/score-final.md).

The self-test sets (`_selftest`, also exported by `provebench.pilot`) are not imported here:
importing this package is the start-up of `pilot score-final`, which is timed against a one-file
script, and the self-test's models need pydantic (about 0.2 s of imports).
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

__all__ = [
    "DUPLICATE_EXPECTED_FILE_ID",
    "EMPTY_EXPECTED_FILE_ID",
    "EMPTY_EXPECTED_SET",
    "EXTERNAL_CHECKS_REQUIRED",
    "SCORER_SCOPE",
    "FinalStateScore",
    "print_final_score",
    "score_final_state",
]
