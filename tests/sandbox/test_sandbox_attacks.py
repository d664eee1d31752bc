"""A hostile candidate with a shell, against the sandbox (docs/sandbox.md).

Each attack is made from inside a sealed candidate — an `--agent-cmd` program and an in-process
class provebench did not ship — and each is judged here from outside, never from what the
candidate says: the corpus and the run folder keep their bytes, the host's listener gets no
connection, no process of the candidate is alive after its cycle, the laboratory's own process
cannot be found or traced, and exhaustion ends as the cycle's agent_error with the run intact.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.sandbox._launch import MAX_OUTPUT_BYTES
from provebench.sandbox._limits import MIB
from tests.helpers.pilot_evaluation import agent_errors
from tests.helpers.pilot_lab import REPO_ROOT, run_cli

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]  # slow: not in make check

SMALL = {"cycles": 4, "file_events": 12, "admissible_files": 4}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("sealed") / "corpus"
    write_corpus(corpus_config(seed=3, profile="public", overrides=SMALL), target)
    return target


def tree_digest(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def log_entries(run: Path) -> list[dict[str, Any]]:
    lines = (run / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def notes(run: Path) -> list[str]:
    return [
        e["payload"]["message"]
        for e in log_entries(run)
        if e["kind"] == "diagnostics" and e["payload"].get("channel") == "note"
    ]


def host_processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def gone_within(marker: str, seconds: float) -> bool:
    """Whether every host process naming `marker` ends within `seconds` (the kernel ends a
    sandbox whose parent died asynchronously)."""
    import time

    deadline = time.monotonic() + seconds
    while host_processes_with(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


class Listener:
    """A TCP listener on the host's loopback, counting the connections it accepts."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


# The attacks, shared by both kinds of candidate. `say(text)` records a finding; none of them
# is trusted by the test, which checks each effect from outside.
ATTACKS = """
import ctypes, os, socket, subprocess, sys, time

def attempt(say, name, action):
    try:
        result = action()
        say(f"{name}: succeeded {result!r}"[:300])
    except BaseException as error:
        say(f"{name}: refused {type(error).__name__}")

def read(path):
    with open(path, "rb") as handle:
        return len(handle.read())

def write(path):
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("tampered\\n")
    return "written"

def connect(port):
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        return "connected"

def outside(address):
    with socket.create_connection((address, 80), timeout=2):
        return "connected"

def other_pids():
    own = {1, 2, os.getpid()}  # the sandbox's first process and the candidate
    return sorted(int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in own)

def trace(pid):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(16, pid, None, None) != 0:  # PTRACE_ATTACH
        raise OSError(ctypes.get_errno(), "ptrace")
    return "attached"

def daemon(marker):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            sleeper = "import time; time.sleep(1000)"
            os.execv(sys.executable, [sys.executable, "-c", sleeper, marker])
        os._exit(0)
    time.sleep(0.2)
    return "started"

def run_attacks(say, corpus, run, port, marker):
    attempt(say, "read-expected", lambda: read(os.path.join(corpus, "expected_final_rows.csv")))
    attempt(say, "read-events", lambda: read(os.path.join(corpus, "drive_events.jsonl")))
    attempt(say, "write-corpus", lambda: write(os.path.join(corpus, "manifest.json")))
    attempt(say, "write-run", lambda: write(os.path.join(run, "ledger.sqlite")))
    attempt(say, "read-home", lambda: read(HOME_SECRET))
    attempt(say, "read-shadow", lambda: read("/etc/shadow"))
    attempt(say, "host-port", lambda: connect(port))
    attempt(say, "outside", lambda: outside("192.0.2.1"))
    attempt(say, "pids", other_pids)
    attempt(say, "trace-1", lambda: trace(1))
    attempt(say, "daemon", lambda: daemon(marker))
"""


@pytest.fixture(autouse=True)
def home_secret() -> Any:
    """A file in the home folder of the user running provebench: no candidate may read it."""
    path = Path.home() / f".provebench-sandbox-test-{os.getpid()}"
    path.write_text("the operator's\n", encoding="utf-8")
    yield path
    path.unlink()


