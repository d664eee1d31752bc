"""Pilot red team 27, A2 and A1b–f: `held_command` looked the candidate's interpreter up twice —
once for what is held, once for what is mounted — and bound whatever the second look found
outside the held code live from disk. An installation planted between the two (`evil/lib/
python3.99/os.py`) ran, unwalked and unsealed, in every cycle of a sealed fresh control. Now the
look-up is made once, every mount of the candidate's comes from the held snapshot, a seal and a
run from one refuse a program whose link chain leads outside the seal, and an installation of
another user's is refused."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot._seal import candidate_identity
from provebench.pilot.emulator import _external
from provebench.sandbox import _held_command
from provebench.sandbox._containment import lies_inside
from provebench.sandbox._held_command import held_command, refuse_live_candidate_mounts
from provebench.sandbox._policy import (
    candidate_interpreter_code,
    policy_for,
    shown_to_every_candidate,
)

pytestmark = pytest.mark.timeout(120)


def _layout(tmp_path: Path) -> tuple[Path, list[str]]:
    """A2's layout: the program `x/bin/python3` links to `evil/bin/python3`, and `evil/` is no
    Python installation yet (no `lib/python3*/os.py`)."""
    evil = tmp_path / "evil"
    (evil / "bin").mkdir(parents=True)
    (evil / "lib").mkdir()
    (evil / "bin" / "python3").write_text("#!/bin/sh\necho unsealed\n", encoding="utf-8")
    (evil / "bin" / "python3").chmod(0o755)
    (tmp_path / "x" / "bin").mkdir(parents=True)
    (tmp_path / "x" / "bin" / "python3").symlink_to(evil / "bin" / "python3")
    (tmp_path / "imp").mkdir()
    (tmp_path / "imp" / "importer.py").write_text("print('importer')\n", encoding="utf-8")
    return evil, [str(tmp_path / "x" / "bin" / "python3"), str(tmp_path / "imp" / "importer.py")]


def _plant_installation(evil: Path) -> None:
    (evil / "lib" / "python3.99").mkdir()
    (evil / "lib" / "python3.99" / "os.py").write_text("", encoding="utf-8")


def _bound_from_host(args: Sequence[str]) -> list[Path]:
    return [Path(args[i + 1]) for i, arg in enumerate(args) if arg in ("--ro-bind", "--bind")]


def test_an_installation_planted_after_the_look_up_is_never_mounted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A1c, played without a race: the installation appears right after the one look-up."""
    evil, argv = _layout(tmp_path)
    look_up = _held_command.command_code_paths

    def then_plant(argv: Sequence[str], *, field: str) -> list[Path]:
        found = look_up(argv, field=field)
        _plant_installation(evil)
        return found

    monkeypatch.setattr(_held_command, "command_code_paths", then_plant)
    with contextlib.ExitStack() as resources:
        held = held_command(argv, {}, field="--model-cmd", resources=resources)
        opened: list[int] = []
        args = held.policy.bwrap_args(tmp_path / "private", opened=opened)
        for descriptor in opened:
            os.close(descriptor)
    assert not any(lies_inside(path, evil) for path in held.policy.code)
    assert not any(lies_inside(path, evil) for path in _bound_from_host(args))


def test_every_candidate_path_a_launch_binds_from_the_host_is_refused(tmp_path: Path) -> None:
    """The invariant itself: a policy showing a candidate folder not from the held snapshot
    never reaches a launch."""
    folder = tmp_path / "code"
    folder.mkdir()
    (folder / "a.py").write_text("", encoding="utf-8")
    with pytest.raises(RuntimeError, match="live from disk"):
        refuse_live_candidate_mounts(policy_for([folder], {}))


