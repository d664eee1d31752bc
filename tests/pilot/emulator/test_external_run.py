"""External importers through `provebench pilot run --agent-cmd` and `provebench pilot serve`:
a process boundary, the real Google clients on the wire, the same crash-safe runner."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.emulator._commands import run_with_command
from provebench.pilot.record._work_digest import work_tree_sha256
from tests.helpers.pilot_lab import PROVEBENCH, REPO_ROOT, read_rows, run_cli

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

REFERENCE = REPO_ROOT / "examples" / "gdrive_importer" / "importer.py"
# 4 cycles (two run versions), every file case, and the public profile's temporary failures.
SMALL = {
    "cycles": 4,
    "file_events": 24,
    "admissible_files": 8,
    "same_name_files": 1,
    "boundary_time_files": 1,
    "adversarial_items": 1,
}

NAIVE = textwrap.dedent(
    """
    import os
    import socket
    import time
    from google.oauth2 import service_account
    from googleapiclient.discovery import build

    # The client's backoff between retries sleeps real seconds, which the laboratory's virtual
    # clock never sees: the retries are what this importer shows, not the wait.
    time.sleep = lambda seconds: None
    # A deadline of its own: a timeout is never answered (docs/pilot-emulator.md, "Faults").
    socket.setdefaulttimeout(2)

    env = os.environ
    creds = service_account.Credentials.from_service_account_file(
        env["GOOGLE_APPLICATION_CREDENTIALS"], scopes=["https://www.googleapis.com/auth/drive"])
    drive = build("drive", "v3", credentials=creds, static_discovery=True,
                  client_options={"api_endpoint": env["PROVEBENCH_DRIVE_ENDPOINT"]})
    sheets = build("sheets", "v4", credentials=creds, static_discovery=True,
                   client_options={"api_endpoint": env["PROVEBENCH_SHEETS_ENDPOINT"]})
    sid = env["PROVEBENCH_SPREADSHEET_ID"]
    with open("endpoint.txt", "w") as handle:
        handle.write(env["PROVEBENCH_DRIVE_ENDPOINT"])
    got = sheets.spreadsheets().values().get(
        spreadsheetId=sid, range=env["PROVEBENCH_CONFIRMED_SHEET"]).execute(num_retries=5)
    confirmed = {row[0] for row in got.get("values", [])[1:]}
    files = drive.files()
    request = files.list(pageSize=1000, fields="nextPageToken,files(id)")
    while request is not None:
        page = request.execute(num_retries=5)
        for item in page.get("files", []):
            if item["id"] in confirmed:
                continue
            confirmed.add(item["id"])
            row = [item["id"], "", "", "", "", "", "", ""]
            # Blind retry of a write: the mistake this importer exists to show.
            sheets.spreadsheets().values().append(
                spreadsheetId=sid, range="'Working sheet'!A1", valueInputOption="RAW",
                body={"values": [row]}).execute(num_retries=5)
        request = files.list_next(request, page)
    """
)


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first small corpus (from seed 3 on) whose schedule holds an applied-then-500 append:
    the duplicate-on-blind-retry test needs one, whatever the generator's draw."""
    root = tmp_path_factory.mktemp("external")
    for seed in range(3, 40):
        target = root / f"corpus-{seed}"
        write_corpus(corpus_config(seed=seed, profile="public", overrides=SMALL), target)
        info = json.loads((target / "corpus.json").read_text(encoding="utf-8"))
        if info["counts"]["by_fault"].get("applied_then_error"):
            return target
    raise AssertionError("no small corpus with an applied_then_error fault")


