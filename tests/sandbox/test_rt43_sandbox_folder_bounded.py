"""`/sandbox` is bounded while it is written, not measured when the cycle ends (sandbox red team
43, G2-1).

Before, `/sandbox` was a bind of the cycle's folder on the host's disk: one SI launch wrote
5000 MiB into `/sandbox/work` (20 files of 250 MiB, each under `RLIMIT_FSIZE`) and the host's free
disk dropped by as much; the work limit (1024 MiB) was measured only when the cycle ended. Now
`/sandbox` is a tmpfs of the work limit, filled from the cycle's folder before the command starts
and copied back when a cycle carries it (a pilot cycle's work/), so the writes stop at the limit
with "no space left", and what the candidate finds and leaves is still what it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.sandbox._channel import CandidateFailed
from provebench.sandbox._launch import sandbox_process
from provebench.sandbox._limits import DEFAULT_LIMITS, MIB, Limits
from provebench.sandbox._policy import PACKAGE_DIR, SANDBOX_ENV, SandboxPolicy
from tests.helpers.sandbox_probe import probe_answer

SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"

# The red team's filler (attacks/g2c/agent/agent.py), 64 MiB a file under RLIMIT_FSIZE, into
# work/ and into /sandbox itself, until the writes fail or 1600 MiB were written.
FILLER = """
import errno, json, os, sys
sys.stdin.readline()
found = {"written_mib": 0, "error": None}
blob = b"x" * (64 << 20)
try:
    for i in range(25):
        where = "/sandbox/work" if i % 2 else "/sandbox"
        with open(f"{where}/blob{i}", "wb") as handle:
            handle.write(blob)
        found["written_mib"] += 64
except OSError as error:
    found["error"] = errno.errorcode.get(error.errno, str(error.errno))
st = os.statvfs("/sandbox")
found["size_mib"] = st.f_blocks * st.f_frsize >> 20
print(json.dumps({"answer": {"final_answer": json.dumps(found), "reasoning_trace": "fill"}}),
      flush=True)
"""


def test_the_launch_makes_sandbox_a_tmpfs_of_the_work_limit(tmp_path: Path) -> None:
    args = SandboxPolicy(code=(), hidden=()).bwrap_args(tmp_path)
    at = args.index("/sandbox")
    assert args[at - 3 : at] == ["--size", str(DEFAULT_LIMITS.work_dir_mib * MIB), "--tmpfs"]
    assert "--bind" not in args  # no folder of the host's is written


def test_si_writes_into_sandbox_stop_at_the_work_limit(tmp_path: Path) -> None:
    found = probe_answer(tmp_path, FILLER, SCENARIO)
    assert found["error"] == "ENOSPC", found
    assert found["written_mib"] <= DEFAULT_LIMITS.work_dir_mib, found  # red team: 5000 MiB
    assert found["size_mib"] == DEFAULT_LIMITS.work_dir_mib, found


SCRIPT = """
import os, sys
print(sorted(os.listdir("/sandbox")), open("/sandbox/work/kept.txt").read(), os.getcwd())
with open("/sandbox/work/kept.txt", "a") as handle:
    handle.write("written inside\\n")
os.mkdir("/sandbox/work/made")
os.symlink("kept.txt", "/sandbox/work/made/link")
with open("/sandbox/diagnostics.jsonl", "w") as handle:
    handle.write("{}\\n")
open("/sandbox/work/big", "wb").write(b"x" * (int(sys.argv[1]) << 20))
"""


def _launch(tmp_path: Path, carried: bool, big_mib: int = 8) -> Path:
    """A launch of `SCRIPT` over a cycle folder of one file, work/ bounded to 4 MiB; its file
    `big` of `big_mib` MiB (8: "no space left on device")."""
    private = tmp_path / f"cycle-{carried}"
    (private / "work").mkdir(parents=True)
    (private / "work" / "kept.txt").write_text("committed\n", encoding="utf-8")
    (private / "key.json").write_text("{}", encoding="utf-8")
    policy = SandboxPolicy(code=(), hidden=(), limits=Limits(work_dir_mib=4))
    with sandbox_process(
        policy,
        ["/usr/bin/env", "python3", "-c", SCRIPT, str(big_mib)],
        private_dir=private,
        env=SANDBOX_ENV,
        carried=carried,
    ) as process:
        assert process.wait_command(60) == (1 if big_mib >= 4 else 0)
    return private


def test_a_carried_cycle_finds_its_folder_and_keeps_what_it_wrote(tmp_path: Path) -> None:
    private = _launch(tmp_path, carried=True, big_mib=1)
    assert (private / "work" / "kept.txt").read_text(encoding="utf-8") == (
        "committed\nwritten inside\n"
    )
    assert (private / "work" / "made" / "link").readlink() == Path("kept.txt")
    assert (private / "diagnostics.jsonl").read_text(encoding="utf-8") == "{}\n"
    assert (private / "key.json").is_file()
    assert (private / "work" / "big").stat().st_size == MIB


def test_a_carried_cycle_that_filled_sandbox_is_not_copied_back(tmp_path: Path) -> None:
    """A `/sandbox` filled to the tmpfs's size is over the work limit as the copy back counts
    it (each entry costs 4096 bytes besides its bytes; sandbox red team 44, G1-1): nothing is
    copied to the host and the cycle is the candidate's `WorkDirectoryTooLarge`. (Before, such
    a folder was carried, its `big` cut short.)"""
    with pytest.raises(CandidateFailed, match="over the 4 MiB limit") as failed:
        _launch(tmp_path, carried=True)
    assert failed.value.type_name == "WorkDirectoryTooLarge"
    private = tmp_path / "cycle-True"
    # The diagnostics file alone is carried even then (sandbox red team 45, F1): what the
    # candidate said stays readable, and the refusal is not read as a concealed failure.
    assert sorted(p.name for p in private.rglob("*")) == [
        "diagnostics.jsonl",
        "kept.txt",
        "key.json",
        "work",
    ]
    assert (private / "diagnostics.jsonl").read_text(encoding="utf-8") == "{}\n"


def test_a_launch_that_carries_nothing_leaves_its_folder_as_it_was(tmp_path: Path) -> None:
    private = _launch(tmp_path, carried=False)
    assert sorted(p.name for p in private.rglob("*")) == ["kept.txt", "key.json", "work"]
    assert (private / "work" / "kept.txt").read_text(encoding="utf-8") == "committed\n"
