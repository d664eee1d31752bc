"""The basic final-state scorer of pilot 03 (pilot §7 "basic scorer scope", §10, §13).

`score_final_state(expected_csv, candidate_csv)` gives, for every input on which the published
`score_final_state.py` runs, the same JSON document, byte for byte: completeness, precision,
uniqueness, field accuracy and exact order of the confirmed register against the expected one,
the configuration errors, the diagnostic `Perf_shadow_final_state` product and `scorer_pass`.
`pilot_pass` is always null: only the external checks of §7 can set it.

The difference is how: the files are streamed side by side (`_score_final_join`), never loaded
as one dict per row, and where the published script crashes (a missing, unreadable or non-UTF-8
file, a field over the csv size limit) a one-line `ProvebenchError` names the file instead.
The published script's quirks are kept on purpose; `docs/score-final.md` lists them.
"""

from __future__ import annotations

import csv
import gc
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from provebench._errors import ProvebenchError
from provebench.pilot import _score_final_keyed as _keyed
from provebench.pilot._score_final_csv import PUBLISHED_FIELD_SIZE_LIMIT, Batch, CsvRecordStream
from provebench.pilot._score_final_halves import join_in_halves
from provebench.pilot._score_final_join import LockstepJoin, TooManyUnpaired
from provebench.pilot._score_final_keyed import KeyedJoin
from provebench.pilot._score_final_layout import RowLayout
from provebench.pilot._score_final_repeats import recount_repeated_ids

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
    expected_csv: str | Path, candidate_csv: str | Path, *, chunk_bytes: int | None = None
) -> FinalStateScore:
    """Score a candidate register against the expected one (pilot §7, final state only).

    `chunk_bytes` is the read size (default 4 MiB); it never changes the result, and tests make
    it tiny so that records, quoted fields and look-ahead cross piece boundaries.
    """
    previous_limit = csv.field_size_limit(PUBLISHED_FIELD_SIZE_LIMIT)
    collecting = gc.isenabled()
    gc.disable()  # millions of short-lived lists, no cycles: the collector only costs time here
    try:
        sizes = {} if chunk_bytes is None else {"chunk_bytes": chunk_bytes}
        # Two cores when the files are large; one pass when the halves cannot give the exact
        # result (or on bad input, which one pass names exactly).
        join: LockstepJoin | KeyedJoin | None = None
        if _keyed.looks_unordered(expected_csv, candidate_csv):
            # A candidate in another order: the lockstep pass would give up (see below).
            join = _keyed.keyed_join(expected_csv, candidate_csv, sizes)
        else:
            join = join_in_halves(expected_csv, candidate_csv, sizes)
        if join is None:
            try:
                join = _one_pass(
                    expected_csv,
                    candidate_csv,
                    chunk_bytes,
                    (_keyed.SWITCH_UNPAIRED, _keyed.SWITCH_SHARE),
                )
            except TooManyUnpaired:
                # An unordered candidate: the lockstep pass would hold nearly every row
                # unpaired. A keyed join from the start (it reads with the same record stream,
                # so bad input is named the same way, the expected file first).
                join = _keyed.keyed_join(expected_csv, candidate_csv, sizes)
        fields_matched, fields_total = join.fields_matched, join.fields_total
        if isinstance(join, LockstepJoin) and (join.expected_repeats or join.candidate_repeats):
            # Pairing rows by id is "last row wins" only without repeats: recount the fields of
            # the repeated ids from their last rows.
            fields_matched, fields_total = recount_repeated_ids(
                join, expected_csv, candidate_csv, sizes
            )
    finally:
        csv.field_size_limit(previous_limit)
        if collecting:
            gc.enable()
    return _score(join, fields_matched, fields_total)


def _score(
    join: LockstepJoin | KeyedJoin, fields_matched: int, fields_total: int
) -> FinalStateScore:
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
    field_accuracy = fields_matched / fields_total if fields_total else 0.0
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


class _CandidateFailure(Exception):
    """A candidate-file error, held back until the expected file is known to be readable."""

    def __init__(self, error: ProvebenchError) -> None:
        super().__init__(error.message)
        self.error = error


def _candidate_batches(stream: CsvRecordStream) -> Iterator[Batch]:
    try:
        yield from stream.batches()
    except ProvebenchError as error:
        raise _CandidateFailure(error) from None


def _one_pass(
    expected_csv: str | Path,
    candidate_csv: str | Path,
    chunk_bytes: int | None,
    switch_at: tuple[float, float],
) -> LockstepJoin:
    sizes = {} if chunk_bytes is None else {"chunk_bytes": chunk_bytes}
    # The published script reads the whole expected file before it opens the candidate, so when
    # both are bad, the expected file is the one to name.
    with CsvRecordStream(expected_csv, **sizes) as expected:
        expected_batches = expected.batches()
        try:
            try:
                candidate = CsvRecordStream(candidate_csv, **sizes)
            except ProvebenchError as error:
                raise _CandidateFailure(error) from None
            with candidate:
                join = LockstepJoin(RowLayout(expected.header), RowLayout(candidate.header))
                join.unpaired_limit, join.unpaired_share = switch_at
                join.run(expected_batches, _candidate_batches(candidate))
        except _CandidateFailure as failure:
            for _ in expected_batches:
                pass
            raise failure.error from None
    return join


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
    "print_final_score",
    "score_final_state",
]