def program(corpus: Path, run: Path, port: int, marker: str) -> str:
    return (
        home_line()
        + ATTACKS
        + textwrap.dedent(
            f"""
        import json
        diagnostics = open(os.environ["PROVEBENCH_DIAGNOSTICS_FILE"], "a", encoding="utf-8")
        def say(text):
            diagnostics.write(json.dumps({{"channel": "note", "message": text}}) + "\\n")
            diagnostics.flush()
        run_attacks(say, {str(corpus)!r}, {str(run)!r}, {port}, {marker!r})
        """
        )
    )


def home_line() -> str:
    return f"HOME_SECRET = {str(Path.home() / f'.provebench-sandbox-test-{os.getpid()}')!r}\n"


def importer_class(corpus: Path, run: Path, port: int, marker: str) -> str:
    return (
        home_line()
        + ATTACKS
        + textwrap.dedent(
            f"""
        class Attacker:
            name = "attacker"
            version = "1"

            def run_cycle(self, ctx):
                run_attacks(ctx.diagnostics.note, {str(corpus)!r}, {str(run)!r}, {port},
                            {marker!r})
        """
        )
    )


def assert_every_attack_held(
    corpus: Path, run: Path, before: dict[str, str], listener: Listener, marker: str
) -> None:
    said = notes(run)
    assert said, "the attacks did not run"
    # Independent of what the candidate said: nothing of the corpus changed, the host listener
    # was never reached, no process of the candidate outlived its cycle.
    assert tree_digest(corpus) == before
    assert listener.accepted == 0
    assert host_processes_with(marker) == []
    # And what it said agrees: every attack was refused.
    for name in ("read-expected", "read-events", "write-corpus", "write-run", "read-home",
                 "read-shadow", "host-port", "outside", "trace-1"):  # fmt: skip
        lines = [line for line in said if line.startswith(name + ":")]
        assert lines and all(": refused" in line for line in lines), (name, lines)
    # Only the sandbox's own processes exist for it (bwrap's init and the candidate's).
    pids = [line for line in said if line.startswith("pids:")]
    assert pids and all("succeeded []" in line or "refused" in line for line in pids), pids


@pytest.mark.parametrize("kind", ["program", "class"])
def test_a_candidate_reaches_nothing_but_the_laboratory(
    corpus: Path, tmp_path: Path, kind: str
) -> None:
    """An `--agent-cmd` program and an in-process class, each run sealed, make every attack."""
    if kind == "program":
        pytest.importorskip("cryptography")
    listener = Listener()
    marker = f"provebench-daemon-{os.getpid()}-{kind}"
    run = tmp_path / "run"
    source = tmp_path / "attacker.py"
    text = (program if kind == "program" else importer_class)(corpus, run, listener.port, marker)
    source.write_text(text, encoding="utf-8")
    agent = (
        ("--agent-cmd", f"{sys.executable} {source}")
        if kind == "program"
        else ("--agent", f"{source}:Attacker")
    )
    before = tree_digest(corpus)
    try:
        result = run_cli(
            "pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet", *agent
        )
    finally:
        listener.close()
    assert result.returncode == 0, result.stderr
    assert_every_attack_held(corpus, run, before, listener, marker)
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert record["isolation"]["mode"] == "sandbox"


CTX_INTROSPECTION = """
class Introspector:
    name = "introspector"
    version = "1"

    def run_cycle(self, ctx):
        found = []
        seen, queue = set(), [ctx]
        while queue:
            item = queue.pop()
            if id(item) in seen:
                continue
            seen.add(id(item))
            for attribute in dir(item):
                if attribute.startswith("__") and attribute != "__dict__":
                    continue
                try:
                    value = getattr(item, attribute)
                except Exception:
                    continue
                kind = type(value).__name__
                if kind in ("Gateway", "FaultPlan", "CycleRecord", "DriveState"):
                    found.append(kind)
                if not callable(value) and not isinstance(value, (str, int, float)):
                    queue.append(value)
        ctx.diagnostics.note("found: " + ",".join(sorted(set(found))))
"""


def test_ctx_leads_to_no_laboratory_object(corpus: Path, tmp_path: Path) -> None:
    source = tmp_path / "introspector.py"
    source.write_text(CTX_INTROSPECTION, encoding="utf-8")
    run = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet",
        "--agent", f"{source}:Introspector",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert notes(run) == ["found: "] * SMALL["cycles"]


