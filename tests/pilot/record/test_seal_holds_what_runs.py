"""A seal holds the code that runs, or there is no seal (pilot red team 28, H5).

`pilot seal --agent-cmd "python -m rt28mod"` with `rt28mod` placed in provebench's own
environment sealed `{"files": []}`; `rt28mod` swapped after `pilot control` earned the fresh
control for another program. The same through a launcher script or a `path.py` shim importing a
module of provebench's `site-packages`. Now `-m MODULE` must name a module of the held code, a
seal holding no file is refused, and a seal or a run from one refuses an environment holding
code provebench's distributions do not ship.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot._seal import (
    SealedCandidate,
    candidate_identity,
    seal_candidate,
    sealed_code,
)
from provebench.sandbox import _environment
from provebench.sandbox._environment import foreign_code
from tests.helpers.pilot_lab import make_corpus, run_cli


def plant_module(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rt28mod` importable by provebench's interpreter, as when placed in its site-packages."""
    folder.mkdir()
    (folder / "rt28mod.py").write_text("raise SystemExit(0)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))


def test_a_module_of_provebenchs_environment_is_not_a_candidate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant_module(tmp_path / "shared", monkeypatch)
    for command in ("python -m rt28mod", "python -u -mrt28mod", "python -m json.tool"):
        with pytest.raises(ProvebenchError, match="names no module of the candidate's held"):
            candidate_identity(None, command)


def test_a_candidate_holding_no_file_is_not_sealed() -> None:
    with pytest.raises(ProvebenchError, match="holds no file"):
        candidate_identity(None, "/bin/true")


def test_an_older_seal_holding_no_file_starts_no_run(tmp_path: Path) -> None:
    """A seal an older build wrote for `python -m rt28mod`: its listing holds nothing."""
    argv = (sys.executable, "-m", "rt28mod")
    empty = SealedCandidate(
        {"spec": "cmd:python -m rt28mod", "code_sha256": "0" * 64}, (), argv=argv
    )
    seal_candidate(tmp_path / "seal", empty, "control")
    with pytest.raises(ProvebenchError, match="holds no file") as refused:
        sealed_code(tmp_path / "seal", load_trusted_key(None))
    assert "code.json" in str(refused.value)


def fake_site(site: Path, *, requires: str = "") -> Path:
    """A site-packages holding provebench's distribution (one module), as an installer leaves it."""
    site.mkdir(parents=True)
    info = site / "provebench-1.0.dist-info"
    info.mkdir()
    (site / "provebench.py").write_text("pass\n", encoding="utf-8")
    metadata = "Metadata-Version: 2.1\nName: provebench\nVersion: 1.0\n" + requires
    (info / "METADATA").write_text(metadata, encoding="utf-8")
    record = (
        "provebench.py,,\nprovebench-1.0.dist-info/METADATA,,\nprovebench-1.0.dist-info/RECORD,,\n"
    )
    (info / "RECORD").write_text(record, encoding="utf-8")
    return site


def test_code_no_distribution_of_provebench_ships_is_found(tmp_path: Path) -> None:
    site = fake_site(tmp_path / "clean" / "site-packages")
    assert foreign_code([site]) is None
    (site / "__pycache__").mkdir()
    (site / "__pycache__" / "provebench.cpython-311.pyc").write_bytes(b"")
    assert foreign_code([site]) is None  # Python's own bytecode of a listed source
    (site / "rt28mod.py").write_text("pass\n", encoding="utf-8")
    assert foreign_code([site]) == (
        site / "rt28mod.py",
        "holds a file no installed distribution lists",
    )
    (site / "rt28mod.py").unlink()
    (site / "zz.pth").write_text("import rt28inproc\n", encoding="utf-8")
    found = foreign_code([site])
    assert found is not None and found[0] == site / "zz.pth" and "path file" in found[1]
    (site / "zz.pth").unlink()
    other = site / "rt28cand-1.0.dist-info"  # installed beside provebench, RECORD and all
    other.mkdir()
    (other / "METADATA").write_text("Metadata-Version: 2.1\nName: rt28cand\nVersion: 1\n")
    (other / "RECORD").write_text("rt28cand-1.0.dist-info/METADATA,,\n", encoding="utf-8")
    found = foreign_code([site])
    assert found is not None and "'rt28cand', which provebench does not require" in found[1]


def test_a_required_distribution_is_provebenchs_environment(tmp_path: Path) -> None:
    site = fake_site(
        tmp_path / "site-packages", requires="Requires-Dist: Dep_Lib>=1; extra == 'x'\n"
    )
    info = site / "dep_lib-2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dep.lib\nVersion: 2\n")
    (info / "RECORD").write_text("dep_lib-2.dist-info/METADATA,,\ndep_lib-2.dist-info/RECORD,,\n")
    assert foreign_code([site]) is None


def test_a_seal_and_a_run_from_it_refuse_code_the_seal_does_not_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The in-process shim: `shim.py` imports the importer from provebench's site-packages."""
    code = tmp_path / "shim"
    code.mkdir()
    (code / "shim.py").write_text("from rt28inproc import Impl as A\n", encoding="utf-8")
    candidate = candidate_identity(f"{code / 'shim.py'}:A", None)
    site = fake_site(tmp_path / "site-packages")
    monkeypatch.setattr(_environment, "site_folders", lambda: [site])
    seal_candidate(tmp_path / "seal", candidate, "control")  # a clean environment: sealed
    (site / "rt28inproc.py").write_text("class Impl: pass\n", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="the environment holds code the seal does not"):
        sealed_code(tmp_path / "seal", load_trusted_key(None))
    with pytest.raises(ProvebenchError, match=r"rt28inproc\.py"):
        seal_candidate(tmp_path / "seal2", candidate, "control")
    assert not (tmp_path / "seal2").exists()


def test_an_unsealed_run_of_a_module_no_folder_holds_is_refused(tmp_path: Path) -> None:
    """`pilot run --agent-cmd "python -m MOD"`: the run's identity would name no byte of MOD
    (two different MODs recorded one `code_sha256`). One line, nothing run."""
    corpus = make_corpus(tmp_path / "corpus")
    ran = run_cli("pilot", "run", "--corpus", str(corpus), "--agent-cmd", "python -m json.tool",
                  "--out", str(tmp_path / "run"), "--quiet")  # fmt: skip
    assert ran.returncode == 2
    [line] = ran.stderr.splitlines()
    assert "`-m json.tool` names no module of the candidate's held code" in line
    assert not (tmp_path / "run" / "run.json").exists()
