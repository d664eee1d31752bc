"""Pilot red team round 18: the host's temporary folder, the seal's file modes, pseudo files.

A3: with `TMPDIR` not `/tmp`, code kept directly in `$TMPDIR` showed that whole folder, and a
concurrent `pilot redteam`'s corpora in it (written there without `--out`). The seal's copy made
a file kept 0640 readable by everyone (0444). A code argument under `/proc` was refused only by
accident (hashing `/proc/PID/attr/current` failed).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from provebench._errors import ProvebenchError
from provebench.cli import app
from provebench.sandbox import _policy, _private, _pseudo_fs
from provebench.sandbox._code_copy import copy_code
from provebench.sandbox._containment import lies_inside
from provebench.sandbox._policy import PACKAGE_DIR, code_folder, command_code_paths, policy_for
from provebench.sandbox._private import private_root
from provebench.sandbox._pseudo_fs import pseudo_file_system


@pytest.fixture
def host_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The host's temporary folder moved to a folder of this test's (`TMPDIR` not `/tmp`), with
    another run's corpus in it as `pilot redteam` used to leave it."""
    temp = tmp_path / "hosttmp"
    victim = temp / "provebench-redteam-victim"
    victim.mkdir(parents=True)
    (victim / "expected_final_rows.csv").write_text("secret\n", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return temp


def test_code_kept_directly_in_the_host_temp_folder_is_shown_as_its_file_alone(
    host_temp: Path,
) -> None:
    importer = host_temp / "imp_a3.py"
    importer.write_text("print(1)\n", encoding="utf-8")
    assert code_folder(importer) == importer
    assert command_code_paths(["/usr/bin/python3", str(importer)]) == [importer]
    # A folder of its own inside the temporary folder is shown as any code folder is.
    (host_temp / "mine").mkdir()
    assert code_folder(host_temp / "mine" / "imp.py") == host_temp / "mine"


def test_no_policy_shows_the_host_temp_folder_or_a_folder_holding_it_by_any_spelling(
    host_temp: Path, tmp_path: Path
) -> None:
    link = tmp_path / "templink"
    link.symlink_to(host_temp)
    for folder in (host_temp, tmp_path, link):
        with pytest.raises(ProvebenchError, match="the host's temporary folder") as caught:
            policy_for([folder], {})
        assert "\n" not in caught.value.one_line()


def test_no_run_shows_provebench_own_package_where_it_holds_the_host_temp_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`TMPDIR` inside provebench's own installation: that folder, shown to every candidate,
    would show every run's temporary files; the run is refused instead."""
    code = tmp_path / "code"
    code.mkdir()
    monkeypatch.setattr(_policy, "host_temp_folder", lambda: PACKAGE_DIR / "tmp")
    with pytest.raises(ProvebenchError, match="the host's temporary folder") as caught:
        policy_for([code], {})
    assert str(PACKAGE_DIR) in caught.value.one_line()


def test_the_laboratory_own_working_folders_lie_in_the_private_root(
    host_temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pilot redteam` and `pilot serve` without `--out`: in the private root (hidden from every
    candidate), never loose in `$TMPDIR`."""
    seen: dict[str, Path] = {}

    class Stop(Exception):
        pass

    def redteam(target: Path, **_: Any) -> None:
        seen["redteam"] = target
        raise Stop

    def serve(corpus: Path, run_dir: Path, **_: Any) -> None:
        seen["serve"] = run_dir

    lab = host_temp.parent / "lab"
    lab.mkdir()
    monkeypatch.setattr(_private, "ROOT_PARENT", lab)  # not the machine's /tmp, in a test
    monkeypatch.setattr("provebench.pilot.redteam.run_redteam", redteam)
    monkeypatch.setattr("provebench.pilot.emulator._commands.serve_lab", serve)
    CliRunner().invoke(app, ["pilot", "redteam", "--quiet"])
    CliRunner().invoke(app, ["pilot", "serve", "--corpus", str(host_temp)])
    assert set(seen) == {"redteam", "serve"}
    for folder in seen.values():
        assert folder.parent == private_root()
        assert lies_inside(folder, lab) and not lies_inside(folder, host_temp)
        assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700


def test_the_seal_copy_keeps_each_mode_less_writing_never_wider(tmp_path: Path) -> None:
    code = tmp_path / "code"
    (code / "pkg").mkdir(parents=True)
    (code / "imp.py").write_text("print(1)\n", encoding="utf-8")
    (code / "tool.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (code / "pkg" / "mod.py").write_text("", encoding="utf-8")
    (code / "imp.py").chmod(0o640)
    (code / "tool.sh").chmod(0o750)
    (code / "pkg" / "mod.py").chmod(0o644)
    (code / "pkg").chmod(0o750)
    code.chmod(0o750)
    copy = tmp_path / "seal"
    copy_code([code], [], copy, field="--agent")
    modes = {
        name: stat.S_IMODE((copy / "0" / name).stat().st_mode)
        for name in ("imp.py", "tool.sh", "pkg/mod.py", "pkg", ".")
    }
    assert modes == {
        "imp.py": 0o440, "tool.sh": 0o550, "pkg/mod.py": 0o444, "pkg": 0o550, ".": 0o550,
    }  # fmt: skip


@pytest.mark.parametrize(
    "spelling", ["/proc/self/cmdline", "/proc/self/status", "/sys/power/state"]
)
def test_code_on_a_pseudo_file_system_is_refused_in_one_line(spelling: str) -> None:
    if not Path(spelling).is_file():
        pytest.skip(f"{spelling} is not on this machine")
    for call in (
        lambda: code_folder(Path(spelling)),
        lambda: command_code_paths(["/usr/bin/python3", spelling]),
        lambda: policy_for([Path(spelling)], {}),
    ):
        with pytest.raises(ProvebenchError, match="a file system the kernel writes") as caught:
            call()
        assert "\n" not in caught.value.one_line()
        assert "--agent" in caught.value.one_line()


def test_code_spelled_through_proc_is_refused_though_it_leads_elsewhere(tmp_path: Path) -> None:
    importer = tmp_path / "imp.py"
    importer.write_text("print(1)\n", encoding="utf-8")
    with importer.open("rb") as handle:
        spelled = Path(f"/proc/self/fd/{handle.fileno()}")
        assert os.path.realpath(spelled) == str(importer)
        with pytest.raises(ProvebenchError, match="lies under /proc"):
            code_folder(spelled)


def test_a_pseudo_file_system_is_told_by_its_type_wherever_it_is_mounted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    importer = tmp_path / "imp.py"
    importer.write_text("print(1)\n", encoding="utf-8")
    assert pseudo_file_system(importer) is None
    device = importer.stat().st_dev
    table = tmp_path / "mountinfo"
    table.write_text(
        f"21 1 {os.major(device)}:{os.minor(device)} / {tmp_path} rw,nosuid shared:7 - sysfs "
        "sysfs rw\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(_pseudo_fs, "MOUNTINFO", table)
    assert pseudo_file_system(importer) == "lies on a sysfs file system"
    with pytest.raises(ProvebenchError, match="sysfs"):
        code_folder(importer)
