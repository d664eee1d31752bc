"""Self-test sets of the final-state scorer (pilot §10: "reference, defective and empty-on-empty
fail-closed sets for testing the scorer itself").

Each set is a directory with `expected.csv`, `candidate.csv` and `reason.json`; the shipped ones
are under `provebench/pilot/score_final/data/scorer_selftest/`:

* `reference/` — the candidate is the expected register; the scorer must pass;
* `defective/<name>/` — one defect each (missing, extra or duplicated row, wrong field, wrong
  order, empty file_id, no-op importer, renamed column, duplicate in the expected set);
* `empty_on_empty/` — both files empty: a configuration error, never a vacuous pass (pilot §7).

`reason.json` documents the outcome exactly: `scorer_pass`, the metrics that must fall below 1.0
(all others must be exactly 1.0) and the configuration errors, in order. A set agrees with its
documentation only when all three match.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from provebench._errors import ProvebenchError, validation_failure
from provebench.pilot.score_final._score import FinalStateScore, score_final_state

SELFTEST_ROOT = Path(__file__).resolve().parent / "data" / "scorer_selftest"
METRIC_NAMES = (
    "completeness",
    "precision",
    "uniqueness",
    "field_accuracy",
    "order_correctness",
)


class SelftestReason(BaseModel):
    """`reason.json`: why a set must score the way it does."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: str
    scorer_pass: bool
    metrics_below_one: tuple[str, ...]
    configuration_errors: tuple[str, ...]


class SelftestResult(BaseModel):
    """One self-test set: what its documentation says and what the scorer gave."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    reason: SelftestReason
    scorer_pass: bool
    metrics_below_one: tuple[str, ...]
    configuration_errors: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return (
            self.scorer_pass == self.reason.scorer_pass
            and self.metrics_below_one == self.reason.metrics_below_one
            and self.configuration_errors == self.reason.configuration_errors
        )


def metrics_below_one(score: FinalStateScore) -> tuple[str, ...]:
    """The metrics of a score that are not exactly 1.0, in the published order."""
    return tuple(name for name in METRIC_NAMES if getattr(score, name) != 1.0)


def selftest_sets(root: Path = SELFTEST_ROOT) -> list[Path]:
    """The set directories under `root`: reference, defective/*, empty_on_empty, by name."""
    sets = sorted(path.parent for path in root.rglob("reason.json"))
    if not sets:
        raise ProvebenchError("no self-test sets (no reason.json below this directory)", path=root)
    return sets


def load_reason(directory: Path) -> SelftestReason:
    path = directory / "reason.json"
    try:
        reason = SelftestReason.model_validate_json(path.read_bytes())
    except OSError as error:
        raise ProvebenchError(f"cannot read: {error.strerror}", path=path) from None
    except ValidationError as error:
        raise validation_failure(error, path=path) from None
    unknown = sorted(set(reason.metrics_below_one) - set(METRIC_NAMES))
    if unknown:
        raise ProvebenchError(
            f"unknown metric(s) {', '.join(unknown)}", path=path, field="metrics_below_one"
        )
    return reason


def run_selftest_set(directory: Path, root: Path = SELFTEST_ROOT) -> SelftestResult:
    reason = load_reason(directory)
    score = score_final_state(directory / "expected.csv", directory / "candidate.csv")
    return SelftestResult(
        name=directory.relative_to(root).as_posix(),
        reason=reason,
        scorer_pass=score.scorer_pass,
        metrics_below_one=metrics_below_one(score),
        configuration_errors=score.configuration_errors,
    )


def run_selftest(root: Path = SELFTEST_ROOT) -> list[SelftestResult]:
    """Score every self-test set under `root` against its documentation."""
    return [run_selftest_set(directory, root) for directory in selftest_sets(root)]


def selftest_table(results: list[SelftestResult]) -> str:
    """A plain-text table: set, documented and observed outcome, agreement."""
    rows = [("set", "scorer_pass", "metrics below 1.0", "configuration errors", "agrees")]
    for result in results:
        rows.append(
            (
                result.name,
                str(result.scorer_pass).lower(),
                ", ".join(result.metrics_below_one) or "-",
                "; ".join(result.configuration_errors) or "-",
                "yes" if result.agrees else "NO",
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    failed = [result.name for result in results if not result.agrees]
    summary = (
        f"{len(results)} sets, all agree with their reason.json"
        if not failed
        else f"{len(failed)} of {len(results)} sets disagree with their reason.json: "
        + ", ".join(failed)
    )
    return "\n".join([*lines, summary]) + "\n"


__all__ = [
    "METRIC_NAMES",
    "SELFTEST_ROOT",
    "SelftestReason",
    "SelftestResult",
    "load_reason",
    "metrics_below_one",
    "run_selftest",
    "run_selftest_set",
    "selftest_sets",
    "selftest_table",
]
