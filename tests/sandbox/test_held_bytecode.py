"""The bytecode a sandboxed Python reads is the laboratory's own, compiled outside any sandbox and
shown read-only (`sandbox/_bytecode.py`; issue 40, pilot red team 29, A2b): Python there reads
its entries, writes none, and never runs one its source no longer matches.
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from provebench.sandbox._bytecode import (
    BYTECODE_OPTIONS,
    HELD_BYTECODE,
    build_bytecode,
    entry_for,
    held_bytecode,
)
from provebench.sandbox._launch import run_sandboxed
from provebench.sandbox._policy import (
    SANDBOX_ENV,
    bytecode_roots,
    bytecode_skipped,
    policy_for,
)


def _module(lib: Path, said: str) -> Path:
    lib.mkdir(exist_ok=True)
    source = lib / "mod.py"
    source.write_text(f"print({said!r})\n", encoding="utf-8")
    return source


def _imported(lib: Path, prefix: Path) -> str:
    """What `import mod` prints in a Python that looks for bytecode under `prefix` only."""
    ran = subprocess.run(
        [
            sys.executable,
            "-I",
            "-X",
            f"pycache_prefix={prefix}",
            "-c",
            f"import sys; sys.path[:0] = [{str(lib)!r}]; import mod",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return ran.stdout.strip()


def test_an_entry_whose_source_changed_is_never_run(tmp_path: Path) -> None:
    """A source changed after the build, its size and time kept (what the build's own skip test
    cannot see), runs as it now reads: Python checks each entry's source hash."""
    source = _module(tmp_path / "lib", "OLD")
    build_bytecode(tmp_path / "held", [tmp_path / "lib"])
    entry = entry_for(tmp_path / "held", source)
    assert entry.is_file()
    status = source.stat()
    source.write_text("print('NEW')\n", encoding="utf-8")
    os.utime(source, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert _imported(tmp_path / "lib", tmp_path / "held") == "NEW"
    # The stale entry is kept by the skip test, and still never run.
    build_bytecode(tmp_path / "held", [tmp_path / "lib"])
    assert _imported(tmp_path / "lib", tmp_path / "held") == "NEW"


def test_an_entry_is_what_python_reads_for_its_source(tmp_path: Path) -> None:
    """The control for the test above: an entry that matches its source's hash is read (other
    code under that source's hash runs), so the hash check is what keeps a stale entry out."""
    source = _module(tmp_path / "lib", "SOURCE")
    build_bytecode(tmp_path / "held", [tmp_path / "lib"])
    entry = entry_for(tmp_path / "held", source)
    header = entry.read_bytes()[:16]
    other = compile("print('ENTRY')\n", str(source), "exec")
    entry.write_bytes(header + marshal.dumps(other))
    assert _imported(tmp_path / "lib", tmp_path / "held") == "ENTRY"


def test_the_build_compiles_once_and_again_what_changed(tmp_path: Path) -> None:
    source = _module(tmp_path / "lib", "ONE")
    (tmp_path / "lib" / "keys").mkdir()
    (tmp_path / "lib" / "keys" / "answer.py").write_text("KEY = 1\n", encoding="utf-8")
    (tmp_path / "lib" / "__pycache__").mkdir()
    (tmp_path / "lib" / "__pycache__" / "planted.py").write_text("", encoding="utf-8")
    held = tmp_path / "held"
    build_bytecode(held, [tmp_path / "lib"], [tmp_path / "lib" / "keys"])
    assert sorted(p.name for p in held.rglob("*.pyc")) == [
        f"mod.{sys.implementation.cache_tag}.pyc"
    ]
    assert (held.stat().st_mode & 0o777) == 0o700
    entry = entry_for(held, source)
    first = entry.stat()
    build_bytecode(held, [tmp_path / "lib"])
    assert entry.stat().st_ino == first.st_ino  # up to date: not written again
    source.write_text("print('TWO')\n", encoding="utf-8")
    os.utime(source, ns=(first.st_mtime_ns + 10**9, first.st_mtime_ns + 10**9))
    build_bytecode(held, [tmp_path / "lib"])
    assert entry.stat().st_ino != first.st_ino
    assert _imported(tmp_path / "lib", held) == "TWO"


def test_a_link_at_the_held_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "held").symlink_to(tmp_path / "elsewhere")
    _module(tmp_path / "lib", "X")
    with pytest.raises(OSError, match="not a folder of this user's own"):
        build_bytecode(tmp_path / "held", [tmp_path / "lib"])
    assert not any((tmp_path / "elsewhere").iterdir())


