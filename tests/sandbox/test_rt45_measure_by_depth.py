"""The measure of a work folder walks by depth, and depth itself is bounded (sandbox red team 45,
F1, A2, A3 and A1).

F1/A2: the measure opened a descriptor for every subfolder as soon as it was listed, so an honest
importer's cache of 1 200 sibling folders under the common `ulimit -n` of 1024 failed every cycle
(`Too many open files`), its diagnostics dropped with `/sandbox` and its failure read as
concealed. A3: a chain of 3 000 nested folders passed the measure and failed the copy back with a
`RecursionError` shown as a missing folder. A1: the name checks walked with `os.walk`, which
ignores errors, so names under a path past PATH_MAX were never checked. The attacks are played
small: a lowered open-file limit, a chain one level past the bound.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._launch import sandbox_process
from provebench.sandbox._limits import Limits
from provebench.sandbox._policy import SANDBOX_ENV, SandboxPolicy
from provebench.sandbox._workdir import (
    MAX_TREE_DEPTH,
    measure_tree,
    name_not_utf8,
    name_unreadable,
    tree_path_bound,
    work_dir_refused,
)

MEASURE_UNDER_LOW_LIMIT = """
import resource, sys
from pathlib import Path
from provebench.sandbox._limits import Limits
from provebench.sandbox._workdir import measure_tree, work_dir_refused
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
root = Path(sys.argv[1])
print(measure_tree(root, Limits()).entries, work_dir_refused(root, Limits()))
"""


def _wide_cache(root: Path, folders: int) -> None:
    for index in range(folders):
        (root / f"item{index:05d}").mkdir()
        (root / f"item{index:05d}" / "meta.json").write_text('{"ok": true}\n', encoding="utf-8")


def test_a_wide_cache_is_measured_under_a_low_open_file_limit(tmp_path: Path) -> None:
    # F1 and A2, at a 64-descriptor limit: 300 sibling folders (each with a small file) and,
    # inside one of them, 200 more. Before, each listed folder held a descriptor: EMFILE.
    _wide_cache(tmp_path, 300)
    _wide_cache(tmp_path / "item00000", 200)
    said = subprocess.run(
        [sys.executable, "-c", MEASURE_UNDER_LOW_LIMIT, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert said.returncode == 0, said.stderr
    assert said.stdout.split() == [str(300 * 2 + 200 * 2), "None"]


def _chain(root: Path, depth: int, name: str = "a") -> Path:
    folder = root
    for _ in range(depth):
        folder = folder / name
    folder.mkdir(parents=True)
    return folder


def test_folders_nested_past_the_bound_are_refused_naming_it(tmp_path: Path) -> None:
    # A3, one level past the bound: before, the measure passed it and the copy recursed.
    _chain(tmp_path / "deep", MAX_TREE_DEPTH + 1)
    found = measure_tree(tmp_path / "deep", Limits())
    assert found.over and found.too_deep
    refused = work_dir_refused(tmp_path / "deep", Limits())
    assert refused is not None and refused[0] == "WorkDirectoryTooLarge"
    assert f"nested deeper than {MAX_TREE_DEPTH} levels" in refused[1]
    assert "MAX_TREE_DEPTH" in refused[1]
    assert str(tmp_path) not in refused[1]
    # The honest control: exactly at the bound, kept.
    _chain(tmp_path / "at", MAX_TREE_DEPTH)
    assert work_dir_refused(tmp_path / "at", Limits()) is None


def test_a_path_longer_than_the_bound_is_refused(tmp_path: Path) -> None:
    # A1's shape: a few long folder names make a path past what the host can name under the
    # folder (PATH_MAX less its own path: sandbox red team 46, F2) long before the depth bound.
    bound = tree_path_bound(tmp_path / "long")
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    os.mkdir("long", dir_fd=fd)
    held = os.open("long", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    for _ in range(bound // 200 + 1):  # made through held descriptors: past PATH_MAX
        os.mkdir("d" * 199, dir_fd=held)
        child = os.open("d" * 199, os.O_RDONLY | os.O_DIRECTORY, dir_fd=held)
        os.close(held)
        held = child
    os.close(held)
    refused = work_dir_refused(tmp_path / "long", Limits())
    assert refused is not None and refused[0] == "WorkDirectoryTooLarge"
    assert f"a path longer than {bound} bytes" in refused[1]
    assert "PATH_MAX" in refused[1]


def _past_path_max(root: Path) -> int:
    """Folders of 250-byte names nested past PATH_MAX, made through held descriptors; the
    descriptor of the deepest is returned (the caller closes it)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(18):  # 18 x 251 bytes > 4096
        os.mkdir("n" * 250, dir_fd=fd)
        child = os.open("n" * 250, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    return fd


def test_the_name_checks_read_names_past_path_max(tmp_path: Path) -> None:
    # A1: `os.walk` ignored ENAMETOOLONG and never saw these names; now every folder is read
    # through a held descriptor and nothing is skipped.
    fd = _past_path_max(tmp_path)
    try:
        os.close(os.open(b"bad\xff", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
        os.close(os.open("esc\x1b[2J", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
    finally:
        os.close(fd)
    bad = name_not_utf8(tmp_path)
    assert bad is not None and bad.endswith("/bad\\xff")
    unreadable = name_unreadable(tmp_path)
    assert unreadable is not None and unreadable[1] == "U+001B"
    # ... and the whole check refuses the folder before any of it (its path is over the bound).
    refused = work_dir_refused(tmp_path, Limits())
    assert refused is not None and refused[0] == "WorkDirectoryTooLarge"
    assert str(tmp_path) not in refused[1]


def test_the_name_checks_pass_an_honest_tree(tmp_path: Path) -> None:
    _wide_cache(tmp_path, 20)
    assert name_not_utf8(tmp_path) is None
    assert name_unreadable(tmp_path) is None


DEEP_AND_SAID = """
import json, os
wd = "/sandbox/work"
path = wd
for _ in range(%d):
    path = os.path.join(path, "a")
os.makedirs(path)
with open("/sandbox/diagnostics.jsonl", "w") as out:
    out.write(json.dumps({"channel": "note", "message": "cache written"}) + "\\n")
"""


def test_a_refused_sandbox_still_carries_its_diagnostics(tmp_path: Path) -> None:
    # A3 through a real launch, and F1's second half: the copy back is refused before anything
    # is copied, naming the bound, and the diagnostics file alone comes back.
    private = tmp_path / "cycle"
    (private / "work").mkdir(parents=True)
    policy = SandboxPolicy(code=(), hidden=(), limits=Limits())
    env = {**SANDBOX_ENV, "PROVEBENCH_WORK_DIR": "/sandbox/work"}
    script = textwrap.dedent(DEEP_AND_SAID % (MAX_TREE_DEPTH + 2))
    command = ["/usr/bin/env", "python3", "-c", script]
    with (
        pytest.raises(CandidateFailed, match=re.escape("MAX_TREE_DEPTH")) as failed,
        sandbox_process(policy, command, private_dir=private, env=env) as process,
    ):
        assert process.wait_command(60) == 0
    assert failed.value.type_name == "WorkDirectoryTooLarge"
    assert list((private / "work").iterdir()) == []  # nothing of the chain was copied
    said = (private / "diagnostics.jsonl").read_text(encoding="utf-8")
    assert json.loads(said) == {"channel": "note", "message": "cache written"}


CACHE_IMPORTER = """
import json, os
wd = os.environ["PROVEBENCH_WORK_DIR"]
for index in range(700):
    folder = os.path.join(wd, "cache", "item%05d" % index)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "meta.json"), "w") as out:
        out.write('{"seen": true}')
"""


@pytest.mark.slow
def test_an_honest_cache_passes_pilot_run_under_a_low_open_file_limit(tmp_path: Path) -> None:
    # F1 end to end, small: 700 cache folders under a 512-descriptor limit on the laboratory.
    # Before, every cycle ended in `cannot read folder: Too many open files` and work/ was lost.
    import resource

    from tests.helpers.pilot_evaluation import agent_errors, make_small_corpus
    from tests.helpers.pilot_lab import PROVEBENCH, REPO_ROOT

    corpus = make_small_corpus(tmp_path / "corpus", seed=3)
    script = tmp_path / "code" / "cache.py"
    script.parent.mkdir()
    script.write_text(CACHE_IMPORTER, encoding="utf-8")
    run_dir = tmp_path / "run"

    def low_limit() -> None:
        # The soft limit, as `ulimit -n` sets it; the hard one stays, for the sandbox's own.
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (512, hard))

    said = subprocess.run(
        [*PROVEBENCH, "pilot", "run", "--corpus", str(corpus), "--out", str(run_dir),
         "--agent-cmd", f"python3 {script}"],
        capture_output=True, text=True, check=False, cwd=REPO_ROOT, timeout=400,
        preexec_fn=low_limit,
    )  # fmt: skip
    assert said.returncode == 0, said.stderr
    assert agent_errors(run_dir) == []
    assert len(list((run_dir / "work" / "cache").iterdir())) == 700
