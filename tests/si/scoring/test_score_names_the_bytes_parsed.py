"""`si score` names the scenario by the bytes it parsed (as `si run` does since red team round
12b, S1): a scenario file swapped for another after it was loaded is not named by the second
file's digest — neither in a single verdict nor in a batch's `--full` verdicts."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest

from provebench.si.scenario import _validate
from provebench.si.scoring import _batch, _score
from provebench.si.scoring._batch import BatchSpec, score_batch

SI = Path(__file__).resolve().parents[3] / "src/provebench/si"
SCENARIO = SI / "scenarios" / "diagnostic-accuracy.yaml"
EVIDENCE = SI / "examples" / "correct-diagnosis.json"


def _swapped_after_loading(
    monkeypatch: pytest.MonkeyPatch, module: Any, scenario: Path, other: bytes
) -> None:
    loading = _validate.load_scenarios

    def load_then_swap(*args: Any, **kwargs: Any) -> Any:
        loaded = loading(*args, **kwargs)
        scenario.write_bytes(other)  # the racer: once the scenario is parsed
        return loaded

    monkeypatch.setattr(module, "load_scenarios", load_then_swap)


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    copy = tmp_path / "scenario.yaml"
    shutil.copyfile(SCENARIO, copy)
    return copy


def test_a_single_verdict_names_the_bytes_parsed(
    scenario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed = scenario.read_bytes()
    _swapped_after_loading(monkeypatch, _score, scenario, parsed + b"\n# swapped\n")
    verdict = _score.score_files(scenario, EVIDENCE)
    assert scenario.read_bytes() != parsed  # the swap happened
    assert verdict.inputs.scenario_file_sha256 == hashlib.sha256(parsed).hexdigest()


def test_a_batch_names_the_bytes_parsed(scenario: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = scenario.read_bytes()
    _swapped_after_loading(monkeypatch, _batch, scenario, parsed + b"\n# swapped\n")
    spec = BatchSpec(str(scenario), None, None, None, full=True)
    (chunk,) = score_batch(spec, [str(EVIDENCE)], jobs=1)
    assert scenario.read_bytes() != parsed
    assert hashlib.sha256(parsed).hexdigest() in chunk.text
    assert hashlib.sha256(scenario.read_bytes()).hexdigest() not in chunk.text
