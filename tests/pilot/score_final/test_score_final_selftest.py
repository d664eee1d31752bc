"""The scorer self-test sets of pilot §10: shipped data, documented outcomes, `--selftest`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.pilot import run_selftest, score_final_state
from provebench.pilot.score_final._selftest import (
    SELFTEST_ROOT,
    load_reason,
    metrics_below_one,
    selftest_sets,
)
from tests.helpers.published_scorer import PublishedScorerWorker

SET_NAMES = [path.relative_to(SELFTEST_ROOT).as_posix() for path in selftest_sets()]


def test_the_shipped_sets_are_the_ones_pilot_10_asks_for() -> None:
    assert "reference" in SET_NAMES
    assert "empty_on_empty" in SET_NAMES
    defective = {name.removeprefix("defective/") for name in SET_NAMES if "defective/" in name}
    assert {
        "missing_row",
        "extra_row",
        "duplicate_row",
        "wrong_field",
        "wrong_order",
        "empty_file_id",
    } <= defective


@pytest.mark.parametrize("name", SET_NAMES)
def test_set_scores_as_documented_by_ours_and_the_published_script(
    published: PublishedScorerWorker, name: str
) -> None:
    directory = SELFTEST_ROOT / name
    reason = load_reason(directory)
    expected, candidate = directory / "expected.csv", directory / "candidate.csv"
    ours = score_final_state(expected, candidate)
    reference = published.run(expected, candidate)
    assert reference.exit_code == 0
    assert ours.to_json().encode("utf-8") == reference.stdout
    document = json.loads(reference.stdout)
    assert document["scorer_pass"] is reason.scorer_pass
    assert tuple(document["configuration_errors"]) == reason.configuration_errors
    below = tuple(
        metric
        for metric in ("completeness", "precision", "uniqueness", "field_accuracy")
        if document[metric] != 1.0
    ) + (("order_correctness",) if document["order_correctness"] != 1.0 else ())
    assert below == reason.metrics_below_one == metrics_below_one(ours)
    if name.startswith("defective/") or name == "empty_on_empty":
        assert reason.scorer_pass is False
    if name == "reference":
        assert reason.scorer_pass is True


def test_cli_selftest_prints_the_table_and_exits_zero() -> None:
    result = CliRunner().invoke(app, ["pilot", "score-final", "--selftest"])
    assert result.exit_code == 0, result.output
    for name in SET_NAMES:
        assert name in result.output
    assert f"{len(SET_NAMES)} sets, all agree" in result.output


def _copy_sets(tmp_path: Path) -> Path:
    root = tmp_path / "sets"
    shutil.copytree(SELFTEST_ROOT, root)
    return root


def test_a_set_whose_outcome_differs_from_its_documentation_is_reported(tmp_path: Path) -> None:
    root = _copy_sets(tmp_path)
    # Make the missing-row defect disappear: the candidate now equals the expected register.
    shutil.copy(root / "reference" / "candidate.csv", root / "defective/missing_row/candidate.csv")
    results = {result.name: result for result in run_selftest(root)}
    assert not results["defective/missing_row"].agrees
    assert all(result.agrees for name, result in results.items() if name != "defective/missing_row")


def test_cli_selftest_exits_one_when_a_set_disagrees(tmp_path: Path) -> None:
    root = _copy_sets(tmp_path)
    reason_path = root / "defective/wrong_order/reason.json"
    reason = json.loads(reason_path.read_text(encoding="utf-8"))
    reason["metrics_below_one"] = []  # documentation now claims the wrong order goes unnoticed
    reason_path.write_text(json.dumps(reason), encoding="utf-8")
    result = CliRunner().invoke(app, ["pilot", "score-final", "--selftest", "--sets", str(root)])
    assert result.exit_code == 1
    assert "defective/wrong_order" in result.output and "NO" in result.output
    assert "1 of" in result.output


def test_a_malformed_reason_file_is_a_configuration_error(tmp_path: Path) -> None:
    root = _copy_sets(tmp_path)
    (root / "reference/reason.json").write_text('{"reason": "x", "scorer_pass": "maybe"}')
    with pytest.raises(ProvebenchError, match=r"reason\.json"):
        run_selftest(root)


def test_an_unknown_metric_in_a_reason_file_is_refused(tmp_path: Path) -> None:
    root = _copy_sets(tmp_path)
    path = root / "reference/reason.json"
    reason = json.loads(path.read_text(encoding="utf-8"))
    reason["metrics_below_one"] = ["recall"]
    path.write_text(json.dumps(reason), encoding="utf-8")
    with pytest.raises(ProvebenchError, match="unknown metric"):
        run_selftest(root)


def test_no_sets_is_an_error_not_a_pass(tmp_path: Path) -> None:
    with pytest.raises(ProvebenchError, match="no self-test sets"):
        run_selftest(tmp_path)
