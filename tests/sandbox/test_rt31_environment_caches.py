"""Every `__pycache__` of provebench's environment is left out of its digest and shown empty
(pilot red team 31, A9).

A9: any `python -O` with provebench's interpreter on the host writes `*.opt-1.pyc` beside the
venv's sources, and every outstanding seal was then refused ("…opt-1.pyc was added"), though no
sandboxed Python reads those caches. They were hashed only because a candidate that clears
`sys.pycache_prefix` could read them; every sandbox now shows them empty (as the package folder's
were, pilot red team 30, A1) and the digest leaves them out.
"""

from __future__ import annotations

import os
import py_compile
import sys
from pathlib import Path

import pytest
import yaml

from provebench.sandbox import _manifest, _policy
from provebench.sandbox._manifest import environment_digest, forget_environment_digest
from provebench.sandbox._policy import policy_for
from tests.sandbox.environment_helpers import (
    fresh_digest,  # noqa: F401 (a fixture)
    sandboxed_python,
)

TAG = sys.implementation.cache_tag

pytestmark = pytest.mark.usefixtures("fresh_digest")


def test_an_optimised_run_on_the_host_leaves_the_digest_as_sealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A9 as played: a `.opt-1.pyc` (and a new `__pycache__`) written after the seal."""
    venv, base = tmp_path / "venv", tmp_path / "base"
    site = venv / "lib" / "python3.11" / "site-packages"
    stdlib = base / "lib" / "python3.11"
    for folder, name in [(site / "yaml", "__init__.py"), (stdlib, "os.py")]:
        folder.mkdir(parents=True)
        (folder / name).write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [venv, base])
    sealed = environment_digest()
    for source in [site / "yaml" / "__init__.py", stdlib / "os.py"]:
        py_compile.compile(
            str(source), cfile=f"{source.parent}/__pycache__/{source.stem}.{TAG}.opt-1.pyc"
        )
    forget_environment_digest()
    assert environment_digest() == sealed
    shown = policy_for([], {}).empty_caches
    assert {site / "yaml" / "__pycache__", stdlib / "__pycache__"} <= set(shown)


def _host_cache(source: Path) -> Path:
    """`source`'s cache beside it on the host, written if Python has not yet (it is honest)."""
    cached = Path(f"{source.parent}/__pycache__/{source.stem}.{TAG}.pyc")
    if not cached.exists():
        py_compile.compile(str(source), cfile=str(cached))
    return cached.parent


@pytest.mark.timeout(120)
def test_a_candidate_that_clears_the_prefix_finds_the_environments_caches_empty(
    tmp_path: Path,
) -> None:
    """In a real sandbox: the venv's and the standard library's caches, full on the host, are
    empty there, each a tmpfs of this launch's own of one page (sandbox red team 42, G2-1): no
    write reaches the host's, and none of more than a page fits."""
    venv_cache = _host_cache(Path(yaml.__file__))
    stdlib_cache = _host_cache(Path(os.__file__))
    assert any(venv_cache.iterdir()) and any(stdlib_cache.iterdir())  # full on the host
    environment_digest()  # as every launch's command computes it first
    code = (
        "import os, sys; sys.pycache_prefix = None\n"
        f"found = os.listdir({str(venv_cache)!r}) + os.listdir({str(stdlib_cache)!r})\n"
        "try:\n"
        f"    open({str(venv_cache / 'planted.pyc')!r}, 'wb').write(bytes(1 << 20))\n"
        "    found.append('written')\n"
        "except OSError:\n"
        "    pass\n"
        "open('/sandbox/work/found.txt', 'w').write(repr(found))\n"
    )
    work = sandboxed_python(tmp_path, code)
    assert (work / "found.txt").read_text(encoding="utf-8") == "[]"
    assert not (venv_cache / "planted.pyc").exists()


def test_caches_are_found_without_a_digest_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that computed no digest walks for them itself (fail closed, only slower)."""
    assert _policy.shown_empty_caches()  # no digest yet in this test
    assert Path(os.__file__).parent / "__pycache__" in _policy.shown_empty_caches()
