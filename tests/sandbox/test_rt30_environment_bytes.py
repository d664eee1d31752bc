"""provebench's environment, as every sandbox shows it, is bound by its bytes (pilot red team 30;
issue 40, "the seal binds the environment's bytes").

* A1: a candidate that sets `sys.pycache_prefix = None` read an unchecked `.pyc` planted beside
  provebench's source after the seal.
* A2: a module `git add`ed to the package folder, or a tracked module edited, after the seal.
* A3: a Windows-only standard module name (`winreg.py`) or `test/evil.py` in the standard library.
* A8: a file in the venv's `share/`, which the check never walked, `runpy`'d by the candidate.
* A12: a control matrix (any sandboxed launch that is no seal's) never checked the environment.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot._seal import (
    candidate_identity,
    generate_control,
    seal_candidate,
    sealed_code,
)
from provebench.pilot.record._seal import environment_problem
from provebench.sandbox import _environment, _manifest, _policy
from provebench.sandbox._isolation import ENVIRONMENT_KEY, isolation_of
from provebench.sandbox._manifest import (
    environment_digest,
    forget_environment_digest,
    refuse_changed_environment,
)
from provebench.sandbox._policy import policy_for
from tests.pilot.record.test_seal_holds_what_runs import fake_site
from tests.sandbox.environment_helpers import (
    fresh_digest,  # noqa: F401 (a fixture)
    sandboxed_python,
)

pytestmark = pytest.mark.usefixtures("fresh_digest")


@pytest.fixture
def environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A stand-in environment the manifest covers: a venv, a base installation, a package."""
    venv, base, package = tmp_path / "venv", tmp_path / "base", tmp_path / "pkg"
    for folder, name in [
        (venv / "lib" / "python3.11" / "site-packages", "dep.py"),
        (base / "lib" / "python3.11", "os.py"),
        (package, "_demo.py"),
    ]:
        folder.mkdir(parents=True)
        (folder / name).write_text("X = 1\n", encoding="utf-8")
    (venv / "share").mkdir()
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [venv, base, package])
    return {"venv": venv, "base": base, "package": package}


def _refusal(sealed: str) -> str:
    forget_environment_digest()
    with pytest.raises(ProvebenchError) as refused:
        refuse_changed_environment(sealed, path=Path("seal.json"), field=ENVIRONMENT_KEY)
    return str(refused.value)


@pytest.mark.parametrize(
    ("root", "planted"),
    [
        ("venv", "share/rt30/helper.py"),  # A8: outside site-packages
        ("package", "_helper.py"),  # A2: git add makes no difference to bytes
        ("base", "lib/python3.11/winreg.py"),  # A3: a standard name, absent on Linux
        ("base", "lib/python3.11/test/evil.py"),  # A3: the test folder
    ],
)
def test_a_file_added_after_the_seal_is_refused_naming_it(
    environment: dict[str, Path], root: str, planted: str
) -> None:
    sealed = environment_digest()
    refuse_changed_environment(sealed, path=Path("seal.json"), field=ENVIRONMENT_KEY)
    target = environment[root] / planted
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("from provebench.pilot.agents._reference import *\n", encoding="utf-8")
    said = _refusal(sealed)
    assert f"{environment[root] / planted} was added" in said
    assert "provebench's environment is not the one sealed" in said


