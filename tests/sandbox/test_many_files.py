"""A candidate of many files (red team round 14b, D1): an honest importer folder of 1,200 files
could be sealed but never run — `select()` refused the laboratory's descriptors past 1024, and
bubblewrap refused a launch of more than 9,000 arguments (4,000 files), `--args FD` included.
Now every wait polls (`sandbox._wait`), held code takes as few arguments an entry as bubblewrap
allows, and code no sandbox can show is refused in one line, exit 2, at `pilot seal` and at
launch alike, before anything runs (docs/sandbox.md, "One snapshot per run")."""

from __future__ import annotations

import json
import os
import resource
import socket
import textwrap
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab._runner import run_lab
from provebench.sandbox import _held_code, policy_for, run_sandboxed
from provebench.sandbox._candidate import code_listing
from provebench.sandbox._channel import Channel, encode_frame
from provebench.sandbox._code_copy import snapshot_code
from provebench.sandbox._policy import SANDBOX_ENV
from provebench.sandbox._wait import readable
from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import run_cli

pytestmark = pytest.mark.timeout(240)

# Counts what its sandbox shows of its own folder, and tries to change it three ways.
COUNTER = textwrap.dedent(
    """
    import os

    HERE = os.path.dirname(os.path.abspath(__file__))


    def attempt(action):
        try:
            action()
        except OSError as error:
            return os.strerror(error.errno)
        return "done"


    def write_own():
        with open(os.path.join(HERE, "data", "f00000.txt"), "a") as handle:
            handle.write("changed")


    def create():
        with open(os.path.join(HERE, "data", "new.txt"), "x") as handle:
            handle.write("added")


    class Counter:
        name = "counter"
        version = "1"

        def run_cycle(self, ctx):
            files = sorted(os.listdir(os.path.join(HERE, "data")))
            same = all(
                open(os.path.join(HERE, "data", name)).read() == name for name in files
            )
            results = [
                attempt(write_own),
                attempt(create),
                attempt(lambda: os.chmod(os.path.join(HERE, "data"), 0o777)),
            ]
            ctx.diagnostics.note(f"{len(files)} {same} " + " | ".join(results))
    """
)


def _candidate(folder: Path, files: int) -> Path:
    """An importer folder holding `files` small data files (each holding its own name)."""
    data = folder / "data"
    data.mkdir(parents=True)
    (folder / "counter.py").write_text(COUNTER, encoding="utf-8")
    for number in range(files):
        name = f"f{number:05d}.txt"
        (data / name).write_text(name, encoding="utf-8")
    return folder / "counter.py"


