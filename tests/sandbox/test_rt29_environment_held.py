"""What every sandbox shows of provebench's own environment holds no code the seal does not
(pilot red team 29; issue 40, "a seal binds every byte that runs").

* A2: a module planted in provebench's `site-packages/__pycache__` imports (`__pycache__` is a
  namespace package) and the environment check skipped every `__pycache__`.
* A2b: a listed module's `.pyc` replaced, its source and header kept, ran in every cycle.
* A1: a command naming provebench's base interpreter ran with that interpreter's
  `site-packages`, never checked.
* A7: under an editable install an untracked module in provebench's package folder ran.
"""

from __future__ import annotations

import os
import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot._seal import candidate_identity, seal_candidate
from provebench.sandbox import _environment, _policy
from provebench.sandbox._environment import (
    foreign_code,
    package_folder_code,
    site_folders,
    standard_library_code,
)
from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._policy import (
    BYTECODE_OPTIONS,
    PACKAGE_DIR,
    SANDBOX_ENV,
    policy_for,
    unchecked_site_folders,
)
from tests.pilot.record.test_seal_holds_what_runs import fake_site

TAG = sys.implementation.cache_tag


# -- A2: a `__pycache__` is walked like any folder -------------------------------------------------
@pytest.mark.parametrize(
    "planted",
    [
        "__pycache__/rt29pay.py",  # `import __pycache__.rt29pay`
        "__pycache__/rt29pay.pyc",  # the same, sourceless
        f"__pycache__/rt29pay.{TAG}.pyc",  # a cache of no listed source
        "__pycache__/sub/x.py",
    ],
)
def test_a_module_planted_in_a_bytecode_cache_is_foreign_code(tmp_path: Path, planted: str) -> None:
    site = fake_site(tmp_path / "site-packages")
    (site / "__pycache__").mkdir()
    (site / "__pycache__" / f"provebench.{TAG}.pyc").write_bytes(b"")
    (site / "__pycache__" / f"provebench.{TAG}.opt-1.pyc").write_bytes(b"")
    # pytest's rewrite of a plugin module for its asserts, written beside it
    (site / "__pycache__" / f"provebench.{TAG}-pytest-9.2.0.pyc").write_bytes(b"")
    assert foreign_code([site]) is None  # bytecode written for a listed source
    (site / planted).parent.mkdir(parents=True, exist_ok=True)
    (site / planted).write_bytes(b"")
    assert foreign_code([site]) == (site / planted, "holds a file no installed distribution lists")


def test_a_seal_refuses_a_module_in_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "shim"
    code.mkdir()
    (code / "shim.py").write_text("class A: pass\n", encoding="utf-8")
    candidate = candidate_identity(f"{code / 'shim.py'}:A", None)
    site = fake_site(tmp_path / "site-packages")
    (site / "__pycache__").mkdir()
    (site / "__pycache__" / "rt29pay.py").write_text("pass\n", encoding="utf-8")
    monkeypatch.setattr(_environment, "site_folders", lambda: [site])
    with pytest.raises(ProvebenchError, match=r"__pycache__/rt29pay\.py") as refused:
        seal_candidate(tmp_path / "seal", candidate, "control")
    assert "the environment holds code the seal does not" in str(refused.value)
    assert not (tmp_path / "seal").exists()


# -- A2b: no Python in a sandbox reads bytecode beside a source ------------------------------------
def _forged_module(folder: Path) -> None:
    """`mod.py` whose cache holds other code under its own header (its mtime and size kept)."""
    folder.mkdir()
    source = folder / "mod.py"
    marker = "open('/sandbox/work/ran.txt', 'w').write('{}')\n"
    source.write_text(marker.format("BYTECODE"), encoding="utf-8")
    py_compile.compile(str(source), cfile=str(folder / "__pycache__" / f"mod.{TAG}.pyc"))
    status = source.stat()
    source.write_text(marker.format("SOURCE!!"), encoding="utf-8")  # same size
    os.utime(source, ns=(status.st_atime_ns, status.st_mtime_ns))


