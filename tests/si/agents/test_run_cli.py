"""`provebench si run`: three files, the same bytes every time, the verdict si score gives."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._canonical import canonical_json
from provebench.evidence import load_evidence
from provebench.si import evaluate, load_scenarios
from tests.helpers.pilot_lab import run_cli
from tests.helpers.si_lab import SHIPPED_SCENARIOS

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

PROVEBENCH = (sys.executable, "-m", "provebench")
FILES = ("evidence.json", "evidence.oasis.json", "verdict.json", "run.dsse.json")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PROVEBENCH, "si", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("agent", ["diagnoser", "quotation-gamer"])
def test_run_writes_the_same_bytes_twice(scenario_file: Path, tmp_path: Path, agent: str) -> None:
    outputs = []
    for name in ("a", "b"):
        result = _run("run", str(scenario_file), "--agent", agent, "--out", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
        outputs.append({file: (tmp_path / name / file).read_bytes() for file in FILES})
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == sorted(FILES)
    assert outputs[0] == outputs[1]


def test_the_run_is_signed_and_a_changed_verdict_is_caught(
    scenario_file: Path, tmp_path: Path
) -> None:
    out = _ran(scenario_file, "diagnoser", tmp_path / "out")

    checked = run_cli("attest", "verify", str(out / "run.dsse.json"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert (
        "urn:provebench:si-run:1" in checked.stdout and "3 subject(s), all match" in checked.stdout
    )
    predicate = json.loads(checked.stdout.strip().splitlines()[-1])
    verdict = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    assert predicate["outcome"] == {
        "band": verdict["band"],
        "score": verdict["score"],
        "sealed": True,
    }
    assert predicate["agent"]["name"] == "diagnoser"
    assert predicate["agent"]["isolation"] == {"mode": "trusted-shipped"}
    verdict["band"], verdict["score"] = "correct_root_cause", 1.0  # a bought verdict
    (out / "verdict.json").write_text(json.dumps(verdict), encoding="utf-8")
    changed = run_cli("attest", "verify", str(out / "run.dsse.json"))
    assert changed.returncode == 1 and "subject verdict.json: sha256" in changed.stdout


def _assert_rescored_is_the_written_verdict_unsealed(rescored: str, written: Path) -> None:
    """`si score` of a run's evidence gives its verdict, but unsealed: the isolation written in
    a file proves nothing (docs/si-agents.md, "Sealed or not")."""
    verdict = json.loads(written.read_text())
    assert verdict["sealed"] is True
    assert rescored == canonical_json({**verdict, "sealed": False})


def test_the_written_verdict_is_what_si_score_prints(scenario_file: Path, tmp_path: Path) -> None:
    out = _ran(scenario_file, "locus-only", tmp_path / "out")
    scored = _run("score", str(scenario_file), str(out / "evidence.json"))
    assert scored.returncode == 0
    _assert_rescored_is_the_written_verdict_unsealed(scored.stdout, out / "verdict.json")
    evidence = load_evidence(out / "evidence.json")
    assert canonical_json(evidence) == (out / "evidence.json").read_text()
    assert json.loads(scored.stdout)["score"] == 0.5


def test_the_oasis_artifact_rescores_to_the_same_verdict(
    scenario_file: Path, tmp_path: Path
) -> None:
    out = _ran(scenario_file, "diagnoser", tmp_path / "out")
    artifact = json.loads((out / "evidence.oasis.json").read_text())
    assert set(artifact) == {"scenario_id", "final_answer", "reasoning_trace", "actions"}
    scenario = load_scenarios(scenario_file)[0]
    ours = json.loads(evaluate(scenario, load_evidence(out / "evidence.json")).to_json())
    theirs = json.loads(evaluate(scenario, load_evidence(out / "evidence.oasis.json")).to_json())
    for key in ("band", "score", "matched_row", "evaluations", "versions"):
        assert ours[key] == theirs[key], key
    assert ours["score"] == 1.0
    # What the OASIS shape cannot carry is the non-scoring metadata (agent name).
    assert theirs["non_scoring"]["agent_name"] is None


def test_run_works_on_a_shipped_scenario(tmp_path: Path) -> None:
    shipped = SHIPPED_SCENARIOS / "diagnostic-accuracy.yaml"
    result = _run("run", str(shipped), "--agent", "diagnoser", "--out", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "o" / "verdict.json").read_text())["score"] == 1.0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--scenario-id", "nope"], "no scenario with id 'nope'"),
        (["--max-tool-calls", "0"], "--max-tool-calls"),
        (["--agent", "provebench.si.agents:Task"], "must define"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    scenario_file: Path, tmp_path: Path, arguments: list[str], message: str
) -> None:
    base = ["run", str(scenario_file), "--out", str(tmp_path / "out")]
    if "--agent" not in arguments:
        base += ["--agent", "diagnoser"]
    result = _run(*base, *arguments)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert not (tmp_path / "out").exists()


def _shipped_with(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped scenario with its symptom's `old` text replaced by `new`."""
    text = (SHIPPED_SCENARIOS / "diagnostic-accuracy.yaml").read_text(encoding="utf-8")
    symptom = text.index("  symptom:")
    assert old in text[symptom : symptom + 200]
    path = tmp_path / "scenario.yaml"
    path.write_text(text[:symptom] + text[symptom:].replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # Not simulable: si check exits 2 on it.
        ("deployment/notification-service", "deployment/ghost", "is not in the simulated state"),
        # Simulable but refuted: si check exits 1 on it.
        ("CreateContainerConfigError", "CrashLoopBackOff", "does not hold in the simulator"),
    ],
)
@pytest.mark.parametrize("command", ["run", "serve"])
def test_a_scenario_si_check_refuses_is_refused_before_anything_is_written(
    tmp_path: Path, old: str, new: str, message: str, command: str
) -> None:
    """The runner proves the answer key first (SI §5.1): a key the simulator refutes would be
    scored as if it were the ground truth ("correct_root_cause 1.0" on a ghost)."""
    scenario = _shipped_with(tmp_path, old, new)
    check = _run("check", str(scenario))
    assert check.returncode in (1, 2), check.stdout
    args = [command, str(scenario), "--out", str(tmp_path / "out")]
    result = _run(*args, *(["--agent", "diagnoser"] if command == "run" else []))
    assert result.returncode == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert message in line and str(scenario) in line
    assert not (tmp_path / "out").exists()


