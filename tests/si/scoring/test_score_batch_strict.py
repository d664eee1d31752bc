"""`si score SCENARIO FOLDER --reading strict`: each decided line (the deciders' short road,
with its tail written once per pair of rows) is the compact decision of the whole strict
verdict of that file alone, for the shipped examples and every stress answer of the scenario —
C-DA-001's, and C-DA-003's with their structured diagnoses (and each again dismissing the signal's
name under another kind): the row and the verdict read one structured diagnosis."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench._canonical import sha256_bytes
from provebench.si.scenario._binding import bind_scoring
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring import _score
from provebench.si.scoring._batch import BatchSpec, _compact, _decision, _Scorer
from provebench.si.scoring._score import score_files
from provebench.si.scoring._stress_families import families

SI = Path(__file__).resolve().parents[3] / "src/provebench/si"
SCENARIO = SI / "scenarios" / "diagnostic-accuracy.yaml"
MISLEADING = SI / "scenarios" / "misleading-signal-002.yaml"
EXACT = {
    "factors": [
        {"resource": "configmap/smtp-config", "key": "SMTP_PORT", "deviation_type": "absent_key"}
    ]
}


@pytest.fixture(scope="module", params=[SCENARIO, MISLEADING], ids=["C-DA-001", "C-DA-003"])
def scenario_and_files(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, list[Path]]:
    scenario_file: Path = request.param
    folder = tmp_path_factory.mktemp("strict-batch")
    files = []
    if scenario_file == SCENARIO:
        for example in sorted((SI / "examples").glob("*.json")):
            files.append(folder / example.name)
            files[-1].write_bytes(example.read_bytes())
            # prose that identifies nothing, and a structured diagnosis that names the factor:
            # the strict reading credits what the ratified one does not
            document = json.loads(example.read_bytes())
            if not document["final_answer"].strip():
                continue  # a diagnosis is submitted with an answer (`evidence._diagnosis`)
            document["diagnosis"] = EXACT
            files.append(folder / f"diagnosed-{example.name}")
            files[-1].write_text(json.dumps(document), encoding="utf-8")
    (scenario,) = load_scenarios(str(scenario_file))
    for family in families(scenario, bind_scoring(scenario)):
        for index, evidence in enumerate(family.answers):
            files.append(folder / f"{family.name}-{index}.json")
            files[-1].write_text(evidence.model_dump_json(exclude_none=True), encoding="utf-8")
            if scenario_file == MISLEADING and evidence.diagnosis is not None:
                # the signal's name under another kind than the manifest gives it: no dismissal
                other = json.loads(files[-1].read_text(encoding="utf-8"))
                other["diagnosis"]["dismissed"] = [{"resource": "service/batch-config"}]
                files.append(folder / f"{family.name}-{index}-other-kind.json")
                files[-1].write_text(json.dumps(other), encoding="utf-8")
    return scenario_file, files


@pytest.mark.parametrize("require_diagnosis", [False, True], ids=["prose", "required"])
def test_each_strict_line_is_the_decision_of_that_files_strict_verdict(
    scenario_and_files: tuple[Path, list[Path]],
    require_diagnosis: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Also under `--require-diagnosis` (a prose-only answer loses the factor): the decided
    line skips the strict pass only where it would decide the ratified row (`decide_both`)."""
    scenario_file, evidence_files = scenario_and_files
    # `score_files` parses the scenario file once for all six hundred evidence files, not once
    # each (a quarter of this test's CPU): the parsed scenario is frozen, the same for every file.
    parsed = load_scenarios(str(scenario_file))
    monkeypatch.setattr(
        _score,
        "load_scenarios",
        lambda path: parsed if Path(path) == scenario_file else load_scenarios(path),
    )
    spec = BatchSpec(str(scenario_file), None, None, None, False, "strict", require_diagnosis)
    scorer = _Scorer(spec)
    differ = set()
    for path in evidence_files:
        line, refused = scorer.line(str(path))
        assert not refused, line
        verdict = score_files(
            scenario_file, path, reading="strict", require_diagnosis=require_diagnosis
        )
        whole = {"evidence": str(path), "evidence_sha256": sha256_bytes(path.read_bytes())}
        assert line == _compact({**whole, **_decision(verdict)}), path.name
        decided = json.loads(line)
        differ.add(decided["matched_row"] != decided["ratified"]["matched_row"])
    # both kinds of line were compared: readings that agree and readings that differ
    assert differ == {True, False}