def _ran_in_sandbox(lib: Path, private: Path, argv: list[str], env: dict[str, str]) -> str:
    (private / "work").mkdir(parents=True)
    # The folder shown from the host as it is, like provebench's own environment.
    policy = policy_for([lib], {})
    run = run_sandboxed(policy, argv, private_dir=private, env=env, timeout=60)
    assert run.returncode == 0
    return (private / "work" / "ran.txt").read_text(encoding="utf-8")


@pytest.mark.timeout(120)
def test_a_forged_cache_beside_a_shown_source_is_never_read(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    _forged_module(lib)
    code = f"import sys; sys.path.insert(0, {str(lib)!r}); import mod"
    env = {k: v for k, v in SANDBOX_ENV.items() if k != "PYTHONPYCACHEPREFIX"}
    # The forgery is one Python takes: without the prefix, the cache runs.
    plain = [sys.executable, "-c", code]
    assert _ran_in_sandbox(lib, tmp_path / "a", plain, env) == "BYTECODE"
    assert _ran_in_sandbox(lib, tmp_path / "b", plain, SANDBOX_ENV) == "SOURCE!!"
    # The laboratory's own launches run isolated (`-I` ignores PYTHON* variables): `-X` holds.
    isolated = [sys.executable, "-I", *BYTECODE_OPTIONS, "-c", code]
    assert _ran_in_sandbox(lib, tmp_path / "c", isolated, env) == "SOURCE!!"


# -- A1: the base interpreter's site-packages is shown empty ---------------------------------------
def _fake_installation(prefix: Path) -> Path:
    site = prefix / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    (prefix / "lib" / "python3.11" / "os.py").write_text("", encoding="utf-8")
    (site / "rt29base.py").write_text("pass\n", encoding="utf-8")
    (site / "zz.pth").write_text("import rt29base\n", encoding="utf-8")
    return site


@pytest.mark.timeout(120)
def test_a_base_interpreters_site_packages_is_shown_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "base"
    site = _fake_installation(base)
    own = _policy.own_interpreter_paths()
    monkeypatch.setattr(_policy, "own_interpreter_paths", lambda: [*own, base])
    assert site in unchecked_site_folders()
    assert not any(folder in unchecked_site_folders() for folder in site_folders())
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True)
    listing = (
        f"import os; open('/sandbox/work/ran.txt', 'w').write(repr(os.listdir({str(site)!r})))"
    )
    policy = policy_for([], {})
    run = run_sandboxed(
        policy, [sys.executable, "-c", listing], private_dir=private, env=SANDBOX_ENV, timeout=60
    )
    assert run.returncode == 0
    assert (private / "work" / "ran.txt").read_text(encoding="utf-8") == "[]"
    # A candidate kept there is refused in one line: it would be shown empty.
    (site / "cand.py").write_text("class A: pass\n", encoding="utf-8")
    with pytest.raises(ProvebenchError, match="site-packages of provebench's base interpreter"):
        policy_for([site / "cand.py"], {})


def test_this_laboratorys_base_interpreter_is_no_unchecked_environment() -> None:
    """Whatever this machine's base Python holds, no sandbox shows it."""
    checked = set(site_folders())
    for folder in unchecked_site_folders():
        assert folder not in checked
        policy = policy_for([], {})
        assert (folder, folder) in policy.masks


