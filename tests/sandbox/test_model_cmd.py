"""`--model-cmd`: a candidate's own OpenAI-compatible model server, started by provebench in the
sandbox and reached on its Unix socket, so a local model is evaluated sealed (docs/llm-agents.md).
The same server on a loopback port, started by the operator, could read the scenario
(tests/llm/test_endpoint_isolation.py); sealed, it cannot."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox.test_si_sealed import si_run

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]  # slow: not in make check

SERVER = Path(__file__).parents[1] / "helpers" / "model_server_program.py"


def _own_server(tmp_path: Path) -> Path:
    """The model server in a folder of its own: `tests/helpers` also holds `si_lab.py`, which
    writes the hidden scenario's prose, and is refused as a copy of it (sandbox red team 42)."""
    folder = tmp_path / "model"
    folder.mkdir(exist_ok=True)
    shutil.copyfile(SERVER, folder / SERVER.name)
    return folder / SERVER.name


def test_a_model_server_run_sealed_cannot_read_the_scenario_and_is_sealed(
    tmp_path: Path,
) -> None:
    """Named on its command line, the scenario is refused in one line before anything starts:
    a file argument is shown alone, and this one is hidden (pilot red team round 19). A server
    that names no file runs sealed."""
    scenario = tmp_path / "scenario.yaml"  # where si_run writes the fixture it runs
    named, _ = si_run(
        tmp_path, "--agent", "openai:tiny", extra=("--model-cmd", f"python3 {SERVER} {scenario}")
    )
    assert named.returncode == 2 and len(named.stderr.strip().splitlines()) == 1, named.stderr
    assert "--model-cmd" in named.stderr and "which a candidate may not see" in named.stderr
    assert not (tmp_path / "out").exists()
    command = f"python3 {_own_server(tmp_path)} x"
    result, evidence = si_run(tmp_path, "--agent", "openai:tiny", extra=("--model-cmd", command))
    assert result.returncode == 0, result.stderr
    assert scenario.is_file()
    assert evidence["final_answer"].startswith("could not read it: ")
    assert [action["tool"] for action in evidence["actions"]] == ["orchestration_list"]
    isolation = evidence["metadata"]["agent_isolation"]
    assert isolation["mode"] == "sandbox" and isolation["model_server"].startswith("external ")
    assert evidence["metadata"]["model"] == "tiny"
    verdict = json.loads((tmp_path / "out" / "verdict.json").read_text())
    assert verdict["sealed"] is True


@pytest.mark.parametrize(
    ("agent", "model_cmd", "field"),
    [
        (("--agent", "openai:tiny"), "python3 -c pass", "--model-cmd"),  # exits, never listens
        (("--agent", "noop"), f"python3 {SERVER} x", "--model-cmd"),
        (
            ("--agent", "openai:tiny", "--base-url", "http://127.0.0.1:9/v1"),
            f"python3 {SERVER} x",
            "--base-url",
        ),
    ],
)
def test_a_model_cmd_that_cannot_serve_is_one_line_and_exit_2(
    tmp_path: Path, agent: tuple[str, ...], model_cmd: str, field: str
) -> None:
    result, _ = si_run(tmp_path, *agent, extra=("--model-cmd", model_cmd))
    assert result.returncode == 2, result.stderr
    assert field in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (tmp_path / "out").exists()


@pytest.fixture
def socket_folder() -> Iterator[Path]:
    """A short private folder (mode 0700) for sockets: a socket's path is bound to about 107
    bytes (AF_UNIX), which `tmp_path` under a deep `$TMPDIR` passes ("AF_UNIX path too long")."""
    folder = Path(tempfile.mkdtemp(prefix="pb-sock-", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("kind", ["link", "file"])
def test_only_a_socket_itself_is_connected_to_never_a_link_or_a_file(
    socket_folder: Path, kind: str
) -> None:
    """The candidate writes in the folder that holds its socket: a link there to another socket
    of the operator's would otherwise redirect the laboratory's requests."""
    import socket

    from provebench.sandbox._model_server import _socket_fd

    elsewhere = socket_folder / "operator.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listening:
        listening.bind(str(elsewhere))
        listening.listen()
        planted = socket_folder / "model.sock"
        if kind == "link":
            planted.symlink_to(elsewhere)
        else:
            planted.write_text("not a socket")
        assert _socket_fd(planted) is None
        fd = _socket_fd(elsewhere)  # the real socket is accepted
        assert fd is not None
        os.close(fd)


def test_a_suite_runs_on_one_sealed_model_server_and_is_a_sealed_result(tmp_path: Path) -> None:
    import subprocess

    from tests.helpers.si_lab import write_fixture
    from tests.sandbox.test_si_sealed import PROVEBENCH

    scenario = write_fixture(tmp_path)
    out = tmp_path / "suite"
    command = f"python3 {_own_server(tmp_path)} x"  # naming the scenario is refused (above)
    result = subprocess.run(
        [*PROVEBENCH, "si", "suite", str(scenario), "--agent", "openai:tiny",
         "--model-cmd", command, "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=100,
    )  # fmt: skip
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sealed"] is True, result.stderr
    assert "UNSEALED" not in result.stdout
    [line] = summary["scenarios"]
    assert line["sealed"] is True and line["status"] == "SCORED"
    evidence = json.loads((out / line["evidence"]).read_text())
    assert evidence["final_answer"].startswith("could not read it: ")
