"""A candidate's code folder holding a provebench output or a copy of the run's hidden files is
refused in one line naming the file (sandbox red team 39b, H1 and H1b).

Before, only the run's own output folder was hidden: `si run --out ag/prev` made from inside the
agent's folder was shown to every later run, and its `verdict.json` named the answer key (the
factor's deviation type and required identifiers) to an agent that scored 1.0 with no tool
call; a copy of the scenario kept as `ag3/fixture.yaml` was shown to a sealed matrix's trials.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench.attest._envelope import PAYLOAD_TYPE
from provebench.pilot.corpus._folder import EXPECTED_ROWS_FILE, MANIFEST_FILE, PUBLISHED_FILES
from provebench.pilot.record._rundir import RUN_FORMAT
from provebench.sandbox import _answer_copies, _outputs
from provebench.sandbox._candidate import code_digest, code_listing
from provebench.sandbox._policy import PACKAGE_DIR

PROVEBENCH = (sys.executable, "-m", "provebench")
SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"

AGENT = """
import json, sys
sys.stdin.readline()
print(json.dumps({"answer": {"final_answer": "I could not tell.", "reasoning_trace": ""}}),
      flush=True)
"""


def _agent_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "ag"
    folder.mkdir()
    (folder / "agent.py").write_text(AGENT, encoding="utf-8")
    return folder


def _si_run(folder: Path, scenario: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROVEBENCH, "si", "run", str(scenario),
         "--agent-cmd", f"{sys.executable} {folder / 'agent.py'}", "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=100,
    )  # fmt: skip


def _refused(code: Path, match: str, hidden: tuple[Path, ...] = ()) -> None:
    with pytest.raises(ProvebenchError, match=match) as caught:
        code_listing([code], hidden, field="--agent")
    assert "\n" not in str(caught.value)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_an_earlier_si_output_folder_in_the_agents_folder_is_refused(tmp_path: Path) -> None:
    folder = _agent_folder(tmp_path)
    # A development run's output folder inside the agent's folder: hidden from that run only.
    first = _si_run(folder, SCENARIO, folder / "prev")
    assert first.returncode == 0, first.stderr
    verdict = json.loads((folder / "prev" / "verdict.json").read_text(encoding="utf-8"))
    assert "required_identifiers" in json.dumps(verdict)  # it names the answer key
    second = _si_run(folder, SCENARIO, tmp_path / "out")
    assert second.returncode != 0
    assert not (tmp_path / "out" / "evidence.json").exists()
    [line] = second.stderr.strip().splitlines()
    assert str(folder / "prev") in line and "a provebench output" in line, line
    # Each output file is refused by its content, whatever its name (the run record, the
    # verdict, the OASIS evidence; then the folder's own evidence.json is the first met).
    for name in ("run.dsse.json", "verdict.json", "evidence.oasis.json", "evidence.json"):
        code = tmp_path / f"code-{name}"
        code.mkdir()
        shutil.copyfile(folder / "prev" / name, code / "notes.txt")
        _refused(code, r"notes\.txt in the candidate's code is .* a provebench output")


def test_each_output_is_told_by_its_own_markers() -> None:
    assert _outputs.PAYLOAD_TYPE == PAYLOAD_TYPE  # the sandbox imports no area
    statement = {"predicateType": "urn:provebench:si-run:1", "subject": []}
    envelope = {
        "payload": base64.b64encode(json.dumps(statement).encode()).decode(),
        "payloadType": PAYLOAD_TYPE,
        "signatures": [],
    }
    verdict = {"evaluations": [], "versions": {"profile": "x"}, "inputs": {
        "scenario_file_sha256": "0" * 64}}  # fmt: skip
    assert _outputs.output_kind(json.dumps(envelope).encode()) == "a signed provebench record"
    assert _outputs.output_kind(json.dumps(verdict).encode()) == "an SI verdict"
    run = json.dumps({"format": RUN_FORMAT}).encode()
    assert _outputs.output_kind(run) == f"a provebench file of format {RUN_FORMAT}"
    # Not outputs: another tool's format, another predicate, a JSON list, text.
    other = {**envelope, "payload": base64.b64encode(b'{"predicateType": "urn:x"}').decode()}
    for data in (b'{"format": "npm"}', json.dumps(other).encode(), b'[{"format": 1}]', b"x"):
        assert _outputs.output_kind(data) is None


def test_a_pilot_run_folder_in_the_importers_folder_is_refused(tmp_path: Path) -> None:
    code = tmp_path / "imp"
    (code / "old-run").mkdir(parents=True)
    (code / "importer.py").write_text("pass\n", encoding="utf-8")
    (code / "old-run" / "run.json").write_text(json.dumps({"format": RUN_FORMAT}), "utf-8")
    _refused(code, r"old-run/run\.json in the candidate's code is a provebench file")


def test_a_copy_of_the_runs_corpus_answer_file_is_refused(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / MANIFEST_FILE).write_text('{"corpus_format": "x", "sha256": {}}', "utf-8")
    (corpus / EXPECTED_ROWS_FILE).write_text("id,name\n1,a\n", "utf-8")
    code = tmp_path / "imp"
    code.mkdir()
    shutil.copyfile(corpus / EXPECTED_ROWS_FILE, code / "register.csv")
    _refused(code, r"register\.csv in the candidate's code is a copy of .*expected", (corpus,))
    # A published file (the contract, a template) is every candidate's: shown.
    assert _answer_copies.PUBLISHED_CORPUS_FILES == PUBLISHED_FILES
    (code / "register.csv").unlink()
    for name in PUBLISHED_FILES:
        (corpus / name).write_text(f"published {name}\n", "utf-8")
        shutil.copyfile(corpus / name, code / name)
    assert len(code_listing([code], (corpus,), field="--agent")) == len(PUBLISHED_FILES)


def test_a_copy_of_the_runs_scenario_is_refused_by_bytes_and_by_form(tmp_path: Path) -> None:
    scenario = tmp_path / "scn.yaml"
    shutil.copyfile(SCENARIO, scenario)
    code = tmp_path / "ag"
    code.mkdir()
    shutil.copyfile(SCENARIO, code / "fixture.yaml")
    _refused(code, r"fixture\.yaml in the candidate's code is a copy of .*scn\.yaml", (scenario,))
    # The same scenario as JSON, another file's bytes: refused by its parsed form.
    (code / "fixture.yaml").unlink()
    parsed = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
    (code / "fixture.json").write_text(json.dumps(parsed, indent=1), encoding="utf-8")
    _refused(code, r"fixture\.json in the candidate's code is a copy of .*scn\.yaml", (scenario,))
    # The same scenario under another id holds its answer: refused since sandbox red team 42,
    # G1-2 (shown before). Another scenario is no copy of this run's: shown.
    (code / "fixture.json").write_text(json.dumps({**parsed, "id": "other"}), encoding="utf-8")
    _refused(code, r"fixture\.json in the candidate's code is a copy of the ", (scenario,))
    other = SCENARIO.with_name("single-signal-diagnosis-002.yaml")
    (code / "fixture.json").write_text(json.dumps(yaml.safe_load(other.read_text())), "utf-8")
    assert dict(code_listing([code], (scenario,), field="--agent"))


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_si_run_refuses_a_scenario_fixture_in_the_agents_folder(tmp_path: Path) -> None:
    folder = _agent_folder(tmp_path)
    scenario = tmp_path / "scn.yaml"
    shutil.copyfile(SCENARIO, scenario)
    shutil.copyfile(SCENARIO, folder / "fixture.yaml")
    result = _si_run(folder, scenario, tmp_path / "out")
    assert result.returncode != 0
    [line] = result.stderr.strip().splitlines()
    assert "fixture.yaml in the candidate's code is a copy of" in line, line


def test_provebench_s_own_package_is_digested_with_its_example_evidence() -> None:
    # Its shipped examples are provebench files; its digest is no candidate's code.
    assert any(PACKAGE_DIR.glob("si/examples/*.json"))
    assert code_digest([PACKAGE_DIR], field="--agent", skip_caches=True)
