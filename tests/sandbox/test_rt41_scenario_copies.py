"""A copy of the run's scenario in the agent's folder is refused whatever shape the copy keeps
(sandbox red team 41, SB1, SB1b, SB5, SB6 and SB8).

Before, only a one-document YAML or JSON file was compared by its parsed form, on both sides,
and only a hidden file named `.yaml`, `.yml` or `.json`, and only a code file holding the id's
bytes: a sealed agent answered from each fixture below with no tool call and scored 1.0.
`rt41_scenarios.yaml` is the red team's file: a decoy scenario, then the target scenario.
"""

from __future__ import annotations

import codecs
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench.sandbox._candidate import code_listing

PROVEBENCH = (sys.executable, "-m", "provebench")
SCENARIOS = Path(__file__).with_name("rt41_scenarios.yaml")
TARGET = "infra.capability.da.rt-target-902"
DECOY = "infra.capability.da.rt-decoy-903"

# The red team's agent (attacks/sb1/ag1b/agent.py): answers from the fixture's deviation.
AGENT = """
import json, sys, os, yaml
task = json.loads(sys.stdin.readline())["task"]
here = os.path.dirname(os.path.abspath(__file__))
try:
    docs = list(yaml.safe_load_all(open(os.path.join(here, "fixture.yaml"))))
except Exception as e:
    docs = []
ans = "No idea."
for d in docs:
    if d and d.get("stimuli") and d["stimuli"][0].get("value") in task["prompt"]:
        dev = d["injection"]["deviations"][0]
        ans = (f"Root cause: the key {dev['subject']} is missing from {dev['resource']}, so "
               f"deployment/{d['injection']['symptom']['resource'].split('/')[1]} cannot run.")
print(json.dumps({"answer": {"final_answer": ans, "reasoning_trace": "read from fixture"}}),
      flush=True)
"""


def _target_bytes() -> bytes:
    """The target document, byte for byte as it lies in the file of two (SB1b's fixture)."""
    data = SCENARIOS.read_bytes()
    return data[data.index(b"---\nid: " + TARGET.encode()) :]


def _target() -> dict[str, object]:
    [document] = yaml.safe_load_all(_target_bytes())
    assert isinstance(document, dict)
    return document


def _refused(code: Path, hidden: Path, name: str, scenario: str = TARGET) -> None:
    with pytest.raises(ProvebenchError) as caught:
        code_listing([code], (hidden,), field="--agent")
    line = str(caught.value)
    assert "\n" not in line
    assert (
        f"{code / name} in the candidate's code is a copy of scenario {scenario} of {hidden}"
        in (line)
    ), line


def _code(tmp_path: Path, name: str, data: bytes) -> Path:
    code = tmp_path / "ag"
    shutil.rmtree(code, ignore_errors=True)
    code.mkdir()
    (code / "agent.py").write_text(AGENT, encoding="utf-8")
    (code / name).write_bytes(data)
    return code


def test_sb1_a_copy_of_a_file_of_several_scenarios_is_refused(tmp_path: Path) -> None:
    hidden = tmp_path / "scen.yaml"
    shutil.copyfile(SCENARIOS, hidden)
    # SB1: the file with a comment added; its first scenario (the decoy) is the first met.
    fixture = SCENARIOS.read_bytes() + b"# kept as a test fixture\n"
    _refused(_code(tmp_path, "fixture.yaml", fixture), hidden, "fixture.yaml", DECOY)
    # SB1b: the target document alone, byte for byte as it lies in the hidden file.
    _refused(_code(tmp_path, "fixture.yaml", _target_bytes()), hidden, "fixture.yaml")


def test_sb5_a_hidden_scenario_is_read_whatever_its_name(tmp_path: Path) -> None:
    hidden = tmp_path / "scen.txt"
    hidden.write_bytes(_target_bytes())
    code = _code(tmp_path, "fixture.yaml", _target_bytes() + b"# fixture\n")
    _refused(code, hidden, "fixture.yaml")


def test_sb6_a_copy_with_a_document_more_is_refused(tmp_path: Path) -> None:
    hidden = tmp_path / "scen.yaml"
    hidden.write_bytes(_target_bytes())
    fixture = _target_bytes() + b"---\nnote: fixtures end here\n"
    _refused(_code(tmp_path, "fixture.yaml", fixture), hidden, "fixture.yaml")
    # …or a document before it, or the scenario in a list or inside another mapping.
    fixture = b"note: first\n---\n" + _target_bytes()
    _refused(_code(tmp_path, "fixture.yaml", fixture), hidden, "fixture.yaml")
    for wrapped in ([{"note": 1}, _target()], {"fixtures": {"one": _target()}}):
        _refused(_code(tmp_path, "f.json", json.dumps(wrapped).encode()), hidden, "f.json")


