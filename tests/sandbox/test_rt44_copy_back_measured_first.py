"""`/sandbox` is measured through its held descriptor before anything is carried to the host
(sandbox red team 44, G1-1, G1-2 and G1-3).

The tmpfs bounds the pages a candidate writes, not the names it makes, nor what a copy of a
sparse file or of a file with several names writes. A sealed importer made 200 000 empty files a
cycle (counted about 20 bytes each, never refused: 1.3 million inodes on the host in three
cycles), truncated six files to 255 MiB each (no page allocated) or linked one 200 MiB file six
times; the copy back wrote every name and byte on the host's disk before the work limit was
checked. Now each entry costs `ENTRY_COST_BYTES` besides its bytes, a file counts its apparent
size under each of its names, the entries are bounded (`Limits.work_dir_entries`), and over a
limit nothing is copied: the cycle's agent_error is `WorkDirectoryTooLarge`, naming the limit.
The attacks are played with small counts and small limits.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from provebench.pilot.emulator._commands import run_with_command
from provebench.sandbox import _launch
from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._launch import sandbox_process
from provebench.sandbox._limits import MIB, Limits
from provebench.sandbox._policy import SANDBOX_DIR, SANDBOX_ENV, SandboxPolicy
from provebench.sandbox._workdir import (
    ENTRY_COST_BYTES,
    measure_tree,
    tree_bytes,
    work_dir_refused,
)
from tests.helpers.pilot_evaluation import agent_errors, make_small_corpus

# The red team's attacks (attacks/inode_flood.py, sparse_flood.py, hardlink_flood.py), counts
# and sizes made small: the limits below are 4 MiB and 300 entries.
FLOOD = """
import os
import re
wd = os.environ.get("PROVEBENCH_WORK_DIR", "/sandbox/work")
d = os.path.join(wd, "f%d" % len(os.listdir(wd)))
os.makedirs(d, exist_ok=True)
for i in range(400):
    open(os.path.join(d, "x" * 200 + "%07d" % i), "w").close()
"""
SPARSE = """
import os
import re
wd = os.environ.get("PROVEBENCH_WORK_DIR", "/sandbox/work")
for i in range(3):
    with open(os.path.join(wd, "sparse%d" % i), "wb") as f:
        f.truncate(2 * 1024 * 1024)
"""
HARDLINKS = """
import os
import re
wd = os.environ.get("PROVEBENCH_WORK_DIR", "/sandbox/work")
p = os.path.join(wd, "big0")
with open(p, "wb") as f:
    f.write(b"\\1" * (2 * 1024 * 1024))
for i in range(1, 4):
    os.link(p, os.path.join(wd, "big%d" % i))
"""
# The honest control: a few files, a folder and a link, well within the limits.
HONEST = """
import os
import re
wd = os.environ.get("PROVEBENCH_WORK_DIR", "/sandbox/work")
os.makedirs(os.path.join(wd, "state"), exist_ok=True)
for i in range(20):
    with open(os.path.join(wd, "state", "file%d.json" % i), "w") as f:
        f.write("{}" * 1000)
