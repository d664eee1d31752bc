"""The basic final-state scorer of pilot 03 (pilot §7 "basic scorer scope", §10, §13).

`score_final_state(expected_csv, candidate_csv)` gives, for every input on which the published
`score_final_state.py` runs, the same JSON document, byte for byte: completeness, precision,
uniqueness, field accuracy and exact order of the confirmed register against the expected one,
the configuration errors, the diagnostic `Perf_shadow_final_state` product and `scorer_pass`.
`pilot_pass` is always null: only the external checks of §7 can set it.

The difference is how. Two plain registers (one header of distinct names holding `file_id`,
every record one line as wide as it: what a laboratory writes) are paired by id without a dict
per row, in compiled code and, on large files, in two processes (`_score_final_idjoin`). Any
other pair of files is read the published way, a dict per row (`_score_final_published`). Both
read through one record stream (`_score_final_csv`), so where the published script crashes (a
missing, unreadable or non-UTF-8 file, a field over the csv size limit) a one-line
`ProvebenchError` names the file instead. The published script's quirks are kept on purpose;
`docs/score-final.md` lists them.
"""

from __future__ import annotations

import csv
import json
import sys
from typing import NamedTuple

from provebench._collector import paused_collection
from provebench.pilot.score_final._counts import KeyedJoin
from provebench.pilot.score_final._csv import PUBLISHED_FIELD_SIZE_LIMIT, CsvSource, HeldCsv
from provebench.pilot.score_final._idjoin import id_join
from provebench.pilot.score_final._published import published_join

# Texts and order of the published document (pilot §7: scope of the basic scorer; §13: no pilot
# PASS from this scorer).
SCORER_SCOPE = (
    "final-state completeness, precision, uniqueness, field accuracy and exact published order "
    "only; excludes recovery, error honesty, cycle stability, external log completeness, rights "
    "isolation, evaluator-injection isolation, fresh hidden control, escrow and red-team"
)
EXTERNAL_CHECKS_REQUIRED = (
    "recovery",
    "error_honesty",
    "cycle_stability",
    "event_log_completeness",
    "write_access_isolation",
    "evaluator_injection_isolation",
    "fresh_hidden_control",
    "escrow_observation",
    "red_team",
)
EMPTY_EXPECTED_SET = "expected set is empty"
EMPTY_EXPECTED_FILE_ID = "expected set contains an empty file_id"
DUPLICATE_EXPECTED_FILE_ID = "expected set contains duplicate file_id values"
_PASS_TOLERANCE = 1e-12


class FinalStateScore(NamedTuple):
    """The published document's values. (A named tuple, not a pydantic model or a dataclass:
    this is on the start-up path of a command that is timed against a one-file script, and the
    dataclasses module alone loads `inspect`, ≈13 ms.)"""

    completeness: float
    precision: float
    uniqueness: float
    field_accuracy: float
    order_correctness: float
    configuration_errors: tuple[str, ...]
    perf_shadow_final_state: float
    scorer_pass: bool

    def document(self) -> dict[str, object]:
        """The published JSON object, keys in the published order."""
        return {
            "scorer_scope": SCORER_SCOPE,
            "completeness": self.completeness,
            "precision": self.precision,
            "uniqueness": self.uniqueness,
            "field_accuracy": self.field_accuracy,
            "order_correctness": self.order_correctness,
            "configuration_errors": list(self.configuration_errors),
            "Perf_shadow_final_state": self.perf_shadow_final_state,
            "scorer_pass": self.scorer_pass,
            "pilot_pass": None,
            "external_checks_required": list(EXTERNAL_CHECKS_REQUIRED),
        }

    def to_json(self) -> str:
        """The exact text the published script prints (`print(json.dumps(..., indent=2))`)."""
        return json.dumps(self.document(), ensure_ascii=False, indent=2) + "\n"


def score_final_state(
    expected_csv: CsvSource, candidate_csv: CsvSource, *, chunk_bytes: int | None = None
) -> FinalStateScore:
    """Score a candidate register against the expected one (pilot §7, final state only).

    Each side is a file by path (the `score-final` command: each opened and read front to
    back) or a `HeldCsv`, bytes the caller read once and checked: the evaluator scores only
    those, never a file opened again by path (red team round 12, A1/A6).

    `chunk_bytes` is the read size; it never changes the result, and tests make it tiny so that
    records, quoted fields and look-ahead cross piece boundaries.
    """
    previous_limit = csv.field_size_limit(PUBLISHED_FIELD_SIZE_LIMIT)
    try:
        sizes = {} if chunk_bytes is None else {"chunk_bytes": chunk_bytes}
        with paused_collection():  # millions of rows, no reference cycles
            join = id_join(expected_csv, candidate_csv, sizes)
            if join is None:  # not two plain registers: the published script's own reading
                join = published_join(expected_csv, candidate_csv, sizes)
    finally:
        csv.field_size_limit(previous_limit)
    return _score(join)


def _score(join: KeyedJoin) -> FinalStateScore:
    # Same expressions as the published script, so that every float has the same bits.
    configuration_errors: list[str] = []
    if not join.expected_rows:
        configuration_errors.append(EMPTY_EXPECTED_SET)
    if join.expected_none_ids or join.expected_empty_ids:
        configuration_errors.append(EMPTY_EXPECTED_FILE_ID)
    if join.expected_repeats or join.expected_none_ids > 1 or join.expected_empty_ids > 1:
        # len({r.get('file_id') for r in e}) != len(e): None and '' count as ids here.
        configuration_errors.append(DUPLICATE_EXPECTED_FILE_ID)
    completeness = join.in_both / join.expected_distinct if join.expected_distinct else 0.0
    precision = join.in_both / join.candidate_distinct if join.candidate_distinct else 0.0
    unique = not join.candidate_repeats and not join.candidate_falsy_ids
    field_accuracy = join.fields_matched / join.fields_total if join.fields_total else 0.0
    order = (
        join.order_ok and join.expected_rows == join.candidate_rows if join.expected_rows else False
    )
    uniqueness = 1.0 if unique else 0.0
    order_correctness = 1.0 if order else 0.0
    metrics = [completeness, precision, uniqueness, field_accuracy, order_correctness]
    scorer_pass = (
        all(abs(value - 1.0) < _PASS_TOLERANCE for value in metrics) and not configuration_errors
    )
    return FinalStateScore(
        completeness=completeness,
        precision=precision,
        uniqueness=uniqueness,
        field_accuracy=field_accuracy,
        order_correctness=order_correctness,
        configuration_errors=tuple(configuration_errors),
        perf_shadow_final_state=completeness
        * precision
        * uniqueness
        * field_accuracy
        * order_correctness,
        scorer_pass=scorer_pass,
    )


def print_final_score(expected: str, candidate: str) -> None:
    """The published scorer's document on stdout: what both roads of `pilot score-final` (the
    console script's plain road and the command line) print."""
    sys.stdout.write(score_final_state(expected, candidate).to_json())
    sys.stdout.flush()


__all__ = [
    "DUPLICATE_EXPECTED_FILE_ID",
    "EMPTY_EXPECTED_FILE_ID",
    "EMPTY_EXPECTED_SET",
    "EXTERNAL_CHECKS_REQUIRED",
    "SCORER_SCOPE",
    "FinalStateScore",
    "HeldCsv",
    "print_final_score",
    "score_final_state",
]