# -- A1, not played: the base interpreter's standard library folders ------------------------------
@pytest.mark.parametrize(
    "planted",
    [
        "sitecustomize.py",
        "googleapiclient/__init__.py",
        "__pycache__/rt29pay.py",
        "evil.pth",
        "_testpay.py",
        "lib-dynload/rt29.cpython-311-x86_64-linux-gnu.so",
    ],
)
def test_a_module_added_beside_the_standard_library_is_foreign(
    tmp_path: Path, planted: str
) -> None:
    stdlib = tmp_path / "lib" / "python3.11"
    dynload = stdlib / "lib-dynload"
    dynload.mkdir(parents=True)
    for name in ("json/__init__.py", "os.py", f"__pycache__/os.{TAG}.pyc", "__hello__.py"):
        (stdlib / name).parent.mkdir(parents=True, exist_ok=True)
        (stdlib / name).write_text("", encoding="utf-8")
    (dynload / "_json.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert standard_library_code([stdlib, dynload]) is None
    (stdlib / planted).parent.mkdir(parents=True, exist_ok=True)
    (stdlib / planted).write_text("", encoding="utf-8")
    found = standard_library_code([stdlib, dynload])
    top = stdlib / planted.split("/")[0]
    assert found is not None and found[0] in (top, stdlib / planted), found
    if planted.startswith("lib-dynload/"):
        assert found[0] == stdlib / planted


def test_a_zip_at_the_standard_librarys_place_is_foreign(tmp_path: Path) -> None:
    archive = tmp_path / "python311.zip"
    assert standard_library_code([archive]) is None  # the usual: nothing there
    archive.write_bytes(b"PK")
    assert standard_library_code([archive]) == (
        archive,
        "holds a file on the import path where a standard library folder is",
    )


# -- A7: an editable install's package folder holds its tracked files only ----------------------
def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


def _tracked_package(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    package = tree / "src" / "pkg"
    package.mkdir(parents=True)
    _git(tree, "init", "-q")
    for name in ("__init__.py", "_fast.c", "data.json"):
        (package / name).write_text("", encoding="utf-8")
    _git(tree, "add", ".")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / f"__init__.{TAG}.pyc").write_bytes(b"")
    for suffix in (".cpython-311-x86_64-linux-gnu.so", ".abi3.so"):
        (package / f"_fast{suffix}").write_bytes(b"")  # the build's accelerator
    return package


@pytest.mark.parametrize("planted", ["_rt29pay.py", "__pycache__/_rt29pay.py", "sub/x.py", "x.so"])
def test_an_untracked_file_in_an_editable_package_folder_is_foreign(
    tmp_path: Path, planted: str
) -> None:
    package = _tracked_package(tmp_path)
    assert package_folder_code(package, []) is None
    (package / planted).parent.mkdir(parents=True, exist_ok=True)
    (package / planted).write_text("", encoding="utf-8")
    assert package_folder_code(package, []) == (
        package / planted,
        "holds a file provebench's source tree does not track",
    )
    # Inside a checked site-packages its RECORD decides (`foreign_code`), not git.
    assert package_folder_code(package, [package.parent]) is None


def test_an_editable_package_folder_outside_git_is_refused(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")  # in no git index
    found = package_folder_code(package, [])
    assert found is not None and found[0] == package and "outside a git checkout" in found[1]


def test_a_seal_refuses_an_untracked_module_in_provebenchs_package_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "shim"
    code.mkdir()
    (code / "shim.py").write_text("class A: pass\n", encoding="utf-8")
    candidate = candidate_identity(f"{code / 'shim.py'}:A", None)
    package = _tracked_package(tmp_path)
    monkeypatch.setattr(_policy, "PACKAGE_DIR", package)
    monkeypatch.setattr(_environment, "site_folders", list)
    (package / "_rt29pay.py").write_text("pass\n", encoding="utf-8")
    with pytest.raises(ProvebenchError, match=r"package folder holds a file .* does not track"):
        seal_candidate(tmp_path / "seal", candidate, "control")
    assert not (tmp_path / "seal").exists()


def test_provebenchs_own_environment_holds_only_its_own_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The honest control: this checkout's environment and package folder pass — with the
    folder of the script that started provebench first on its path (`.venv/bin`, for the
    `provebench` command), which is no standard library folder."""
    monkeypatch.syspath_prepend(str(Path(sys.executable).parent))
    assert foreign_code(site_folders()) is None
    assert package_folder_code(PACKAGE_DIR, site_folders()) is None
    entries = _environment.standard_library_entries(site_folders(), _policy.own_interpreter_paths())
    assert standard_library_code(entries) is None
