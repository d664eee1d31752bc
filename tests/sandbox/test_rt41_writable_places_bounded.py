"""Every place a sandboxed candidate can write is bounded (sandbox red team 41, SB10).

Before, only `/tmp` had a size: bubblewrap's root and its `/dev` are tmpfs of no size limit, in
host memory that `RLIMIT_AS` does not count, and a candidate wrote 400 MiB into `/dev/shm` and
400 MiB into `/run` with no error. Now `/dev/shm` is a tmpfs of `Limits.shm_mib` and the root
and `/dev` are read-only once the sandbox is built; `/tmp`, the work directory and POSIX shared
memory (a `multiprocessing` lock's semaphore) still work.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.sandbox._limits import DEFAULT_LIMITS, MIB
from provebench.sandbox._policy import PACKAGE_DIR, SandboxPolicy
from tests.helpers.sandbox_probe import probe_answer

SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"

# The red team's filler (attacks/sb10/ag/fill.py), reporting where each write ended.
FILLER = """
import errno, json, multiprocessing, sys
sys.stdin.readline()
found = {}
blob = b"\\0" * (4 << 20)
for where in ("/dev/shm", "/run", "/", "/etc", "/dev", "/tmp", "/sandbox/work"):
    written = 0
    try:
        for i in range(100):  # 400 MiB at most
            with open(f"{where.rstrip('/')}/f{i}", "wb") as handle:
                handle.write(blob)
            written += 4
            if where in ("/tmp", "/sandbox/work") and written >= 8:
                break  # writable: enough to know
        found[where] = [written, None]
    except OSError as error:
        found[where] = [written, errno.errorcode.get(error.errno, str(error.errno))]
    if where == "/dev/shm":
        for i in range(written // 4 + 1):
            try:
                __import__("os").unlink(f"/dev/shm/f{i}")
            except OSError:
                pass
try:
    multiprocessing.Lock()
    found["lock"] = "ok"
except OSError as error:
    found["lock"] = repr(error)
print(json.dumps({"answer": {"final_answer": json.dumps(found), "reasoning_trace": "fill"}}),
      flush=True)
"""


def test_the_launch_bounds_dev_shm_and_ends_with_the_root_read_only(tmp_path: Path) -> None:
    args = SandboxPolicy(code=(), hidden=()).bwrap_args(tmp_path)
    assert args[-4:] == ["--remount-ro", "/dev", "--remount-ro", "/"]
    at = args.index("/dev/shm")
    assert args[at - 3 : at] == ["--size", str(DEFAULT_LIMITS.shm_mib * MIB), "--tmpfs"]
    assert args.index("--dev") < at  # on top of bubblewrap's /dev
    described = SandboxPolicy(code=(), hidden=()).describe()
    assert described["limits"]["shm_mib"] == 64
    assert described["read_only_once_built"] == ["/", "/dev"]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_candidate_filling_dev_shm_and_the_root_is_stopped(tmp_path: Path) -> None:
    found = probe_answer(tmp_path, FILLER, SCENARIO)
    written, error = found["/dev/shm"]
    assert error == "ENOSPC" and DEFAULT_LIMITS.shm_mib - 8 <= written <= DEFAULT_LIMITS.shm_mib
    for where in ("/run", "/", "/etc", "/dev"):
        assert found[where] == [0, "EROFS"], (where, found)
    # The honest control: /tmp, the work directory and shared memory still work.
    assert found["/tmp"] == [8, None] and found["/sandbox/work"] == [8, None], found
    assert found["lock"] == "ok"
