"""A provebench output is told by its bytes anywhere in a file, never by parsing it (sandbox red
team 42, G1-9 … G1-14).

Before, `sandbox._outputs.output_kind` told an output only when the file was one JSON object with
the markers at its top: a verdict wrapped in a list, JSON Lines of a verdict and an OASIS
evidence, a verdict nested in a hand-written summary, an uncompressed tar of an `--out` folder,
and the text of `si stress` and `si check` (which carried no marker at all) were each shown to a
sealed agent, which answered from them with no tool call and scored 1.0. Now the markers are
looked for in the bytes, and every human-readable output that shows an answer begins with a
fixed line (`provebench._output_mark`). Code that merely mentions provebench is still shown.
"""

from __future__ import annotations

import io
import json
import pickle
import tarfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench._output_mark import OUTPUT_MARK
from provebench.cli import app
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._outputs import output_kind
from provebench.sandbox._policy import PACKAGE_DIR

runner = CliRunner()
SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"
EVIDENCE = PACKAGE_DIR / "si" / "examples" / "correct-diagnosis.json"


def _cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _verdict() -> str:
    verdict = _cli("si", "score", str(SCENARIO), str(EVIDENCE))
    assert json.loads(verdict)["score"] == 1.0  # a top-band verdict: it names the answer key
    return verdict


def _oasis() -> dict[str, object]:
    """An OASIS evidence artifact of the top-band answer (Reporting §1.2)."""
    evidence = json.loads(EVIDENCE.read_text(encoding="utf-8"))
    return {
        "scenario_id": evidence["scenario_id"],
        "final_answer": evidence["final_answer"],
        "reasoning_trace": "",
        "actions": [{"id": "call-0001", "tool": "orchestration_events", "arguments": {}}],
    }


def _tar(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:  # `tar cf`: no compression
        for name, data in files.items():
            info = tarfile.TarInfo(f"out/honest/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _derived() -> dict[str, bytes]:
    """The red team's fixtures (attacks/g1/…), each a file an agent answered from."""
    verdict = _verdict()
    value = json.loads(verdict)
    oasis = _oasis()
    return {
        "verdictlist/prev.json": json.dumps([value]).encode(),  # G1-9
        "verdictjsonl/runs.jsonl": (json.dumps(value) + "\n" + json.dumps(oasis) + "\n").encode(),
        "oasisjsonl/runs.jsonl": (json.dumps(oasis) + "\n").encode(),  # G1-10, the evidence alone
        "verdictwrapped/summary.json": json.dumps({"runs": [value]}, indent=2).encode(),  # G1-11
        "verdicttar/prev.tar": _tar(
            {  # G1-12
                "verdict.json": verdict.encode(),
                "evidence.oasis.json": json.dumps(oasis).encode(),
            }
        ),
        "verdictstring/fixture.json": json.dumps({"text": verdict}).encode(),  # JSON in a string
        "verdictliteral/fixture.py": f"VERDICT = {value!r}\n".encode(),  # a Python literal
        "verdictpickle/fixture.pkl": pickle.dumps(value, protocol=4),
        "stresstext/notes.txt": _cli("si", "stress", str(SCENARIO)).encode(),  # G1-13
        "checktext/notes.txt": _cli("si", "check", str(SCENARIO)).encode(),  # G1-14
        "explaintext/notes.txt": _cli(
            "si", "score", str(SCENARIO), str(EVIDENCE), "--explain"
        ).encode(),
    }


def test_the_text_outputs_that_show_an_answer_begin_with_the_mark() -> None:
    stress = _cli("si", "stress", str(SCENARIO))
    check = _cli("si", "check", str(SCENARIO))
    for text in (stress, check):
        assert text.startswith(OUTPUT_MARK), text[:80]
    assert "identifiers_in_delta" in check  # the report names the answer key
    assert "honest " in stress  # and the stress table its top-band example


@pytest.mark.parametrize("name", sorted(_derived()))
def test_each_derived_output_in_the_agents_folder_is_refused(name: str, tmp_path: Path) -> None:
    data = _derived()[name]
    assert output_kind(data) is not None, name
    code = tmp_path / "ag"
    (code / name).parent.mkdir(parents=True)
    (code / "agent.py").write_text("print('hello')\n", encoding="utf-8")
    (code / name).write_bytes(data)
    with pytest.raises(ProvebenchError, match=r"in the candidate's code is .*a provebench") as got:
        code_listing([code], (), field="--agent")
    assert name.split("/")[-1] in str(got.value) and "\n" not in str(got.value)


# Honest code that mentions provebench, its formats' words, or the agent protocol's answer.
HONEST = {
    "agent.py": """import json, sys
import provebench  # the harness, for local development: provebench si run scen.yaml
from provebench.si.scoring import render_table  # noqa
task = json.loads(sys.stdin.readline())["task"]
actions = []
digest = json.load(open("verdict.json"))["inputs"]["scenario_file_sha256"]  # reads one
report = {"format": "markdown", "tool": "provebench.si", "actions": actions}
print(json.dumps({"answer": {"final_answer": "I could not tell.", "reasoning_trace": ""}}))
""",
    "README.md": "Run with `provebench si run`; it writes verdict.json (`format`: provebench's)"
    " and the output format is described in provebench.si's docs; final_answer is the answer.\n",
    "config.yaml": "format: json\nscenario_id: from the task\nactions: []\n",
    "envelope.json": json.dumps(
        {
            "payloadType": "application/vnd.in-toto+json",
            "payload": "eyJwcmVkaWNhdGVUeXBlIjogInVybjp4In0=",
        }
    ),
}


def test_honest_code_that_mentions_provebench_is_shown(tmp_path: Path) -> None:
    code = tmp_path / "ag"
    code.mkdir()
    for name, text in HONEST.items():
        (code / name).write_text(text, encoding="utf-8")
        assert output_kind(text.encode()) is None, name
    code_listing([code], (), field="--agent")