def _notes(run: Path) -> list[str]:
    lines = (run / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [
        entry["payload"]["message"]
        for entry in map(json.loads, lines)
        if entry["kind"] == "diagnostics" and entry["payload"].get("channel") == "note"
    ]


def test_a_sealed_candidate_of_1500_files_runs_and_sees_them_all_read_only(
    tmp_path: Path,
) -> None:
    source = _candidate(tmp_path / "cand", 1500)
    corpus = make_small_corpus(tmp_path, seed=6)
    run = tmp_path / "run"
    run_lab(corpus, f"{source}:Counter", run)
    identity = json.loads((run / "identity.json").read_text(encoding="utf-8"))
    assert identity["isolation"]["mode"] == "sandbox"
    # Every cycle saw all 1,500 files with their bytes, and could change none of them.
    refused = "Read-only file system"
    assert _notes(run) == [f"1500 True {refused} | {refused} | {refused}"] * 4


def test_code_no_sandbox_can_show_is_refused_in_one_line_at_seal_and_at_run(
    tmp_path: Path,
) -> None:
    # 2,700 plain files: 8,100 of bubblewrap's arguments, over the 8,000 a launch has for code.
    source = _candidate(tmp_path / "cand", 2700)
    seal = tmp_path / "seal"
    sealed = run_cli("pilot", "seal", "--out", str(seal), "--agent", f"{source}:Counter")
    assert sealed.returncode == 2, sealed.stderr
    (line,) = sealed.stderr.splitlines()
    assert str(source.parent) in line and "limit of 8000" in line and "2702 files" in line
    assert not seal.exists() or not any(seal.iterdir())  # nothing was sealed

    # A run (its snapshot, before the first launch) refuses the same code, word for word: a
    # ProvebenchError is the command line's one line and exit 2.
    corpus = make_small_corpus(tmp_path, seed=6)
    run = tmp_path / "run"
    with pytest.raises(ProvebenchError) as refused:
        run_lab(corpus, f"{source}:Counter", run)
    assert line.endswith(str(refused.value))
    assert not (run / "ledger.jsonl").exists()  # no cycle ran


def test_the_argument_count_is_what_a_launch_of_the_held_code_takes(tmp_path: Path) -> None:
    """The count a seal and every run check is the held code's own arguments, exactly, for a
    folder of every kind of entry (a plain and an executable file, a folder, a link)."""
    code = tmp_path / "cand"
    (code / "pkg" / "sub").mkdir(parents=True)
    (code / "plain.py").write_text("X = 1\n", encoding="utf-8")
    (code / "pkg" / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (code / "pkg" / "run.sh").chmod(0o755)
    (code / "pkg" / "sub" / "data.txt").write_text("d", encoding="utf-8")
    (code / "link").symlink_to("pkg/run.sh")
    listing = code_listing([code], field="--agent")
    snapshot = snapshot_code([code], [], None, field="--agent")
    assert snapshot.held is not None
    opened: list[int] = []
    try:
        args = snapshot.held.mount_args(code, opened) + snapshot.held.read_only_args()
    finally:
        for fd in opened:
            os.close(fd)
        snapshot.held.close()
    assert _held_code.launch_arguments(listing, 1) == len(args)
    assert args.count("--perms") == 2  # the folder's tmpfs and the one executable file


def test_held_code_over_the_limit_is_refused_before_it_is_read_into_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = tmp_path / "cand"
    code.mkdir()
    for number in range(40):
        (code / f"f{number}.txt").write_text(str(number), encoding="utf-8")
    monkeypatch.setattr(_held_code, "MAX_CODE_ARGUMENTS", 3 * 40 + 5)
    with pytest.raises(ProvebenchError) as refused:
        snapshot_code([code], [], None, field="--agent")
    assert "\n" not in str(refused.value) and "126 sandbox arguments" in str(refused.value)
    monkeypatch.setattr(_held_code, "MAX_CODE_ARGUMENTS", 3 * 40 + 6)
    snapshot_code([code], [], None, field="--agent").held.close()  # type: ignore[union-attr]


def _numbered_past_1024(fd: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2048:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(2048, hard), hard))
    high = os.dup2(fd, 1500)
    os.close(fd)
    return high


def test_a_channel_numbered_past_1024_is_read(tmp_path: Path) -> None:
    """The laboratory's own end of a worker's channel, at a descriptor number `select()`
    refuses (it held one memfd per file of the candidate's code before it)."""
    ours, theirs = socket.socketpair()
    high = socket.socket(fileno=_numbered_past_1024(ours.detach()))
    high.settimeout(5)
    channel = Channel(high)
    try:
        theirs.sendall(encode_frame({"answer": 42}))
        assert channel.receive() == {"answer": 42}
        assert readable([high.fileno()], 0) == set()  # nothing more to read
        theirs.close()
        assert readable([high.fileno()], 0) == {high.fileno()}  # its end closed
    finally:
        channel.close()


def _open_descriptors() -> list[str]:
    return sorted(entry.name for entry in Path("/proc/self/fd").iterdir())


def test_a_launch_over_bubblewraps_own_limit_is_one_line_and_starts_nothing(
    tmp_path: Path,
) -> None:
    """Whatever makes a launch pass 9,000 arguments (here a command line), it is refused by
    provebench in one line, every descriptor it opened for the launch closed again."""
    private = tmp_path / "private"
    (private / "work").mkdir(parents=True)
    before = _open_descriptors()
    policy = policy_for([], {})
    marker = tmp_path / "started"
    with pytest.raises(ProvebenchError) as refused:
        run_sandboxed(
            policy,
            ["/bin/sh", "-c", f"touch {marker}", *["x"] * 9000],
            private_dir=private,
            env=SANDBOX_ENV,
            timeout=30,
        )
    assert "\n" not in str(refused.value) and "limit of 9000" in str(refused.value)
    assert not marker.exists()
    assert _open_descriptors() == before