def test_an_edit_that_keeps_size_and_time_is_still_seen(environment: dict[str, Path]) -> None:
    """A2's edit of a tracked file, its size and modification time restored: the digest cache's
    key holds the change time, which no user sets, so the bytes are read again."""
    sealed = environment_digest()
    source = environment["package"] / "_demo.py"
    status = source.stat()
    source.write_text("X = 2\n", encoding="utf-8")
    os.utime(source, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert f"{source} was changed" in _refusal(sealed)


def test_a_removed_file_and_a_seal_without_a_digest_are_refused(
    environment: dict[str, Path],
) -> None:
    sealed = environment_digest()
    (environment["base"] / "lib" / "python3.11" / "os.py").unlink()
    assert "os.py was removed" in _refusal(sealed)
    with pytest.raises(ProvebenchError, match="binds no environment digest"):
        refuse_changed_environment(None, path=Path("seal.json"), field=ENVIRONMENT_KEY)


def test_the_package_folders_bytecode_is_not_bound_but_shown_empty(
    environment: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host writes the package's caches as it imports: they are left out of the manifest,
    and every sandbox shows them empty instead (A1, played below)."""
    package = environment["package"]
    monkeypatch.setattr(_policy, "PACKAGE_DIR", package)
    sealed = environment_digest()
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "_demo.cpython-311.pyc").write_bytes(b"forged")
    forget_environment_digest()
    assert environment_digest() == sealed
    cache = package / "__pycache__"
    assert cache in policy_for([], {}).empty_caches


def _forged_cache(package: Path) -> None:
    """A1's plant: `_demo.py`'s cache, unchecked hash-based, holding other code."""
    source = package / "_demo.py"
    forged = compile("open('/sandbox/work/ran.txt', 'w').write('FORGED')\n", str(source), "exec")
    data = bytearray(importlib.util.MAGIC_NUMBER) + (1).to_bytes(4, "little")
    data += importlib.util.source_hash(source.read_bytes()) + marshal.dumps(forged)
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.parent.mkdir(exist_ok=True)
    cached.write_bytes(data)


@pytest.mark.timeout(120)
def test_a_cache_beside_the_package_source_is_not_read_with_the_prefix_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "_demo.py").write_text(
        "open('/sandbox/work/ran.txt', 'w').write('SOURCE')\n", encoding="utf-8"
    )
    _forged_cache(package)
    monkeypatch.setattr(_policy, "PACKAGE_DIR", package)
    code = (
        f"import sys; sys.pycache_prefix = None; sys.path.insert(0, {str(package)!r}); import _demo"
    )
    work = sandboxed_python(tmp_path, code)
    assert (work / "ran.txt").read_text(encoding="utf-8") == "SOURCE"


# -- The seal binds the digest; a run from it and its control refuse another --------------------
def test_a_seal_binds_the_environment_and_its_runs_refuse_a_change(
    tmp_path: Path, environment: dict[str, Path]
) -> None:
    trusted = load_trusted_key()
    seal = tmp_path / "seal"
    sealed = seal_candidate(seal, candidate_identity("reference", None), "control")
    assert sealed[ENVIRONMENT_KEY] == environment_digest()
    generate_control(seal, tmp_path / "control", trusted)  # the honest control
    assert sealed_code(seal, trusted).spec == "reference"
    helper = environment["venv"] / "share" / "rt30" / "helper.py"
    helper.parent.mkdir()
    helper.write_text("Impl = None\n", encoding="utf-8")
    forget_environment_digest()
    with pytest.raises(ProvebenchError, match=r"share/rt30/helper\.py was added"):
        sealed_code(seal, trusted)
    with pytest.raises(ProvebenchError, match=r"share/rt30/helper\.py was added"):
        generate_control(seal, tmp_path / "control-2", trusted)


def test_a_fresh_control_run_must_record_the_sealed_environment() -> None:
    sealed = {ENVIRONMENT_KEY: "a" * 64}
    assert environment_problem(sealed, {ENVIRONMENT_KEY: "a" * 64}) is None
    assert "not the one sealed" in str(environment_problem(sealed, {ENVIRONMENT_KEY: "b" * 64}))
    assert "not the one sealed" in str(environment_problem(sealed, {"mode": "sandbox"}))
    assert "binds no environment" in str(environment_problem({}, {ENVIRONMENT_KEY: "a" * 64}))


# -- A12: every sandboxed launch checks the environment, sealed or not ---------------------------
def test_every_sandboxed_launch_records_and_checks_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert isolation_of("0" * 64)[ENVIRONMENT_KEY] == environment_digest()
    site = fake_site(tmp_path / "site-packages")
    (site / "_helper.py").write_text("Impl = None\n", encoding="utf-8")
    roots = _manifest.environment_roots()
    monkeypatch.setattr(_environment, "site_folders", lambda: [site])
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [*roots, site])
    forget_environment_digest()
    with pytest.raises(ProvebenchError, match="the environment holds code the seal does not"):
        isolation_of("0" * 64)


def test_an_environment_that_passed_is_not_checked_again_unless_an_input_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The foreign-code check rides on the digest: the same bytes, import path and git index
    that passed once pass again without the walk; a change of any of them walks again."""
    checks: list[str] = []
    real_check = _environment.refuse_foreign_environment

    def counted(**given: object) -> None:
        checks.append("checked")
        real_check(**given)  # type: ignore[arg-type]

    monkeypatch.setattr(_environment, "refuse_foreign_environment", counted)
    monkeypatch.setattr(_manifest, "private_root", lambda: tmp_path)

    def launch() -> str:
        forget_environment_digest()  # a new command
        return _manifest.checked_environment_digest(field="--agent")

    digest = launch()
    assert (len(checks), launch()) == (1, digest)
    assert len(checks) == 1
    sites = _environment.site_folders()
    monkeypatch.setattr(_environment, "site_folders", lambda: [*sites, tmp_path / "site-packages"])
    launch()
    assert len(checks) == 2  # another site-packages on the import path
    monkeypatch.setattr(_environment, "site_folders", lambda: sites)
    launch()
    assert len(checks) == 2  # each import path keeps its own marker
    tracked = _environment.tracked_files(_policy.PACKAGE_DIR) or set()
    more = tracked | {str(_policy.PACKAGE_DIR / "_staged.py")}
    monkeypatch.setattr(_environment, "tracked_files", lambda _: more)
    launch()
    assert len(checks) == 3  # another git index
    launch()
    assert len(checks) == 3
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "more.py").write_text("X = 1\n", encoding="utf-8")
    roots = _manifest.environment_roots()
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [*roots, extra])
    launch()  # other bytes: another digest, checked again
    assert len(checks) == 4