EXHAUSTION = """
import os, time

class Exhauster:
    name = "exhauster"
    version = "1"

    def run_cycle(self, ctx):
        ctx.diagnostics.note("started")
        kind = KIND
        if kind == "memory":
            hoard = []
            while True:
                hoard.append(bytearray(64 * 1024 * 1024))
        if kind == "processes":
            while True:
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
        if kind == "file":
            with open(ctx.work_dir / "big", "wb") as handle:
                while True:
                    handle.write(b"x" * (1 << 20))
        if kind == "output":
            chunk = "y" * 65536
            for _ in range(2000):  # 128 MiB to standard output
                print(chunk)
"""


@pytest.mark.parametrize("kind", ["memory", "processes", "file", "output"])
def test_exhaustion_is_the_cycles_agent_error_and_the_run_is_intact(
    corpus: Path, tmp_path: Path, kind: str
) -> None:
    source = tmp_path / "exhauster.py"
    source.write_text(f"KIND = {kind!r}\n" + EXHAUSTION, encoding="utf-8")
    run = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet",
        "--agent", f"{source}:Exhauster", "--cycle-timeout", "20",
        "--sandbox-memory", "768", "--sandbox-processes", "64", "--sandbox-file-size", "32",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert notes(run) == ["started"] * SMALL["cycles"]
    errors = agent_errors(run)
    if kind == "output":
        assert errors == []  # printed output costs the candidate only its own time
        # Bounded where it reaches the laboratory: at most MAX_OUTPUT_BYTES a cycle.
        assert len(result.stderr) <= SMALL["cycles"] * MAX_OUTPUT_BYTES + 65536
    else:
        assert len(errors) == SMALL["cycles"], errors
    # The run is complete and its log verifies.
    assert (run / "run.json").is_file()
    verified = run_cli("log", "verify", str(run / "ledger.sqlite"))
    assert verified.returncode == 0, verified.stderr
    big = run / "work" / "big"  # one file stops at the file-size limit
    assert not big.exists() or big.stat().st_size <= 32 * MIB


def test_a_venv_interpreter_given_by_path_runs_with_its_venv(corpus: Path, tmp_path: Path) -> None:
    pytest.importorskip("cryptography")
    import subprocess

    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)],
        check=True,
    )
    package = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    package = package / "site-packages" / "only_in_this_venv.py"
    package.write_text("VALUE = 'from the venv'\n", encoding="utf-8")
    script = tmp_path / "uses_venv.py"
    script.write_text(
        "import json, os, only_in_this_venv\n"
        "with open(os.environ['PROVEBENCH_DIAGNOSTICS_FILE'], 'a') as handle:\n"
        "    handle.write(json.dumps({'channel': 'note', 'message': only_in_this_venv.VALUE}))\n",
        encoding="utf-8",
    )
    run = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet",
        "--agent-cmd", f"{venv / 'bin' / 'python'} {script}",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert agent_errors(run) == []
    assert notes(run) == ["from the venv"] * SMALL["cycles"]


def test_an_unsealed_run_can_never_pass(corpus: Path, tmp_path: Path) -> None:
    """`pilot serve`'s client is not started by provebench: its run evaluates, never passes."""
    from provebench.pilot.evaluate._core import unsealed_reason

    assert unsealed_reason({"isolation": {"mode": "trusted-shipped"}}) is None
    sandbox = {"mode": "sandbox", "tool": "bubblewrap", "version": "0.11.0"}
    assert unsealed_reason({"isolation": {**sandbox, "policy_sha256": "a" * 64}}) is None
    assert unsealed_reason({"isolation": sandbox}) is not None  # no policy digest
    assert unsealed_reason({"isolation": {"mode": "none", "reason": "served"}}) is not None
    assert unsealed_reason({}) is not None
    assert REPO_ROOT.is_dir()