os.symlink("state/file0.json", os.path.join(wd, "latest"))
"""
LIMITS = Limits(work_dir_mib=4, work_dir_entries=300)


@pytest.fixture
def copies(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """What each copy back (from `/sandbox`, not the copy in) wrote on the host: the entries it
    made, and the apparent sizes of its files."""
    written: list[tuple[int, int]] = []
    real = _launch.copy_tree_once

    def spy(source: Path, target: Path, **options: Any) -> None:
        real(source, target, **options)
        if source != Path(SANDBOX_DIR):
            return
        made = list(target.rglob("*"))
        size = sum(p.lstat().st_size for p in made if p.is_file() and not p.is_symlink())
        written.append((len(made), size))

    monkeypatch.setattr(_launch, "copy_tree_once", spy)
    return written


def _launch_script(tmp_path: Path, script: str) -> Path:
    private = tmp_path / "cycle"
    (private / "work").mkdir(parents=True)
    (private / "work" / "kept.txt").write_text("committed\n", encoding="utf-8")
    policy = SandboxPolicy(code=(), hidden=(), limits=LIMITS)
    env = {**SANDBOX_ENV, "PROVEBENCH_WORK_DIR": "/sandbox/work"}
    command = ["/usr/bin/env", "python3", "-c", textwrap.dedent(script)]
    with sandbox_process(policy, command, private_dir=private, env=env) as process:
        assert process.wait_command(60) == 0
    return private


@pytest.mark.parametrize(
    ("script", "limit"),
    [
        (FLOOD, "300 entries (Limits.work_dir_entries)"),
        (SPARSE, "4 MiB limit"),
        (HARDLINKS, "4 MiB limit"),
    ],
    ids=["entry-flood", "sparse-files", "hard-links"],
)
def test_an_oversized_sandbox_is_refused_before_anything_is_copied(
    tmp_path: Path, copies: list[tuple[int, int]], script: str, limit: str
) -> None:
    with pytest.raises(CandidateFailed, match=re.escape(limit)) as failed:
        _launch_script(tmp_path, script)
    assert failed.value.type_name == "WorkDirectoryTooLarge"
    assert copies == []  # nothing written on the host: before, every name and byte was
    private = tmp_path / "cycle"
    assert sorted(p.name for p in private.rglob("*")) == ["kept.txt", "work"]  # as given


def test_an_honest_sandbox_is_still_carried_back(
    tmp_path: Path, copies: list[tuple[int, int]]
) -> None:
    private = _launch_script(tmp_path, HONEST)
    assert len(copies) == 1
    assert len(list((private / "work" / "state").iterdir())) == 20
    assert (private / "work" / "latest").readlink() == Path("state/file0.json")
    assert work_dir_refused(private / "work", LIMITS) is None


def test_the_measure_counts_names_apparent_sizes_and_links_once_per_name(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    with (tmp_path / "sparse").open("wb") as handle:
        handle.truncate(3 * MIB)  # no block allocated: its apparent size is what a copy writes
    (tmp_path / "sub" / "one").write_bytes(b"x" * 1000)
    os.link(tmp_path / "sub" / "one", tmp_path / "sub" / "two")  # counted again, by name
    (tmp_path / "link").symlink_to("sparse")  # its text, never followed
    entries = 5
    size = 3 * MIB + 2000 + len("sparse") + entries * ENTRY_COST_BYTES
    assert tree_bytes(tmp_path) == size
    found = measure_tree(tmp_path, Limits())
    assert (found.entries, found.size, found.over) == (entries, size, False)
    assert measure_tree(tmp_path, Limits(work_dir_entries=4)).over
    assert measure_tree(tmp_path, Limits(work_dir_mib=3)).over


def test_empty_files_count_against_the_work_limit_and_the_entry_limit(tmp_path: Path) -> None:
    for index in range(301):
        (tmp_path / f"{'x' * 200}{index:07d}").touch()
    refused = work_dir_refused(tmp_path, LIMITS)
    assert refused is not None and refused[0] == "WorkDirectoryTooLarge"
    assert "more than 300 entries" in refused[1] and "Limits.work_dir_entries" in refused[1]
    refused = work_dir_refused(tmp_path, Limits(work_dir_mib=1))  # 301 x 4 KiB > 1 MiB
    assert refused is not None and "over the 1 MiB limit" in refused[1]


@pytest.mark.slow
@pytest.mark.parametrize("script", [FLOOD, SPARSE], ids=["entry-flood", "sparse-files"])
def test_the_attack_through_pilot_run_agent_cmd_is_refused_and_nothing_carried(
    tmp_path: Path, copies: list[tuple[int, int]], script: str
) -> None:
    corpus = make_small_corpus(tmp_path / "corpus", seed=3)
    (tmp_path / "attack.py").write_text(textwrap.dedent(script), encoding="utf-8")
    run_dir = tmp_path / "run"
    run_with_command(corpus, f"python3 {tmp_path / 'attack.py'}", run_dir, limits=LIMITS)
    errors = agent_errors(run_dir)
    assert errors and all(error["type"] == "WorkDirectoryTooLarge" for error in errors), errors
    # Nothing over a limit reached the host's disk: before, every name and byte did.
    assert all(entries <= LIMITS.work_dir_entries for entries, _ in copies), copies
    assert all(size <= LIMITS.work_dir_mib * MIB for _, size in copies), copies
    assert not list((run_dir / "work").rglob("sparse*"))
    assert not list((run_dir / "work").glob("f*"))
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert record["complete"] is True


@pytest.mark.slow
def test_an_honest_importer_through_pilot_run_agent_cmd_keeps_its_work(
    tmp_path: Path, copies: list[tuple[int, int]]
) -> None:
    corpus = make_small_corpus(tmp_path / "corpus", seed=3)
    (tmp_path / "honest.py").write_text(textwrap.dedent(HONEST), encoding="utf-8")
    run_dir = tmp_path / "run"
    run_with_command(corpus, f"python3 {tmp_path / 'honest.py'}", run_dir, limits=LIMITS)
    assert not [e for e in agent_errors(run_dir) if e["type"].startswith("WorkDirectory")]
    assert len(list((run_dir / "work" / "state").iterdir())) == 20