def _script(tmp_path: Path, name: str, text: str) -> Path:
    """A script in a folder of its own: the sandbox shows, and the run's identity counts, every
    byte of the folder (another run's folder beside the script would be part of it)."""
    path = tmp_path / "code" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_reference_importer_on_the_real_client_reaches_the_expected_register(
    small_corpus: Path, tmp_path: Path
) -> None:
    # The venv's interpreter given by path: run through its link's target, it would lose the
    # venv and the Google clients installed there (docs/pilot-emulator.md).
    assert (Path(sys.prefix) / "pyvenv.cfg").is_file()
    result = run_cli(
        "pilot", "run", "--corpus", str(small_corpus), "--out", str(tmp_path / "run"),
        "--agent-cmd", f"{sys.executable} {REFERENCE}", "--quiet", timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    register = (tmp_path / "run" / "register.csv").read_bytes()
    assert register == (small_corpus / "expected_final_rows.csv").read_bytes()
    kinds = [json.loads(line)["kind"] for line in (tmp_path / "run" / "ledger.jsonl").open()]
    assert "http.request" in kinds
    assert "agent_error" not in kinds
    diagnostics = [json.loads(line) for line in (tmp_path / "run" / "diagnostics.jsonl").open()]
    checks = {d["name"]: d["passed"] for d in diagnostics if d["channel"] == "self_check"}
    assert checks["final_status_not_writable"] is True
    assert checks["pagination"] is True
    failed = [d for d in diagnostics if d["channel"] == "failed_file"]
    assert failed  # the corrupted and unsupported files were reported, not imported
    verdict = run_cli("pilot", "evaluate", str(tmp_path / "run"), "--corpus", str(small_corpus))
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    assert "laboratory_pass=true" in verdict.stdout
    assert "critical_violations=0" in verdict.stdout


@pytest.mark.slow
def test_the_example_passes_with_a_fault_on_a_non_last_batch(tmp_path: Path) -> None:
    """Pilot red team 34, A4: cycles of 1,658 to 1,998 new rows, faults on batches before the
    last. The example named every row left after the failed append (the batches never attempted
    included): 2,661 `not_refused` gaps, laboratory_pass false."""
    corpus = tmp_path / "corpus"
    write_corpus(
        corpus_config(seed=35, profile="public", overrides={"file_events": 8000, "cycles": 4}),
        corpus,
    )
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--out", str(tmp_path / "run"),
        "--agent-cmd", f"{sys.executable} {REFERENCE}", "--quiet", timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    verdict = run_cli("pilot", "evaluate", str(tmp_path / "run"), "--corpus", str(corpus))
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    assert "laboratory_pass=true" in verdict.stdout


def _lab_facts(run_dir: Path) -> list[tuple[int, str, dict[str, object]]]:
    """The log's entries without the digest of the importer's work directory (and so without
    the chain hashes and the keyed anchor that cover it). This importer keeps the emulator's
    endpoint, a fresh port each attempt, in its work directory, which each `cycle_confirmed`
    binds (docs/pilot-lab.md, "Crash safety"): the log differs only there, and the last digest
    is that of the folder. The anchors are checked whole by the resume itself."""
    facts = []
    last_digest = None
    for line in (run_dir / "ledger.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        payload = dict(entry["payload"])
        if entry["kind"] == "cycle_confirmed":
            last_digest = payload.pop("work_sha256")
            payload.pop("anchor")  # signs the entry, work_sha256 included
        facts.append((entry["seq"], entry["kind"], payload))
    assert last_digest == work_tree_sha256(run_dir / "work")
    return facts


@pytest.mark.slow
def test_blind_retry_duplicates_and_the_run_is_deterministic_and_stops_its_server(
    small_corpus: Path, tmp_path: Path
) -> None:
    naive = _script(tmp_path, "naive.py", NAIVE)
    logs = []
    for name in ("a", "b"):
        run_dir = tmp_path / name
        run_with_command(small_corpus, f"python {naive}", run_dir)
        logs.append(_lab_facts(run_dir))
    assert logs[0] == logs[1]  # no port, token or clock in the log
    ids = [row[0] for row in read_rows(tmp_path / "a" / "register.csv")[1:]]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    assert duplicated, "the applied-then-500 append was retried blindly"
    endpoint = (tmp_path / "a" / "work" / "endpoint.txt").read_text()
    port = int(endpoint.split(":")[2].split("/")[0])
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


def test_isolation_environment_diagnostics_and_exit_status(
    small_corpus: Path, tmp_path: Path
) -> None:
    script = _script(
        tmp_path,
        "probe.py",
        textwrap.dedent(
            """
            import json, os, pathlib
            state = pathlib.Path("state.json")
            count = json.loads(state.read_text())["n"] + 1 if state.exists() else 1
            state.write_text(json.dumps({"n": count}))
            pathlib.Path("env.json").write_text(json.dumps(
                {"cwd": os.getcwd(), "env": dict(os.environ)}))
            with open(os.environ["PROVEBENCH_DIAGNOSTICS_FILE"], "w") as out:
                out.write(json.dumps({"channel": "note", "message": f"cycle {count}"}) + "\\n")
                out.write('{"channel": "self_check", "name": "x", "passed": "yes"}\\n')
                out.write("not json\\n")
            raise SystemExit(3 if count == 2 else 0)
            """
        ),
    )
    run_dir = tmp_path / "run"
    run_with_command(small_corpus, f"python {script}", run_dir)
    seen = json.loads((run_dir / "work" / "env.json").read_text())
    env = seen["env"]
    assert seen["cwd"] == env["PROVEBENCH_WORK_DIR"]
    assert str(run_dir) not in json.dumps(seen)  # no path into the run directory
    assert json.loads((run_dir / "work" / "state.json").read_text()) == {"n": 4}
    allowed = {"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ", "GOOGLE_APPLICATION_CREDENTIALS"}
    extra = {k for k in env if k not in allowed and not k.startswith(("PROVEBENCH_", "PYTHON"))}
    # The interpreter may add LC_CTYPE itself; bubblewrap sets PWD to the sandbox's work folder.
    assert extra <= {"LC_CTYPE", "PWD"}, extra
    assert env.get("PWD", env["PROVEBENCH_WORK_DIR"]) == env["PROVEBENCH_WORK_DIR"]
    assert env["PROVEBENCH_TIME_ZONE"] in ("Europe/Berlin", "America/New_York")
    entries = [json.loads(line) for line in (run_dir / "ledger.jsonl").open()]
    errors = [e["payload"] for e in entries if e["kind"] == "agent_error"]
    assert [e["message"] for e in errors] == ["the importer exited with status 3"]
    diagnostics = [e["payload"] for e in entries if e["kind"] == "diagnostics"]
    assert [d["message"] for d in diagnostics if d["channel"] == "note"] == [
        f"cycle {n}" for n in (1, 2, 3, 4)
    ]
    invalid = [d["where"] for d in diagnostics if d["channel"] == "invalid"]
    assert invalid == ["line 2", "line 3"] * 4


def test_serve_refuses_a_non_loopback_host(small_corpus: Path, tmp_path: Path) -> None:
    result = run_cli(
        "pilot", "serve", "--corpus", str(small_corpus), "--out", str(tmp_path / "r"),
        "--host", "0.0.0.0",
    )  # fmt: skip
    assert result.returncode == 2
    assert "127.0.0.1 only" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_stops_cleanly_on_ctrl_c_or_sigterm_even_with_sigint_ignored(
    small_corpus: Path, tmp_path: Path, stop: signal.Signals
) -> None:
    # Started with SIGINT inherited ignored (`… &` in a non-interactive shell): Ctrl-C still
    # stops it, exit 0, the open cycle not committed, the port closed.
    process = subprocess.Popen(
        [*PROVEBENCH, "pilot", "serve", "--corpus", str(small_corpus), "--out",
         str(tmp_path / "r")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
        env={**os.environ}, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "lab emulator on http://127.0.0.1:" in first
        port = int(first.split("127.0.0.1:")[1].split(";")[0])
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        process.send_signal(stop)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopped" in out
    assert not (tmp_path / "r" / "run.json").exists()  # the open cycle was not committed
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)
    assert sys.executable  # the same interpreter served and was stopped


def test_serve_runs_cycles_a_client_finishes_and_stops_at_the_end(
    small_corpus: Path, tmp_path: Path
) -> None:
    from google.auth.transport.requests import AuthorizedSession
    from google.oauth2 import service_account

    run_dir = tmp_path / "served"
    process = subprocess.Popen(
        [*PROVEBENCH, "pilot", "serve", "--corpus", str(small_corpus), "--out", str(run_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        env: dict[str, str] = {}
        while "PROVEBENCH_COLUMNS" not in env:
            line = process.stdout.readline()
            assert line, process.stderr.read() if process.stderr else ""
            if line.startswith("export "):
                name, _, value = line.removeprefix("export ").strip().partition("=")
                env[name] = value.strip("'")
        credentials = service_account.Credentials.from_service_account_file(
            env["GOOGLE_APPLICATION_CREDENTIALS"], scopes=["https://www.googleapis.com/auth/drive"]
        )
        session = AuthorizedSession(credentials)
        lab = env["PROVEBENCH_LAB_ENDPOINT"]
        zones = []
        for _ in range(4):  # the corpus has 4 cycles
            info = session.get(lab + "cycle", timeout=10).json()
            zones.append(info["timeZone"])
            finished = session.post(lab + "cycle:finish", timeout=10)
            assert finished.status_code == 200
            # the finished cycle answers 503 until the lab opens the next one (or ends the run)
            for _ in range(200):
                if process.poll() is not None:
                    break
                try:
                    if session.get(lab + "cycle", timeout=10).status_code == 200:
                        break
                except OSError:
                    break
                time.sleep(0.05)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "4 cycles, 0 confirmed rows" in out
    assert (run_dir / "run.json").is_file()
    assert len(set(zones)) == 2  # the zone change of the second run version (pilot §5)
    port = int(env["PROVEBENCH_TOKEN_URI"].split(":")[2].split("/")[0])
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


@pytest.mark.slow
def test_sigkill_mid_cycle_and_resume_publish_the_same_bytes(
    small_corpus: Path, tmp_path: Path
) -> None:
    crash = "call:3@2"  # the lab dies inside cycle 2, while the importer is talking to it
    naive = _script(tmp_path, "naive.py", NAIVE)
    command = f"python {naive}"
    reference = tmp_path / "uninterrupted"
    run_with_command(small_corpus, command, reference)
    crashed = tmp_path / "crashed"
    args = ("pilot", "run", "--corpus", str(small_corpus), "--out", str(crashed),
            "--agent-cmd", command, "--quiet")  # fmt: skip
    first = run_cli(*args, env={"PROVEBENCH_PILOT_CRASH_AT": crash}, timeout=240)
    assert first.returncode == -signal.SIGKILL, first.stderr
    assert not (crashed / "run.json").exists()
    second = run_cli(*args, timeout=240)
    assert second.returncode == 0, second.stderr
    assert _lab_facts(crashed) == _lab_facts(reference)
    for name in ("register.csv", "diagnostics.jsonl"):
        assert (crashed / name).read_bytes() == (reference / name).read_bytes(), name


def test_an_external_importer_that_crashes_is_in_the_errors_and_the_summary(
    small_corpus: Path, tmp_path: Path
) -> None:
    crash = _script(tmp_path, "crash.py", "raise SystemExit(3)\n")
    result = run_cli(
        "pilot", "run", "--corpus", str(small_corpus), "--out", str(tmp_path / "run"),
        "--agent-cmd", f"python {crash}", timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    errors = re.findall(r"^cycle \d+/4: \d+ events, (\d+) errors$", result.stderr, re.M)
    assert errors == ["1"] * 4  # no call made, so no error answered: each is the agent_error
    said = "agent_error in 4 cycle(s), the last: ExternalImporterFailed: the importer exited"
    assert said in result.stdout


def test_run_takes_exactly_one_of_agent_and_agent_cmd(small_corpus: Path, tmp_path: Path) -> None:
    base = ("pilot", "run", "--corpus", str(small_corpus), "--out", str(tmp_path / "r"))
    for extra in ((), ("--agent", "noop", "--agent-cmd", "python -c pass")):
        result = run_cli(*base, *extra)
        assert result.returncode == 2
        assert "exactly one of --agent and --agent-cmd" in result.stderr
    missing = run_cli(*base, "--agent-cmd", "no-such-program-here")
    assert missing.returncode == 2
    assert "program not found" in missing.stderr
    # A path is checked up front too, not left to fail in every cycle of a "complete" run.
    plain = tmp_path / "plain.txt"
    plain.write_text("not a program", encoding="utf-8")
    for command, said in (
        (str(tmp_path / "no-such" / "importer"), "program not found"),
        (f"{plain} --flag", "program is not executable"),
    ):
        result = run_cli(*base, "--agent-cmd", command)
        assert result.returncode == 2, result.stdout
        [line] = result.stderr.strip().splitlines()
        assert said in line and "--agent-cmd" in line
    assert not (tmp_path / "r").exists()


ESCAPER = textwrap.dedent(
    """
    import json, os, sys, time, urllib.parse, urllib.request
    from google.auth import crypt, jwt
    if os.path.exists("started"):
        time.sleep(0.5)  # later cycles last long enough for the daemon to try them
        sys.exit(0)
    open("started", "w").write("1")
    env = dict(os.environ)
    info = json.load(open(env["GOOGLE_APPLICATION_CREDENTIALS"]))  # the key, kept in memory
    def call(url, method, headers=None, data=None):
        request = urllib.request.Request(url, method=method, headers=headers or {}, data=data)
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, None
        except OSError as error:
            return type(error).__name__, None
    def token():
        now = int(time.time())
        claims = {"iss": info["client_email"], "aud": "https://oauth2.googleapis.com/token",
                  "iat": now, "exp": now + 3600, "scope": "x"}
        signer = crypt.RSASigner.from_service_account_info(info)
        assertion = jwt.encode(signer, claims, key_id=info["private_key_id"]).decode()
        form = urllib.parse.urlencode({"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
                                       "assertion": assertion}).encode()
        status, body = call(env["PROVEBENCH_TOKEN_URI"], "POST", data=form)
        return status, (body or {}).get("access_token")
    first = token()[1]
    drive = env["PROVEBENCH_DRIVE_ENDPOINT"]
    def delete(name, tok):
        return call(drive + "files/" + name, "DELETE", {"Authorization": "Bearer " + tok})[0]
    if os.fork():
        while not os.path.exists("daemon.log.called"):  # the daemon called in this cycle
            time.sleep(0.01)
        sys.exit(0)
    os.setsid()
    if os.fork():
        os._exit(0)
    out = open("daemon.log", "a")  # in its work directory, carried to the next cycle
    out.write(f"pid {os.getpid()}\\n"); out.flush()
    for i in range(500):
        status, fresh = token()
        lines = [f"old {delete(f'ghost-old-{i}', first)}", f"token {status}"]
        if fresh:
            lines.append(f"new {delete(f'ghost-new-{i}', fresh)}")
        out.write("".join(line + "\\n" for line in lines)); out.flush()
        open("daemon.log.called", "w").close()
        time.sleep(0.02)
    """
)


def test_a_process_that_escapes_the_group_ends_with_its_cycle(
    small_corpus: Path, tmp_path: Path
) -> None:
    """A double-forked, `setsid` daemon outlives its importer but not its cycle: the sandbox's
    PID namespace ends with the command (docs/sandbox.md). It acted in cycle 1 only."""
    script = _script(tmp_path, "escaper.py", ESCAPER)
    marker = f"escaper-marker-{os.getpid()}"
    run_dir = tmp_path / "run"
    run_with_command(small_corpus, f"python {script} {marker}", run_dir)
    assert not _host_processes_with(marker)
    kinds = [json.loads(line) for line in (run_dir / "ledger.jsonl").open()]
    first_confirmed = next(i for i, e in enumerate(kinds) if e["kind"] == "cycle_confirmed")
    ghosts = [i for i, e in enumerate(kinds) if "ghost-" in json.dumps(e["payload"])]
    assert ghosts and max(ghosts) < first_confirmed  # cycle 1 only
    # What it wrote in cycle 1 was carried on with the work directory; nothing after.
    statuses = (run_dir / "work" / "daemon.log").read_text().splitlines()[1:]
    assert statuses and all(line.startswith(("old", "token", "new")) for line in statuses)


def _host_processes_with(marker: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(entry.name)
    return found
