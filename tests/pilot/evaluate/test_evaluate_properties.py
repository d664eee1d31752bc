"""Properties: a sabotaged row lowers exactly the metric it should; an attacker with the run
folder who edits the register cannot pass (pilot §7, §15)."""

from __future__ import annotations

import shutil
import sys
from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provebench.pilot.agents.defective import CorrectImporter
from provebench.pilot.agents.defective._base import Row
from provebench.pilot.evaluate import evaluate_run, exit_code
from tests.helpers.pilot_evaluation import make_small_corpus, rerecord, run_agent

_COLUMNS = ("direction", "manager_code", "phone", "duration_sec", "source_link")


class Sabotage(CorrectImporter):
    """A correct importer that, in its first cycle with rows, sabotages row `index`: drops it
    for good, appends it twice, or changes one field."""

    name: ClassVar[str] = "sabotage"
    mode: ClassVar[str] = "drop"
    index: ClassVar[int] = 0
    column: ClassVar[str] = "phone"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        dropped = set(self.state.setdefault("dropped", []))
        rows = [row for row in rows if row["file_id"] not in dropped]
        if self.state.get("done") or not rows:
            return rows
        self.state["done"] = True
        target = rows[self.index % len(rows)]
        self.state["target"] = target["file_id"]
        if self.mode == "drop":
            self.state["dropped"].append(target["file_id"])
            return [row for row in rows if row is not target]
        if self.mode == "duplicate":
            return [*rows, target]
        changed = {**target, self.column: target[self.column] + "9"}
        return [changed if row is target else row for row in rows]


def _sabotage_class(mode: str, index: int, column: str) -> str:
    class_name = f"Sabotage_{mode}_{index}_{column}"
    module = sys.modules[__name__]
    if not hasattr(module, class_name):
        attributes = {"mode": mode, "index": index, "column": column}
        setattr(module, class_name, type(class_name, (Sabotage,), attributes))
    return f"{__name__}:{class_name}"


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    mode=st.sampled_from(["drop", "duplicate", "field"]),
    index=st.integers(min_value=0, max_value=30),
    column=st.sampled_from(_COLUMNS),
)
def test_a_sabotaged_row_lowers_the_right_metric(
    tmp_path_factory: Any, mode: str, index: int, column: str
) -> None:
    root = tmp_path_factory.getbasetemp() / "sabotage"
    root.mkdir(exist_ok=True)
    # Seed 3: the first cycle's append fault is applied_then_error, so a duplicate appended in
    # that cycle lands (an append left in doubt is carried de-duplicated to the next cycle).
    corpus = make_small_corpus(root, seed=3)
    spec = _sabotage_class(mode, index, column)
    run = root / spec.rpartition(":")[2]
    if not run.exists():
        run_agent(corpus, spec, run)
    verdict = evaluate_run(run, corpus)
    assert verdict.metrics is not None and verdict.status == "evaluated"
    overall, shortfalls = verdict.metrics.overall, verdict.metrics.shortfalls
    assert exit_code(verdict) == 1
    if mode == "drop":
        assert overall.completeness.value < 1.0 and len(shortfalls.lost) == 1
        assert overall.uniqueness.value == 1.0 and overall.precision.value == 1.0
    elif mode == "duplicate":
        assert overall.uniqueness.value < 1.0 and len(shortfalls.duplicated) == 1
        assert overall.completeness.value == 1.0 and overall.field_accuracy.value == 1.0
    else:
        assert overall.field_accuracy.value < 1.0
        (wrong,) = shortfalls.wrong_fields
        assert [d.column for d in wrong.fields] == [column]
        assert wrong.fields[0].found == wrong.fields[0].expected + "9"  # type: ignore[operator]
        assert overall.completeness.value == 1.0 and overall.uniqueness.value == 1.0


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    action=st.sampled_from(["drop", "duplicate", "edit"]),
    row=st.integers(min_value=1, max_value=200),
    cell=st.integers(min_value=1, max_value=8),
)
def test_an_attacker_with_the_folder_cannot_pass(
    tmp_path_factory: Any, action: str, row: int, cell: int
) -> None:
    root = tmp_path_factory.getbasetemp() / "folder-attack"
    root.mkdir(exist_ok=True)
    corpus = make_small_corpus(root, seed=2)
    clean = root / "clean"
    if not clean.exists():
        run_agent(corpus, "reference", clean)
    attacked = root / f"attacked-{action}-{row}-{cell}"
    shutil.rmtree(attacked, ignore_errors=True)
    shutil.copytree(clean, attacked)
    lines = (attacked / "register.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    index = 1 + row % (len(lines) - 1)
    if action == "drop":
        del lines[index]
    elif action == "duplicate":
        lines.insert(index, lines[index])
    else:
        cells = lines[index].rstrip("\n").split(",")
        cells[cell % len(cells)] += "x"
        lines[index] = ",".join(cells) + "\n"
    (attacked / "register.csv").write_text("".join(lines), encoding="utf-8")
    rerecord(attacked, "register.csv")
    verdict = evaluate_run(attacked, corpus)
    assert verdict.status == "configuration_error" and not verdict.scorer_pass
    assert any(e.code == "register_log_register_csv" for e in verdict.configuration_errors)
    assert exit_code(verdict) == 2