@pytest.mark.parametrize("attack", ["FindsTheCorpusThroughProc", "ReadsTheAnswerKeyFromDisk"])
def test_the_red_teams_sandbox_attacks_are_real_and_the_sandbox_stops_them(
    corpus: Path, tmp_path: Path, attack: str
) -> None:
    """Run trusted, as provebench's own importers are, each sandbox attack reaches the answer key:
    its final state is perfect and fools the published final-state scorer, and only the
    evaluator's invariant 1 (rows for files never shown) stops it. Sealed, as the red team runs
    it, it reaches nothing at all."""
    from provebench.pilot.evaluate import evaluate_run
    from provebench.pilot.lab._runner import run_lab

    spec = f"provebench.pilot.agents.defective:{attack}"
    # The trusted control runs beside a copy of the corpus, as a laboratory keeps a run: the
    # attack searches nearest its own work folder (and own process) first, so it reaches this
    # corpus before another run's or another checkout's of the same seed elsewhere on the host.
    own = tmp_path / "corpus"
    shutil.copytree(corpus, own)
    trusted = tmp_path / "trusted"
    result = run_cli("pilot", "run", "--corpus", str(own), "--out", str(trusted), "--quiet",
                     "--agent", spec)  # fmt: skip
    assert result.returncode == 0, result.stderr
    cheated = evaluate_run(trusted, own)
    assert cheated.scorer_pass  # the answer key was reached: the final state is the expected one
    kinds = {v.kind for v in cheated.critical_violations}
    assert "processing_without_verified_actual_value" in kinds and not cheated.laboratory_pass
    sealed = tmp_path / "sealed"
    run_lab(corpus, spec, sealed, seal=True)
    verdict = evaluate_run(sealed, corpus)
    assert not verdict.laboratory_pass
    assert verdict.metrics is not None and verdict.metrics.overall.completeness.value == 0.0
    assert notes(sealed) == ["answer key not reachable"] * SMALL["cycles"]
    assert verdict.result_evidence.isolation["mode"] == "sandbox"


def test_the_disk_search_reaches_the_runs_own_corpus_before_a_strangers(tmp_path: Path) -> None:
    """Another corpus of the same seed (same file ids, other rows) lies nearer the top of the
    file system than the run's own, as another checkout's or another run's would: the attack
    reaches the one beside its own work folder first."""
    from types import SimpleNamespace

    from provebench.pilot.agents.defective import ReadsTheAnswerKeyFromDisk

    header = "file_id,status\n"
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "expected_final_rows.csv").write_text(header + "f1,other\n")
    own = tmp_path / "lab" / "deep" / "corpus"
    own.mkdir(parents=True)
    (own / "expected_final_rows.csv").write_text(header + "f1,imported\n")
    work = tmp_path / "lab" / "deep" / "run" / "work"
    work.mkdir(parents=True)
    ctx: Any = SimpleNamespace(work_dir=work)
    assert next(iter(ReadsTheAnswerKeyFromDisk().keys(ctx)), None) == header + "f1,imported\n"


def test_the_proc_search_reads_its_own_process_first() -> None:
    from provebench.pilot.agents.defective import FindsTheCorpusThroughProc

    argv = Path("/proc/self/cmdline").read_bytes().split(b"\0")
    first = next(a.decode() for a in argv if os.sep.encode() in a)
    assert next(iter(FindsTheCorpusThroughProc._leads())) == first


FORGER = """
import json, socket, struct, sys

class Forger:
    name = "forger"
    version = "1"

    def run_cycle(self, ctx):
        channel = socket.socket(fileno=int(sys.argv[1]))  # the worker's own channel
        forged = FORGED
        if isinstance(forged, bytes):
            channel.sendall(forged)
        else:
            body = json.dumps(forged).encode()
            channel.sendall(struct.pack(">I", len(body)) + body)
"""


