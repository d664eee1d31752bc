"""A copy of the run's scenario is refused however it is re-keyed, split or wrapped: by its
answer-bearing parts at any depth and by its prose in the bytes of any file (sandbox red team 42,
G1-1 … G1-8).

Before, a copy was found only when a whole mapping had the hidden scenario's parsed form and its
id, in a YAML or JSON file of at most 1 MiB: the scenario with a key added or its id renamed, in
a Markdown fence, only its `injection:` and `scoring:`, as a Python literal, as a JSON string
value, pickled, or padded past 1 MiB was shown, and a sealed agent answered from each with no
tool call (`correct_root_cause 1.0`). Now each answer part (`injection`, `scoring`, each
deviation, `scoring.factor`) is matched at any depth with no id gate, and the scenario's prose
(`description`, `intent`, `injection.counterfactual`, the verification texts) is looked for,
normalised, in every code file's bytes. An agent that mentions the answer's words is shown.
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from provebench._errors import ProvebenchError
from provebench.sandbox._answer_copies import HiddenCopies
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._policy import PACKAGE_DIR

PROVEBENCH = (sys.executable, "-m", "provebench")
# The red team's hidden scenario (attacks/scen/ssd2.yaml) is a copy of this shipped one.
SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "single-signal-diagnosis-002.yaml"

# The red team's agent (attacks/g1/<case>/agent.py, one for all): the answer key is in the file.
AGENT = """
import json, os, sys
sys.stdin.readline()
here = os.path.dirname(os.path.abspath(__file__))
text = "".join(open(os.path.join(here, n), "rb").read().decode("latin-1")
               for n in os.listdir(here) if n != "agent.py")
answer = ("Root cause: the Secret payments-db-credentials lacks the key DB_PASSWORD."
          if "DB_PASSWORD" in text else "I could not tell.")
print(json.dumps({"answer": {"final_answer": answer, "reasoning_trace": ""}}), flush=True)
"""


def _fixtures() -> dict[str, bytes]:
    data = SCENARIO.read_bytes()
    [document] = yaml.safe_load_all(data)
    text = data.decode("utf-8")
    answer = {"injection": document["injection"], "scoring": document["scoring"]}
    return {
        "extrakey/fixture.yaml": data + b"x_fixture_note: kept for the unit tests\n",  # G1-1
        "renamedid/fixture.yaml": data.replace(document["id"].encode(), b"fixture-001"),  # G1-2
        "markdown/README.md": f"# Notes\n\n```yaml\n{text}```\n".encode(),  # G1-3
        "answeronly/fixture.yaml": yaml.safe_dump(answer).encode(),  # G1-4
        "pyliteral/fixture.py": f"SCEN = {document!r}\n".encode(),  # G1-5
        "jsonstring/fixture.json": json.dumps({"text": text}).encode(),  # G1-6
        "pickle/fixture.pkl": pickle.dumps(document, protocol=4),  # G1-7
        "padded/fixture.yaml": data + b"# " + b"x" * (1 << 20) + b"\n",  # G1-8
        # Each answer part alone, re-keyed around it: no id, no prose beside it.
        "deviation/fixture.json": json.dumps(
            {"cases": [{"expect": document["injection"]["deviations"][0]}]}
        ).encode(),
        "factor/fixture.yaml": yaml.safe_dump({"key": document["scoring"]["factor"]}).encode(),
    }


def _folder(tmp_path: Path, name: str, data: bytes) -> Path:
    code = tmp_path / "ag"
    (code / name).parent.mkdir(parents=True)
    (code / "agent.py").write_text(AGENT, encoding="utf-8")
    (code / name).write_bytes(data)
    return code


@pytest.mark.parametrize("name", sorted(_fixtures()))
def test_each_reshaped_copy_is_refused(name: str, tmp_path: Path) -> None:
    code = _folder(tmp_path, name, _fixtures()[name])
    with pytest.raises(ProvebenchError, match=r"in the candidate's code is a copy of") as got:
        code_listing([code], (SCENARIO,), field="--agent")
    assert name.split("/")[-1] in str(got.value) and "\n" not in str(got.value)


# Honest code: the words of the answer, a scenario of its own, the public task's prompt.
HONEST = {
    "agent.py": AGENT,
    "notes.md": "Secrets: check for a missing key such as DB_PASSWORD; deviation_type absent_key"
    " means the key is gone. payments-api has no running pods after the last rollout.\n",
    "own.yaml": yaml.safe_dump(
        {
            "injection": {
                "deviations": [
                    {
                        "id": "f1",
                        "resource": "secret/other",
                        "deviation_type": "absent_key",
                        "subject": "DB_PASSWORD",
                    }
                ]
            },
            "scoring": {"factor": {"ref": "f1"}},
        }
    ),
    "big.txt": "The payments api pods cannot start. " * 40_000,
}


def test_honest_code_that_names_the_answers_words_is_shown(tmp_path: Path) -> None:
    code = tmp_path / "ag"
    code.mkdir()
    for name, text in HONEST.items():
        (code / name).write_text(text, encoding="utf-8")
    code_listing([code], (SCENARIO,), field="--agent")


def test_the_search_costs_little_on_a_large_code_folder() -> None:
    copies = HiddenCopies([SCENARIO])
    data = (b"def f(x):\n    return x  # secret payments credentials identifiers\n") * 200_000
    began = time.process_time()
    assert copies.copy_of(len(data), "0" * 64, data) is None
    assert time.process_time() - began < 2.0  # 13 MiB: measured about 0.1 s


@pytest.mark.slow
@pytest.mark.timeout(200)
def test_si_run_refuses_a_markdown_copy_and_runs_the_honest_agent(tmp_path: Path) -> None:
    code = _folder(tmp_path, "markdown/README.md", _fixtures()["markdown/README.md"])
    run = [*PROVEBENCH, "si", "run", str(SCENARIO),
           "--agent-cmd", f"{sys.executable} {code / 'agent.py'}"]  # fmt: skip
    result = subprocess.run([*run, "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, check=False, timeout=150)  # fmt: skip
    assert result.returncode == 2, result.stdout
    assert "README.md in the candidate's code is a copy of" in result.stderr, result.stderr
    (code / "markdown" / "README.md").unlink()  # the honest control: the same agent, no copy
    result = subprocess.run([*run, "--out", str(tmp_path / "out2")],
                            capture_output=True, text=True, check=False, timeout=150)  # fmt: skip
    assert result.returncode == 0, result.stderr