def _in_sandbox(tmp_path: Path, command: list[str]) -> str:
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True)
    run = run_sandboxed(
        policy_for([], {}), command, private_dir=private, env=SANDBOX_ENV, timeout=60
    )
    assert run.returncode == 0
    return (private / "work" / "said.txt").read_text(encoding="utf-8")


@pytest.mark.timeout(300)
def test_a_sandboxed_python_reads_the_held_bytecode(tmp_path: Path) -> None:
    """`python -v` says which bytecode it accepted: the held entry of a standard module, both
    with the sandbox's environment and with the laboratory's isolated options."""
    held = held_bytecode(bytecode_roots(), bytecode_skipped())
    assert held is not None
    json_init = Path(importlib.util.find_spec("json").origin or "")  # type: ignore[union-attr]
    inside = Path(HELD_BYTECODE) / entry_for(held, json_init).relative_to(held)
    pythons = ([sys.executable], [sys.executable, "-I", *BYTECODE_OPTIONS])
    for number, python in enumerate(pythons):
        line = " ".join([*python, "-v", "-c", "'import json'", "2>/sandbox/work/said.txt"])
        said = _in_sandbox(tmp_path / str(number), ["/bin/sh", "-c", line])
        assert f"{inside} matches {json_init}" in said


@pytest.mark.timeout(300)
def test_the_held_bytecode_is_read_only_in_a_sandbox(tmp_path: Path) -> None:
    held = held_bytecode(bytecode_roots(), bytecode_skipped())
    assert held is not None
    tried = (
        "import os\n"
        "said = []\n"
        f"top = {HELD_BYTECODE!r}\n"
        "said.append(str(len(os.listdir(top)) > 0))\n"
        "for attempt in (lambda: open(top + '/x.pyc', 'wb'), lambda: os.mkdir(top + '/d'),\n"
        "                lambda: os.chmod(top, 0o777)):\n"
        "    try:\n"
        "        attempt()\n"
        "        said.append('WROTE')\n"
        "    except OSError as error:\n"
        "        said.append(str(error.errno))\n"
        "open('/sandbox/work/said.txt', 'w').write(' '.join(said))\n"
    )
    said = _in_sandbox(tmp_path, [sys.executable, "-c", tried]).split()
    assert said[0] == "True"  # the folder is there, with entries
    assert "WROTE" not in said
    assert not (held / "x.pyc").exists()
    assert not (held / "d").exists()


def test_a_folder_built_for_this_environment_is_not_walked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walk rides on the environment digest (`built_for_environment`): a folder stamped with
    the digest this process computed is not walked; another digest, or none, walks it."""
    from provebench.sandbox import _bytecode

    lib = tmp_path / "lib"
    _module(lib, "ONE")
    walks: list[Path] = []
    real_build = _bytecode.build_bytecode

    def counted(folder: Path, sources: list[Path], skip: list[Path]) -> None:
        walks.append(folder)
        real_build(folder, sources, skip)

    monkeypatch.setattr(_bytecode, "build_bytecode", counted)
    monkeypatch.setattr(_bytecode, "private_root", lambda: tmp_path)
    monkeypatch.setattr(_bytecode, "_built", [])
    monkeypatch.setattr(_bytecode, "_environment", [])

    def held() -> Path | None:
        _bytecode._built.clear()  # a new process
        return held_bytecode([lib], [])

    folder = held()  # no digest known: walked, not stamped
    assert folder is not None and len(walks) == 1
    held()
    assert len(walks) == 2
    _bytecode.built_for_environment("a" * 64)
    held()  # walked, then stamped for "a…"
    held()  # the same environment: not walked
    assert len(walks) == 3
    _bytecode.built_for_environment("b" * 64)
    held()  # another environment: walked again
    assert len(walks) == 4
    assert _imported(lib, folder) == "ONE"