@pytest.mark.parametrize(
    ("forged", "agent_error"),
    [
        (b"\xff\xff\xff\xff", "SandboxedWorkerLost"),  # a frame of 4 GiB announced
        (b"\x00\x00\x00\x05{nope", "SandboxedWorkerLost"),  # not JSON
        ({"failed": 3}, "ImporterFailed"),  # a failure of no shape
        ({"failed": {"type": "Forged", "message": "x" * 10}}, "Forged"),
        ({"done": True}, None),  # the worker's own word that it finished: it ends the cycle
        # A forged call is answered and recorded like any ctx call; the importer's socket object
        # then closes the channel under its worker, which is the cycle's agent_error.
        (
            {"call": "sheets.append_rows", "args": [[{"file_id": 1}]], "kwargs": {}},
            "SandboxedWorkerLost",
        ),
        # A call named by no name (a list): answered as no such call, the same way.
        ({"call": ["drive", "list_files"], "args": [], "kwargs": {}}, "SandboxedWorkerLost"),
    ],
)
def test_a_candidate_speaking_on_its_workers_channel_breaks_nothing(
    corpus: Path, tmp_path: Path, forged: object, agent_error: str | None
) -> None:
    source = tmp_path / "forger.py"
    source.write_text(f"FORGED = {forged!r}\n" + FORGER, encoding="utf-8")
    run = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet",
        "--agent", f"{source}:Forger",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    errors = [error["type"] for error in agent_errors(run)]
    if agent_error is None:
        assert errors == []  # the worker's own word ends the cycle
    else:
        assert errors == [agent_error] * SMALL["cycles"]
    if isinstance(forged, dict) and forged.get("call") == "sheets.append_rows":
        appends = [e["payload"] for e in log_entries(run) if e["kind"] == "sheets.append"]
        assert len(appends) == SMALL["cycles"] and all("error" in a for a in appends)
    verified = run_cli("log", "verify", str(run / "ledger.sqlite"))
    assert verified.returncode == 0, verified.stderr


STEADY = """
class Steady:
    name = "steady"
    version = "1"

    def run_cycle(self, ctx):
        journal = ctx.work_dir / "journal.txt"
        seen = journal.read_text().split() if journal.exists() else []
        token, fresh = None, []
        while True:
            try:
                page = ctx.drive.list_files(7, token)
            except Exception:
                continue
            fresh += [i for i in page.file_ids if i not in seen]
            token = page.next_page_token
            if token is None:
                break
        ctx.diagnostics.note(f"new: {len(fresh)}")
        journal.write_text(" ".join(seen + fresh))
"""


def test_a_sealed_run_killed_mid_cycle_resumes_to_the_same_bytes(
    corpus: Path, tmp_path: Path
) -> None:
    """SIGKILL of the laboratory while a sealed worker is in its cycle: the worker dies with it
    (`--die-with-parent`), and the same command gives the uninterrupted run's bytes."""
    import signal

    source = tmp_path / "code" / "steady.py"
    source.parent.mkdir()
    source.write_text(STEADY, encoding="utf-8")

    def args(out: Path) -> tuple[str, ...]:
        return ("pilot", "run", "--corpus", str(corpus), "--out", str(out), "--quiet",
                "--agent", f"{source}:Steady")  # fmt: skip

    reference = tmp_path / "uninterrupted"
    assert run_cli(*args(reference)).returncode == 0
    crashed = tmp_path / "crashed"
    first = run_cli(*args(crashed), env={"PROVEBENCH_PILOT_CRASH_AT": "call:3@2"})
    assert first.returncode == -signal.SIGKILL, first.stderr
    assert gone_within(str(source), 5.0)  # no worker outlives the laboratory
    second = run_cli(*args(crashed))
    assert second.returncode == 0, second.stderr
    for name in ("ledger.jsonl", "register.csv", "diagnostics.jsonl"):
        assert (crashed / name).read_bytes() == (reference / name).read_bytes(), name
    assert (crashed / "work" / "journal.txt").read_bytes() == (
        reference / "work" / "journal.txt"
    ).read_bytes()


LOOPING = """
class Looping:
    name = "looping"
    version = "1"

    def run_cycle(self, ctx):
        ctx.diagnostics.note("looping")
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
"""


def test_a_sealed_importer_that_never_returns_is_ended_at_the_limit(
    corpus: Path, tmp_path: Path
) -> None:
    source = tmp_path / "looping.py"
    source.write_text(LOOPING, encoding="utf-8")
    run = tmp_path / "run"
    result = run_cli("pilot", "run", "--corpus", str(corpus), "--out", str(run), "--quiet",
                     "--agent", f"{source}:Looping", "--cycle-timeout", "1.5")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (
        agent_errors(run)
        == [
            {
                "type": "ImporterTimedOut",
                "message": "the importer did not finish its cycle within 1.5 s",
            }
        ]
        * SMALL["cycles"]
    )
    assert notes(run) == ["looping"] * SMALL["cycles"]
    assert host_processes_with(str(source)) == []
