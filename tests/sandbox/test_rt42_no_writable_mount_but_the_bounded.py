"""No mount inside the sandbox is writable but the bounded ones (sandbox red team 42, G2-1).

Before, each `__pycache__` folder of provebench's environment was shown as a tmpfs of mode 0555
with no size and no remount: the tmpfs is owned by the sandbox's uid, so a candidate `chmod`ed
one and wrote 600 MiB of host memory into it, and the last `--remount-ro /` does not reach the
mounts below the root. Now each is a tmpfs of one page: a write of more than a page fails
(ENOSPC). The honest set of writable
mounts, read from `/proc/self/mountinfo` inside the sandbox: `/sandbox` (the private folder,
whose `work` is the candidate's), `/tmp`, `/dev/shm`, and the device nodes bubblewrap binds
(`/dev/null`, `/dev/zero`, `/dev/full`, `/dev/random`, `/dev/urandom`, `/dev/tty`) — plus
`/proc`, a `proc` mount whose files are the kernel's (sandbox red team 41 found no writable
place there), and `/dev/pts`, bubblewrap's `devpts`, where only the kernel makes entries.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.sandbox._policy import PACKAGE_DIR, SandboxPolicy
from tests.helpers.sandbox_probe import probe_answer

SCENARIO = PACKAGE_DIR / "si" / "scenarios" / "diagnostic-accuracy.yaml"

# The honest set of writable mounts (see the module's docstring).
WRITABLE = {
    "/sandbox", "/tmp", "/dev/shm", "/proc", "/dev/pts",
    "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty",
}  # fmt: skip

# The red team's probe (attacks/g2/pycache/agent.py): every `rw` mount, and a `chmod` and a
# write into the first `__pycache__` tmpfs.
PROBE = """
import json, os, sys
sys.stdin.readline()
writable, caches, sizes = [], [], set()
for line in open("/proc/self/mountinfo"):
    fields = line.split()
    where, options = fields[4], fields[5].split(",")
    if where.endswith("/__pycache__"):
        caches.append(where)
        sizes.add(fields[-1])
    elif "rw" in options:
        writable.append(where)
found = {"writable": sorted(set(writable)), "caches": len(caches), "sizes": sorted(sizes)}
if caches:
    try:
        os.chmod(caches[0], 0o755)
        found["chmod"] = "ok"
    except OSError as error:
        found["chmod"] = error.strerror
    try:
        with open(os.path.join(caches[0], "planted.pyc"), "wb") as handle:
            handle.write(b"\\1" * (1 << 20))
        found["write"] = "ok"
    except OSError as error:
        found["write"] = error.strerror
print(json.dumps({"answer": {"final_answer": json.dumps(found), "reasoning_trace": "probe"}}),
      flush=True)
"""


def test_each_empty_cache_is_a_tmpfs_of_one_page(tmp_path: Path) -> None:
    cache = tmp_path / "lib" / "__pycache__"
    args = SandboxPolicy(code=(), hidden=(), empty_caches=(cache,)).bwrap_args(tmp_path)
    at = args.index(str(cache))
    assert args[at - 3 : at + 1] == ["--size", "4096", "--tmpfs", str(cache)]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_candidate_finds_no_writable_mount_but_the_bounded_ones(tmp_path: Path) -> None:
    found = probe_answer(tmp_path, PROBE, SCENARIO)
    assert found["caches"] > 0, found  # the probe met the `__pycache__` mounts
    assert set(found["writable"]) <= WRITABLE, sorted(set(found["writable"]) - WRITABLE)
    assert {"/sandbox", "/tmp", "/dev/shm"} <= set(found["writable"])  # the honest control
    # every `__pycache__` tmpfs is one page: a write of a MiB does not fit
    assert found["sizes"] and all("size=4k" in each for each in found["sizes"]), found
    assert found["write"] == "No space left on device", found
