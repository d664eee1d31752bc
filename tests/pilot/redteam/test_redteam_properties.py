"""Properties of the evaluator under single mutations of a perfect final state (hypothesis), and
mutation tests of its duplicate and omission checks (pilot §7, §14).

A correct importer makes one mutation through the adapters — a dropped row, a duplicated row, a
changed field, a swapped pair, an extra row for a non-admissible file — and the evaluator must
lower the metric that mutation concerns and refuse the pass. The lab presents the register in the
published order (`register-order/1`), so a swapped append is invisible to the final-state scorer
(`scorer_pass` stays true, rightly); it is judged on the log, by order correctness.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from provebench.pilot import run_lab
from provebench.pilot.evaluate import Verdict, _core
from provebench.pilot.evaluate._metrics import compute_metrics
from provebench.pilot.evaluate._timeline import Timeline, build_timeline
from provebench.pilot.rules import REGISTER_COLUMNS
from tests.helpers import redteam_mutations as mutations
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

MUTATING = "tests.helpers.redteam_mutations:MutatingImporter"
METRIC_OF = {
    "drop": "completeness",
    "duplicate": "uniqueness",
    "change": "field_accuracy",
    "swap": "order_correctness",
    "extra": "precision",
}
CHANGEABLE = tuple(c for c in REGISTER_COLUMNS if c not in ("file_id", "status"))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("redteam-properties"), seed=1)


def expected_ids(corpus: Path) -> list[str]:
    with (corpus / "expected_final_rows.csv").open(encoding="utf-8", newline="") as handle:
        return [row["file_id"] for row in csv.DictReader(handle)]


def mutated_run(corpus: Path, mutation: mutations.Mutation, where: Path) -> Verdict:
    mutations.MUTATION = mutation
    mutations.APPLIED.clear()
    shutil.rmtree(where, ignore_errors=True)
    try:
        run_lab(corpus, MUTATING, where)
    finally:
        mutations.MUTATION = mutations.Mutation("none")
    return evaluate(where, corpus)


def assert_mutation_caught(verdict: Verdict, kind: str) -> None:
    """The core assertion: the mutation's metric is below 1 and no pass is given."""
    assert verdict.metrics is not None
    value = getattr(verdict.metrics.overall, METRIC_OF[kind]).value
    assert value < 1.0, f"{kind}: {METRIC_OF[kind]} stayed {value}"
    assert not verdict.laboratory_pass
    assert verdict.escrow is not None and verdict.escrow.released_total == 0.0
    if kind != "swap":
        assert not verdict.scorer_pass, f"{kind}: scorer_pass"


def test_the_unmutated_importer_is_perfect(corpus: Path) -> None:
    verdict = mutated_run(corpus, mutations.Mutation("none"), corpus.parent / "none")
    assert verdict.laboratory_pass and verdict.scorer_pass and verdict.metrics is not None
    overall = verdict.metrics.overall
    assert all(getattr(overall, name).value == 1.0 for name in type(overall).model_fields)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    kind=st.sampled_from(mutations.KINDS),
    index=st.integers(min_value=0, max_value=10_000),
    column=st.sampled_from(CHANGEABLE),
)
def test_any_single_mutation_is_caught(corpus: Path, kind: str, index: int, column: str) -> None:
    ids = expected_ids(corpus)
    mutation = mutations.Mutation(kind, ids[index % len(ids)], column)
    verdict = mutated_run(corpus, mutation, corpus.parent / "mutated")
    assume(kind in mutations.APPLIED)
    assert_mutation_caught(verdict, kind)


@pytest.mark.parametrize("kind", mutations.KINDS)
def test_every_mutation_kind_is_exercised(corpus: Path, kind: str) -> None:
    # The property above skips examples a corpus gives nothing to act on; each kind must act.
    mutation = mutations.Mutation(kind, expected_ids(corpus)[1], "phone")
    verdict = mutated_run(corpus, mutation, corpus.parent / f"each-{kind}")
    assert kind in mutations.APPLIED
    assert_mutation_caught(verdict, kind)


# -- mutation tests of the checks themselves ------------------------------------------------------


def _counts_distinct_ids(snapshot: Any, log: Any, work_names: Any = ()) -> Timeline:
    """A broken duplicate check: counts each confirmed file_id over the set of confirmed ids,
    i.e. compares the ids with themselves — nothing is ever confirmed twice."""
    timeline = build_timeline(snapshot, log, work_names)
    return dataclasses.replace(timeline, confirmed_count=Counter(set(timeline.confirmed_count)))


def _ignores_the_last_cycle(timeline: Timeline) -> Any:
    """A broken omission check: it walks the cycles but stops one early, taking completeness as
    judged at the last-but-one cycle — a file due in the last cycle is never missed."""
    report = compute_metrics(timeline)
    judged = report.per_cycle[-2].metrics.completeness
    overall = report.overall.model_copy(update={"completeness": judged})
    return report.model_copy(update={"overall": overall})


def _file_due_in_the_last_cycle(corpus: Path) -> str:
    """An admissible file added in the last-but-one cycle (due in the last: `due_cycle`)."""
    cycles = json.loads((corpus / "corpus.json").read_text(encoding="utf-8"))["config"]["sizes"][
        "cycles"
    ]
    expected = set(expected_ids(corpus))
    with (corpus / "drive_events.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            event = json.loads(line)
            if (
                event["kind"] == "file_added"
                and event["cycle"] == cycles - 1
                and event["file"]["file_id"] in expected
            ):
                return str(event["file"]["file_id"])
    raise AssertionError("the corpus adds no admissible file in its last-but-one cycle")


def test_a_broken_duplicate_check_fails_the_property(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutation = mutations.Mutation("duplicate", expected_ids(corpus)[0])
    assert_mutation_caught(mutated_run(corpus, mutation, corpus.parent / "dup"), "duplicate")
    monkeypatch.setattr(_core, "build_timeline", _counts_distinct_ids)
    with pytest.raises(AssertionError, match=r"uniqueness stayed 1\.0"):
        assert_mutation_caught(evaluate(corpus.parent / "dup", corpus), "duplicate")


def test_a_broken_omission_check_fails_the_property(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mutation = mutations.Mutation("drop", _file_due_in_the_last_cycle(corpus))
    assert_mutation_caught(mutated_run(corpus, mutation, corpus.parent / "drop"), "drop")
    monkeypatch.setattr(_core, "compute_metrics", _ignores_the_last_cycle)
    with pytest.raises(AssertionError, match=r"completeness stayed 1\.0"):
        assert_mutation_caught(evaluate(corpus.parent / "drop", corpus), "drop")