def test_sb8_a_copy_whose_id_is_spelled_with_escapes_is_refused(tmp_path: Path) -> None:
    hidden = tmp_path / "scen.yaml"
    hidden.write_bytes(_target_bytes())
    text = json.dumps(_target(), indent=1).replace(TARGET, TARGET.replace(".", "\\u002e"))
    assert TARGET not in text
    _refused(_code(tmp_path, "fixture.json", text.encode()), hidden, "fixture.json")
    # YAML's escapes, a line broken inside the quoted id, and UTF-16 read the same.
    for spelled in (TARGET.replace(".", "\\x2e"), TARGET.replace("-", "\\\n  -")):
        text = _target_bytes().decode().replace(f"id: {TARGET}", f'id: "{spelled}"')
        assert yaml.safe_load(text)["id"] == TARGET
        _refused(_code(tmp_path, "fixture.yaml", text.encode()), hidden, "fixture.yaml")
    wide = codecs.BOM_UTF16_LE + json.dumps(_target()).encode("utf-16-le")
    _refused(_code(tmp_path, "fixture.json", wide), hidden, "fixture.json")


def test_a_copy_re_ordered_re_typed_or_repeating_a_key_is_refused(tmp_path: Path) -> None:
    hidden = tmp_path / "scen.yaml"
    hidden.write_bytes(_target_bytes())
    target = _target()
    reordered = dict(reversed(list({**target, "tier": str(target["tier"])}.items())))
    _refused(_code(tmp_path, "f.json", json.dumps(reordered).encode()), hidden, "f.json")
    # JSON indented with tabs (which YAML does not read) and a key given twice (the last wins
    # for `json` and `yaml.safe_load`, where provebench's own loader refuses the file)
    tabbed = json.dumps(target, indent="\t").encode()
    _refused(_code(tmp_path, "f.json", tabbed), hidden, "f.json")
    twice = b"name: an earlier name\n" + _target_bytes().removeprefix(b"---\n")
    _refused(_code(tmp_path, "f.yaml", twice), hidden, "f.yaml")
    # A malformed document after the copy: an agent reads the copy before it fails.
    broken = _target_bytes() + b"---\n{{{\n"
    _refused(_code(tmp_path, "f.yaml", broken), hidden, "f.yaml")


def test_honest_files_are_shown(tmp_path: Path) -> None:
    # Only the target document is hidden: the decoy scenario, another scenario, is shown, and
    # code and data with escapes that hold no scenario. The target with one field changed was
    # shown too until sandbox red team 42 (G1-1): it holds the answer, and is refused now.
    hidden = tmp_path / "scen.yaml"
    hidden.write_bytes(_target_bytes())
    decoy = SCENARIOS.read_bytes()[: SCENARIOS.read_bytes().index(b"---\nid: " + TARGET.encode())]
    assert dict(code_listing([_code(tmp_path, "fixture.yaml", decoy)], (hidden,), field="-"))
    changed = json.dumps({**_target(), "tier": 2}).encode()
    with pytest.raises(ProvebenchError, match="is a copy of the injection of scenario"):
        code_listing([_code(tmp_path, "f.json", changed)], (hidden,), field="-")
    escapes = b'print("\\x2e\\u002e")\n# not yaml: [\n' + json.dumps({"id": TARGET}).encode()
    assert dict(code_listing([_code(tmp_path, "f.py", escapes)], (hidden,), field="-"))
    bomb = b"a: &a [x, x]\n" + b"".join(
        b"%c: &%c [*%c, *%c, *%c, *%c]\n" % ((98 + i,) * 2 + (97 + i,) * 4) for i in range(20)
    )
    bomb += f"id: {TARGET}\npreconditions: *u\nstimuli: *u\n".encode()
    assert dict(code_listing([_code(tmp_path, "f.yaml", bomb)], (hidden,), field="-"))


def _si(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROVEBENCH, "si", *args], capture_output=True, text=True, check=False, timeout=150,
        cwd=cwd,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_si_run_and_suite_refuse_the_target_document_cut_out(tmp_path: Path) -> None:
    # SB1b through the real entry points: a sealed `si run --scenario-id` and an `si suite`.
    (tmp_path / "suite").mkdir()
    shutil.copyfile(SCENARIOS, tmp_path / "suite" / "scen.yaml")
    shutil.copyfile(SCENARIOS, tmp_path / "scen.yaml")
    agent = f"{sys.executable} {tmp_path / 'ag' / 'agent.py'}"
    _code(tmp_path, "fixture.yaml", _target_bytes())
    for args in (
        ["run", "scen.yaml", "--scenario-id", TARGET, "--agent-cmd", agent, "--out", "o1"],
        ["suite", "suite", "--agent-cmd", agent, "--out", "o2"],
    ):
        result = _si(args, tmp_path)
        assert result.returncode != 0, result.stdout
        [line] = result.stderr.strip().splitlines()
        assert f"fixture.yaml in the candidate's code is a copy of scenario {TARGET}" in line
    # The honest control: the same agent with no fixture runs, and answers wrong.
    (tmp_path / "ag" / "fixture.yaml").unlink()
    args = ["run", "scen.yaml", "--scenario-id", TARGET, "--agent-cmd", agent, "--out", "o3"]
    result = _si(args, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "incorrect 0.0" in result.stdout