def test_an_output_path_that_is_a_file_is_refused(scenario_file: Path, tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    result = _run("run", str(scenario_file), "--agent", "noop", "--out", str(taken))
    assert result.returncode == 2 and "not a folder" in result.stderr
    assert taken.read_text() == "keep me"


def test_a_stopped_rerun_leaves_no_stale_verdict_beside_new_evidence(
    scenario_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from provebench._file_set import FileSet
    from provebench.si.agents import _run, load_agent

    out = tmp_path / "out"
    assert _run_ok("run", str(scenario_file), "--agent", "noop", "--out", str(out))
    assert (out / "verdict.json").is_file()
    stage = FileSet.stage

    def fail_on_oasis(files: FileSet, path: Path, data: bytes) -> None:
        if Path(path).name == "evidence.oasis.json":
            raise OSError("disk full")
        stage(files, path, data)

    monkeypatch.setattr(FileSet, "stage", fail_on_oasis)
    scenario, session = _run.start_session(scenario_file, None)
    outcome = _run.run_agent(session, load_agent("diagnoser").factory())
    with pytest.raises(OSError):
        _run.write_run(out, scenario, scenario_file, outcome.evidence)
    # The old verdict and signature are gone, none of the new files is published and no staged
    # file is left: the old evidence stands alone, a folder recognisably incomplete.
    assert "noop" in (out / "evidence.json").read_text(encoding="utf-8")
    assert not (out / "verdict.json").exists()
    assert not (out / "run.dsse.json").exists()
    assert sorted(p.name for p in out.iterdir()) == ["evidence.json", "evidence.oasis.json"]


def _ran(scenario_file: Path, agent: str, out: Path) -> Path:
    """`si run SCENARIO --agent AGENT --out OUT`, which must succeed; its folder."""
    result = _run("run", str(scenario_file), "--agent", agent, "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


def _run_ok(*args: str) -> bool:
    result = _run(*args)
    return result.returncode == 0


AGENTS = """
import sys

from provebench.si.agents import Answer


class Exiting:
    name = "exiting"
    version = "0"

    def run(self, task, call):
        call("orchestration_list", {"kind": "pod"})
        sys.exit(0)


class Odd:
    name = "odd"
    version = "0"

    def run(self, task, call):
        raise ValueError("x\\u202eY\\nZ\\x1b[31m")
"""


def _agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "agents.py"
    path.write_text(AGENTS, encoding="utf-8")
    return path


def test_an_agent_calling_sys_exit_is_recorded_and_the_run_written(
    scenario_file: Path, tmp_path: Path
) -> None:
    """sys.exit(0) in the agent used to end provebench with exit 0 and nothing written."""
    out = tmp_path / "out"
    agent = f"{_agent_file(tmp_path)}:Exiting"
    result = _run("run", str(scenario_file), "--agent", agent, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "(1 tool calls; agent_error: SystemExit: 0)" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    assert json.loads((out / "evidence.json").read_text())["final_answer"] == ""


def test_the_agents_error_text_is_printed_escaped_on_one_line(
    scenario_file: Path, tmp_path: Path
) -> None:
    agent = f"{_agent_file(tmp_path)}:Odd"
    result = _run("run", str(scenario_file), "--agent", agent, "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "agent_error: ValueError: x\\u202eY\\nZ\\x1b[31m)" in result.stdout


def test_a_file_size_limit_met_while_writing_is_one_line_naming_the_output(
    scenario_file: Path, tmp_path: Path
) -> None:
    """A limit below the verdict's size (which fits the write buffer, so it fails only when
    flushed, and again when closed) is one line naming verdict.json, exit 2; never exit 3."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (3072, 3072))

    out = tmp_path / "out"
    result = subprocess.run(
        [*PROVEBENCH, "si", "run", str(scenario_file), "--agent", "noop", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=limited,  # only sets the limit, before the child runs anything
    )
    assert result.returncode == 2, result.stderr
    assert (
        result.stderr
        == f"provebench: error: {out / 'verdict.json'}: cannot write: File too large\n"
    )
    assert not (out / "verdict.json").exists()
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_reading_strict_gives_the_written_verdict_si_score_gives_with_it(
    scenario_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    ran = _run(
        "run", str(scenario_file), "--agent", "diagnoser", "--out", str(out), "--reading", "strict"
    )
    assert ran.returncode == 0, ran.stderr
    scored = _run("score", str(scenario_file), str(out / "evidence.json"), "--reading", "strict")
    assert scored.returncode == 0
    _assert_rescored_is_the_written_verdict_unsealed(scored.stdout, out / "verdict.json")
    verdict = json.loads(scored.stdout)
    assert verdict["reading"] == "strict"
    assert verdict["ratified"]["band"] == verdict["band"] == "correct_root_cause"
    assert verdict["strict"]["same_as_ratified"] is True
