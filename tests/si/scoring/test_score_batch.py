"""`si score SCENARIO EVIDENCE...`: the batch form — one line per file, in order, the same
decision as scoring each file alone, the same bytes for any number of workers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from provebench.si.scoring._score import score_files

PROVEBENCH = (sys.executable, "-m", "provebench")
SI = Path(__file__).resolve().parents[3] / "src/provebench/si"
SCENARIO = SI / "scenarios" / "diagnostic-accuracy.yaml"


def score(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROVEBENCH, "si", "score", str(SCENARIO), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("batch")
    for example in sorted((SI / "examples").glob("*.json")):
        for copy in range(3):
            document = json.loads(example.read_text(encoding="utf-8"))
            if document["final_answer"]:
                document["final_answer"] += f"\nNote {copy}."
            (folder / f"{example.stem}-{copy}.json").write_text(json.dumps(document))
    return folder


def test_each_line_is_the_decision_of_scoring_that_file_alone(batch: Path) -> None:
    result = score(str(batch), "--jobs", "1")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    files = sorted(batch.glob("*.json"))
    assert [line["evidence"] for line in lines] == [str(f) for f in files]
    for line, file in zip(lines, files, strict=True):
        alone = score_files(SCENARIO, file)
        assert (line["band"], line["score"], line["matched_row"]) == (
            alone.band,  # type: ignore[union-attr]
            alone.score,
            alone.matched_row.id,  # type: ignore[union-attr]
        )
        assert line["evidence_sha256"] == alone.inputs.evidence_file_sha256
    assert f"{len(files)} evidence file(s) scored, 0 refused" in result.stderr


def test_the_bytes_do_not_depend_on_the_number_of_workers(batch: Path) -> None:
    one, two = score(str(batch), "--jobs", "1"), score(str(batch), "--jobs", "2")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_full_lines_hold_the_whole_verdict(batch: Path) -> None:
    first = sorted(batch.glob("*.json"))[0]
    result = score(str(first), "--full")
    [line] = [json.loads(text) for text in result.stdout.splitlines()]
    assert line["verdict"] == json.loads(score(str(first)).stdout)


def test_a_bad_file_is_a_line_of_its_own_and_exit_2(batch: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    shutil.copytree(batch, folder)
    (folder / "zz-broken.json").write_text("{not json", encoding="utf-8")
    result = score(str(folder))
    assert result.returncode == 2
    last = json.loads(result.stdout.splitlines()[-1])
    assert last["evidence"].endswith("zz-broken.json") and "malformed JSON" in last["error"]
    assert "1 refused" in result.stderr


def test_a_line_is_the_compact_json_of_its_decision(batch: Path, tmp_path: Path) -> None:
    """The decided line is written from prepared pieces: its bytes are those of the decision
    as one compact JSON object, for any file name and with a provider failure."""
    folder = tmp_path / "odd names"
    shutil.copytree(batch, folder)
    correct = json.loads((SI / "examples" / "correct-diagnosis.json").read_text(encoding="utf-8"))
    (folder / 'quote " and é.json').write_text(json.dumps(correct), encoding="utf-8")
    failed = {**correct, "provider_failure": "the model endpoint timed out"}
    (folder / "provider-failure.json").write_text(json.dumps(failed), encoding="utf-8")
    for jobs in ("1", "2"):
        result = score(str(folder), "--jobs", jobs)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) == len(list(folder.glob("*.json")))
        for line in lines:
            decided = json.loads(line)
            assert list(decided)[:2] == ["evidence", "evidence_sha256"]
            assert line == json.dumps(decided, ensure_ascii=False, separators=(",", ":"))
            alone = score_files(SCENARIO, Path(decided["evidence"]))
            expected: dict[str, Any] = {
                "evidence": decided["evidence"],
                "evidence_sha256": alone.inputs.evidence_file_sha256,
            }
            if alone.provider_failure is not None:  # type: ignore[union-attr]
                # not scored (Core §3.6-3.7): no band, score or row beside the fault
                expected["provider_failure"] = alone.provider_failure  # type: ignore[union-attr]
            else:
                expected["band"] = alone.band  # type: ignore[union-attr]
                expected["score"] = alone.score
                expected["matched_row"] = alone.matched_row.id  # type: ignore[union-attr]
            assert decided == expected
        assert '"provider_failure":"the model endpoint timed out"' in result.stdout
        assert 'quote \\" and é.json"' in result.stdout
