"""`pilot run --model-cmd`: the importer is a model whose server is the candidate's own, started
by provebench in the sandbox for the whole run and reached only by the laboratory on its Unix
socket (docs/llm-agents.md, "Who runs the model"). Served so, a model that imports correctly
reaches `laboratory_pass`; the same server on a loopback port, started by the operator, cannot
(tests/llm/test_endpoint_isolation.py), since it could read the corpus — sealed, it cannot."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.pilot_evaluation import evaluate, make_small_corpus
from tests.helpers.pilot_evaluation import run_agent as run_pilot_agent

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]  # slow: not in make check

HELPERS = Path(__file__).parents[1] / "helpers"
SERVER = HELPERS / "pilot_model_server_program.py"
# The server's own code, as a candidate ships it: the program and the modules beside it.
SERVER_MODULES = ("pilot_model_server_program.py", "fake_openai.py", "pilot_tools.py")
PROVEBENCH = (sys.executable, "-m", "provebench")


def pilot_run(corpus: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROVEBENCH, "pilot", "run", "--corpus", str(corpus), "--out", str(out), "--quiet",
         *args],
        capture_output=True, text=True, check=False, timeout=150,
    )  # fmt: skip


def model_cmd(server: Path, *reads: Path) -> str:
    # provebench's interpreter: the program imports the reference importer from provebench.
    return " ".join([sys.executable, str(server), *(f"read={path}" for path in reads)])


_SAID = {0: "read", 1: "could not read: FileNotFoundError", 2: "could not read: PermissionError"}


def notes(run: Path, paths: tuple[Path, ...]) -> list[dict[str, str]]:
    """What the model server's note of each cycle says of each path it tried to read, in the
    order given (tests/helpers/pilot_model_server_program.py: `note C1 C2 …`, a note of the
    contract's published shape, which the evaluator reads as no claim)."""
    found = []
    for line in (run / "diagnostics.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        words = entry.get("message", "").split() if entry.get("channel") == "note" else []
        if words[:1] == ["note"] and len(words) == len(paths) + 1:
            codes = [int(word) for word in words[1:]]
            found.append(
                {
                    str(p): _SAID.get(c, "could not read: OSError")
                    for p, c in zip(paths, codes, strict=True)
                }
            )
    return found


def test_a_sealed_model_server_run_is_sealed_and_reaches_the_laboratory_gate(
    tmp_path: Path,
) -> None:
    corpus = make_small_corpus(tmp_path, seed=3)
    run = tmp_path / "run"
    result = pilot_run(corpus, run, "--agent", "openai:tiny", "--model-cmd", model_cmd(SERVER))
    assert result.returncode == 0, result.stderr
    verdict = evaluate(run, corpus)
    assert verdict.scorer_pass and verdict.critical_violations == []
    assert verdict.laboratory_pass  # provebench's loop, on a server it started sealed
    isolation = verdict.result_evidence.isolation  # type: ignore[union-attr]
    assert isolation["mode"] == "sandbox" and isolation["model_server"].startswith("external ")
    record = json.loads((run / "run.json").read_text())
    assert record["agent"]["spec"] == "openai:tiny" and record["isolation"] == isolation
    direct = run_pilot_agent(corpus, "reference", tmp_path / "direct")
    assert (run / "register.csv").read_bytes() == (direct / "register.csv").read_bytes()


def test_a_model_server_that_reads_the_corpus_beside_its_code_finds_it_hidden(
    tmp_path: Path,
) -> None:
    """The corpus is kept inside the server's own code folder, which the sandbox shows: its
    answer key there is hidden all the same, and so is the run folder."""
    server_dir = tmp_path / "server"
    server_dir.mkdir()
    for name in SERVER_MODULES:
        shutil.copy(HELPERS / name, server_dir / name)
    corpus = make_small_corpus(server_dir, seed=3)
    run = server_dir / "run"
    answer_key = corpus / "expected_final_rows.csv"
    command = model_cmd(server_dir / SERVER_MODULES[0], answer_key, corpus, run)
    result = pilot_run(corpus, run, "--agent", "openai:tiny", "--model-cmd", command)
    assert result.returncode == 0, result.stderr
    tried = notes(run, (answer_key, corpus, run))
    assert len(tried) == 4  # one each cycle
    for said in tried:
        assert said[str(answer_key)].startswith("could not read: "), said
        # The server's folder is shown from the run's held snapshot, which leaves every hidden
        # path out (pilot red team 25, A7): not there at all, nor what the run writes later.
        assert said[str(corpus)] == "could not read: FileNotFoundError", said
        assert said[str(run)] == "could not read: FileNotFoundError", said
    verdict = evaluate(run, corpus)
    assert verdict.laboratory_pass


@pytest.mark.parametrize(
    ("agent", "field"),
    [
        (("--agent", "openai:tiny"), "--model-cmd"),  # the server exits, never listens
        (("--agent", "reference"), "--model-cmd"),
        (("--agent-cmd", "python3 -c pass"), "--model-cmd"),
        (("--agent", "openai:tiny", "--base-url", "http://127.0.0.1:9/v1"), "--base-url"),
    ],
)
def test_a_model_cmd_that_cannot_serve_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, agent: tuple[str, ...], field: str
) -> None:
    corpus = make_small_corpus(tmp_path, seed=3)
    run = tmp_path / "run"
    result = pilot_run(corpus, run, *agent, "--model-cmd", "python3 -c pass")
    assert result.returncode == 2, result.stderr
    assert field in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not run.exists()


MATRIX_SIZES = ("--seeds", "1", "--profile", "public", "--cycles", "4", "--file-events", "30",
                "--admissible-files", "12", "--workers", "1", "--quiet")  # fmt: skip


def test_a_matrix_starts_the_server_for_its_model_jobs_only(tmp_path: Path) -> None:
    out = tmp_path / "matrix"
    done = subprocess.run(
        [*PROVEBENCH, "pilot", "matrix", "--agents", "reference,openai:tiny",
         "--model-cmd", model_cmd(SERVER), *MATRIX_SIZES, "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=150,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [(a["agent"], a["successes"]) for a in summary["agents"]] == [
        ("reference", 1),
        ("openai:tiny", 1),  # sealed: it passes the laboratory gate
    ]
    [run] = out.glob("jobs/openai*/*/*/run")
    assert json.loads((run / "run.json").read_text())["isolation"]["mode"] == "sandbox"


@pytest.mark.parametrize(
    "extra", [("--agents", "reference"), ("--agents", "openai:tiny", "--base-url", "http://x/v1")]
)
def test_a_matrix_refuses_a_model_cmd_without_a_model_agent_or_with_a_base_url(
    tmp_path: Path, extra: tuple[str, ...]
) -> None:
    out = tmp_path / "matrix"
    done = subprocess.run(
        [*PROVEBENCH, "pilot", "matrix", *extra, "--model-cmd", model_cmd(SERVER),
         *MATRIX_SIZES, "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not out.exists()