def test_a_held_policy_binds_only_what_every_candidate_is_shown(tmp_path: Path) -> None:
    _, argv = _layout(tmp_path)
    shared = shown_to_every_candidate()
    with contextlib.ExitStack() as resources:
        held = held_command(argv, {}, field="--model-cmd", resources=resources)
        assert held.policy.held is not None
        live = [path for path in held.policy.code if path not in held.policy.held]
    assert all(any(lies_inside(path, folder) for folder in shared) for path in live)


def test_a_seal_of_a_program_leading_outside_the_seal_is_refused(tmp_path: Path) -> None:
    _, argv = _layout(tmp_path)
    with pytest.raises(ProvebenchError, match="evil/bin/python3"):
        candidate_identity(None, " ".join(argv))


def test_a_run_from_a_seal_whose_program_leads_outside_it_is_refused(tmp_path: Path) -> None:
    """An older seal made before the seal refused it: the run refuses it in one line."""
    _, argv = _layout(tmp_path)
    sealed = [tmp_path / "x" / "bin", tmp_path / "imp"]
    with pytest.raises(ProvebenchError, match="not in the seal"):
        _external._refuse_unsealed_interpreter(argv, sealed)


def test_a_bare_link_to_the_shared_interpreter_is_refused_and_the_interpreter_sealed(
    tmp_path: Path,
) -> None:
    """A bare link to provebench's own interpreter is no installation of the candidate's (no
    `pyvenv.cfg`: nothing of its folder is held), so the sandbox would not show it: the seal
    names the interpreter to use instead; named itself, it is sealed."""
    (tmp_path / "x" / "bin").mkdir(parents=True)
    (tmp_path / "x" / "bin" / "python3").symlink_to(sys.executable)
    (tmp_path / "imp").mkdir()
    (tmp_path / "imp" / "importer.py").write_text("print('importer')\n", encoding="utf-8")
    argv = [str(tmp_path / "x" / "bin" / "python3"), str(tmp_path / "imp" / "importer.py")]
    with pytest.raises(ProvebenchError, match="name the interpreter itself"):
        candidate_identity(None, " ".join(argv))
    direct = [sys.executable, argv[1]]
    assert candidate_identity(None, " ".join(direct)).argv == tuple(direct)


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_an_interpreter_installation_of_another_user_is_refused(tmp_path: Path) -> None:
    """A2 as `nobody`: the installation the program leads to belongs to another user."""
    evil, argv = _layout(tmp_path)
    _plant_installation(evil)
    os.chown(evil, 65534, 65534)
    with pytest.raises(ProvebenchError, match="belongs to another user"):
        candidate_interpreter_code(argv)


def test_a_file_argument_read_otherwise_by_the_kernel_than_its_spelling_is_refused(
    tmp_path: Path,
) -> None:
    """A13: `lnk/../../../c/other/x`, `lnk` leading three folders down: the kernel reads a file
    inside the candidate's folder, the spelling names another corpus's answer key."""
    from provebench.sandbox._policy import command_code_folders

    other = tmp_path / "c" / "other" / "expected_final_rows.csv"
    other.parent.mkdir(parents=True)
    other.write_text("answers\n", encoding="utf-8")
    a13 = tmp_path / "x" / "a13"
    fake = a13 / "c" / "other" / "expected_final_rows.csv"
    fake.parent.mkdir(parents=True)
    fake.write_text("fake\n", encoding="utf-8")
    (a13 / "d1" / "d2" / "d3").mkdir(parents=True)
    (a13 / "lnk").symlink_to(a13 / "d1" / "d2" / "d3")
    (a13 / "imp.py").write_text("", encoding="utf-8")
    spelled = f"{a13}/lnk/../../../c/other/expected_final_rows.csv"
    assert Path(spelled).read_text(encoding="utf-8") == "fake\n"  # the kernel's file
    assert Path(os.path.normpath(spelled)) == other  # the spelling's
    with pytest.raises(ProvebenchError, match="after a symbolic link"):
        command_code_folders(["/usr/bin/python3", str(a13 / "imp.py"), spelled])
