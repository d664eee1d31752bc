"""A seal holds the candidate's own interpreter (docs/attestation.md, "The seal binds what runs").

Red team round 16, A2: `pilot seal --agent-cmd "venv/bin/python -m evilimp"` sealed only
`venv/bin` (the folder of the one file the command names); the venv's `site-packages`, where
`evilimp` lives, was shown to every run from the host, neither copied nor identified. A module
swapped in after `pilot control` ran under the seal's identity and earned the fresh control.
Now whatever the sandbox shows of the command's interpreter that is not the system's or
provebench's own is sealed with its code, and a run from a seal refuses to show an interpreter
the seal does not hold.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.pilot._seal import (
    SealedCandidate,
    candidate_identity,
    generate_control,
    seal_candidate,
)
from tests.helpers.pilot_lab import run_cli

# Seconds (a venv made, sandboxed runs of a control corpus): in `make test`, not `make check`.
pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]

SITE = f"lib/python{sys.version_info.major}.{sys.version_info.minor}/site-packages"


def make_venv(venv: Path) -> Path:
    """A candidate's own venv (no pip: a handful of files), and its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    return venv / SITE


def swap_module(module: Path) -> None:
    """What the red team did after the control existed: another importer in the module's place
    (here one that fails, so that a cycle that runs it shows as `agent_error`)."""
    module.write_text("raise SystemExit(3)\n", encoding="utf-8")


def run_from_seal(seal: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("pilot", "run", "--corpus", str(tmp_path / "control"), "--from-seal",
                   str(seal), "--out", str(tmp_path / "run"), "--quiet", timeout=240)  # fmt: skip


def test_a_module_command_seals_the_venv_it_runs_from(tmp_path: Path) -> None:
    """The identity holds the whole venv — its site-packages, a `.pth` file, pyvenv.cfg — so a
    byte changed in any of them is another candidate."""
    site = make_venv(tmp_path / "venv")
    (site / "evilimp").mkdir()
    (site / "evilimp" / "__main__.py").write_text("pass\n", encoding="utf-8")
    command = f"{tmp_path / 'venv' / 'bin' / 'python'} -m evilimp"
    sealed = candidate_identity(None, command)
    assert sealed.shown == (tmp_path / "venv",)
    before = sealed.identity["code_sha256"]
    (site / "extra.pth").write_text("/elsewhere\n", encoding="utf-8")
    with_pth = candidate_identity(None, command).identity["code_sha256"]
    assert with_pth != before
    config = tmp_path / "venv" / "pyvenv.cfg"
    config.write_text(config.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert candidate_identity(None, command).identity["code_sha256"] != with_pth


def test_a_module_swapped_into_the_venv_after_sealing_never_runs(tmp_path: Path) -> None:
    """The red team's attack: `-m MOD` from the candidate's venv, MOD swapped after the control
    was made. The run from the seal runs the sealed `pass` (no cycle fails)."""
    site = make_venv(tmp_path / "venv")
    (site / "evilimp").mkdir()
    module = site / "evilimp" / "__main__.py"
    module.write_text("pass\n", encoding="utf-8")
    seal = tmp_path / "seal"
    seal_candidate(
        seal, candidate_identity(None, f"{tmp_path / 'venv/bin/python'} -m evilimp"), "control"
    )
    generate_control(seal, tmp_path / "control", load_trusted_key())
    swap_module(module)
    ran = run_from_seal(seal, tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "agent_error" not in ran.stdout, ran.stdout


def test_a_venv_inside_the_sealed_code_folder_is_shown_only_from_the_seal(
    tmp_path: Path,
) -> None:
    """The venv inside the script's own folder: sealed with the folder, and never bound again
    from the host over the sealed bytes (it was, as the interpreter, after the held code)."""
    code = tmp_path / "code"
    code.mkdir()
    site = make_venv(code / "venv")
    (site / "steer.py").write_text("VALUE = 0\n", encoding="utf-8")
    (code / "main.py").write_text("import steer\nraise SystemExit(steer.VALUE)\n", "utf-8")
    seal = tmp_path / "seal"
    sealed = candidate_identity(None, f"{code / 'venv/bin/python'} {code / 'main.py'}")
    assert sealed.shown == (code,)
    seal_candidate(seal, sealed, "control")
    generate_control(seal, tmp_path / "control", load_trusted_key())
    swap_module(site / "steer.py")
    ran = run_from_seal(seal, tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert "agent_error" not in ran.stdout, ran.stdout


def test_a_seal_that_does_not_hold_the_interpreter_starts_no_run(tmp_path: Path) -> None:
    """A seal of an earlier build held only the command's files (`venv/bin`): a run from it
    would show the venv's site-packages unsealed. One line naming the venv, nothing run."""
    site = make_venv(tmp_path / "venv")
    (site / "evilimp").mkdir()
    (site / "evilimp" / "__main__.py").write_text("pass\n", encoding="utf-8")
    command = f"{tmp_path / 'venv/bin/python'} -m evilimp"
    full = candidate_identity(None, command)
    older = SealedCandidate(full.identity, (tmp_path / "venv" / "bin",), argv=full.argv)
    seal = tmp_path / "seal"
    seal_candidate(seal, older, "control")
    generate_control(seal, tmp_path / "control", load_trusted_key())
    ran = run_from_seal(seal, tmp_path)
    assert ran.returncode == 2
    [line] = ran.stderr.splitlines()
    assert f"interpreter {tmp_path / 'venv'} is not in the seal" in line
    assert not (tmp_path / "run").exists()
