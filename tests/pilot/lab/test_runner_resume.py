"""Crash safety: SIGKILL the run anywhere, run the same command again, get the same bytes."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from provebench.ledger import verify_ledger
from tests.helpers.pilot_lab import PROVEBENCH, REPO_ROOT, log_but_nonce, make_corpus, run_cli

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

COMPARED_FILES = ("register.csv", "diagnostics.jsonl", "identity.json")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("corpus"), profile="public", seed=3)


@pytest.fixture(scope="module")
def uninterrupted(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "clean"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "reference", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    return out


def run_args(corpus: Path, out: Path) -> list[str]:
    return ["pilot", "run", "--corpus", str(corpus), "--agent", "reference", "--out", str(out)]


def scored_record(run_dir: Path) -> dict[str, Any]:
    """run.json less what a run's own nonce makes differ (the log's hashes and the digests of
    its two files) and the non-scoring measurements."""
    record: dict[str, Any] = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    record.pop("non_scoring")
    record["files_sha256"].pop("ledger.sqlite")
    record["files_sha256"].pop("ledger.jsonl")
    record["ledger"].pop("head_hash")
    return record


def assert_same_run(run_dir: Path, reference: Path) -> None:
    for name in COMPARED_FILES:
        assert (run_dir / name).read_bytes() == (reference / name).read_bytes(), name
    assert log_but_nonce(run_dir / "ledger.jsonl") == log_but_nonce(reference / "ledger.jsonl")
    assert scored_record(run_dir) == scored_record(reference)
    # The SQLite log is the one its export and run.json describe, whole and intact.
    ledger = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))["ledger"]
    report = verify_ledger(
        run_dir / "ledger.sqlite", expect_head=ledger["head_hash"], expect_length=ledger["length"]
    )
    assert report.ok, report.problems


# Each sequence kills the run at every point in turn (resuming in between), then finishes it.
CRASH_SEQUENCES = [
    ("call:1@1", "before_commit@2", "after_commit@3"),
    ("call:7@2", "after_snapshot@4", "publish:after_register@0"),
    ("after_commit@6", "publish:after_ledger_export@0", "publish:before_run_json@0"),
]


@pytest.mark.slow
@pytest.mark.parametrize("points", CRASH_SEQUENCES, ids="+".join)
def test_kills_at_chosen_points_then_resume_give_identical_bytes(
    points: tuple[str, ...], corpus: Path, uninterrupted: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    for point in points:
        crashed = run_cli(*run_args(corpus, out), env={"PROVEBENCH_PILOT_CRASH_AT": point})
        assert crashed.returncode == -signal.SIGKILL, (point, crashed.stderr)
        assert not (out / "run.json").exists()  # an incomplete run is recognisable as such
    resumed = run_cli(*run_args(corpus, out))
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed" in resumed.stdout
    assert_same_run(out, uninterrupted)
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert record["non_scoring"]["resumed"] is True


@pytest.mark.slow
def test_random_time_kills_then_resume_gives_identical_bytes(
    corpus: Path, uninterrupted: Path, tmp_path: Path
) -> None:
    rng = random.Random(20261130)
    # Kill times are drawn within the duration of a whole run on this machine, measured here:
    # fixed delays would either never land on a fast machine or always land in start-up.
    started = time.monotonic()
    timing = run_cli(*run_args(corpus, tmp_path / "timing"), "--quiet")
    duration = time.monotonic() - started
    assert timing.returncode == 0, timing.stderr
    out = tmp_path / "run"
    kills = 0
    for _ in range(6):
        process = subprocess.Popen(
            [*PROVEBENCH, *run_args(corpus, out), "--quiet"],
            cwd=REPO_ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.2, 0.9) * duration)
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            kills += 1
        process.wait(timeout=60)
        if kills >= 3:
            break
    final = run_cli(*run_args(corpus, out))
    assert final.returncode == 0, final.stderr
    assert kills >= 1, "no kill landed during the run; widen the delays"
    assert_same_run(out, uninterrupted)


def test_completed_run_is_not_run_again(corpus: Path, uninterrupted: Path) -> None:
    before = (uninterrupted / "run.json").read_bytes()
    again = run_cli(*run_args(corpus, uninterrupted))
    assert again.returncode == 0
    assert "already complete" in again.stdout
    assert (uninterrupted / "run.json").read_bytes() == before


def test_resume_with_another_agent_or_corpus_is_refused(
    corpus: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    out = tmp_path / "run"
    crashed = run_cli(*run_args(corpus, out), env={"PROVEBENCH_PILOT_CRASH_AT": "after_commit@1"})
    assert crashed.returncode == -signal.SIGKILL
    other_agent = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "noop", "--out", str(out)
    )
    assert other_agent.returncode == 2
    assert "another run" in other_agent.stderr and "agent" in other_agent.stderr
    other = make_corpus(tmp_path_factory.mktemp("other"), profile="public", seed=4)
    other_corpus = run_cli(*run_args(other, out))
    assert other_corpus.returncode == 2
    assert "corpus" in other_corpus.stderr
    assert len(other_corpus.stderr.strip().splitlines()) == 1
    assert not (out / "run.json").exists()


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_resume_without_the_ledger_is_refused_and_creates_nothing(
    corpus: Path, tmp_path: Path
) -> None:
    """The log of an unfinished run deleted: refused, and no new empty ledger passes for it."""
    out = tmp_path / "run"
    crashed = run_cli(*run_args(corpus, out), env={"PROVEBENCH_PILOT_CRASH_AT": "after_snapshot@3"})
    assert crashed.returncode == -signal.SIGKILL
    for companion in out.glob("ledger.sqlite*"):
        companion.unlink()
    before = _tree(out)
    again = run_cli(*run_args(corpus, out))
    assert again.returncode == 2
    [line] = again.stderr.strip().splitlines()
    assert "ledger.sqlite" in line and "the ledger of this unfinished run is missing" in line
    assert _tree(out) == before


def _edit_payload(ledger: Path, seq: int) -> None:
    """Edit one entry as someone with the file would: triggers dropped, payload changed, the
    triggers made again (so only the hash chain can tell)."""
    connection = sqlite3.connect(ledger)
    triggers = connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
    ).fetchall()
    for name, _ in triggers:
        connection.execute(f"DROP TRIGGER {name}")
    connection.execute("UPDATE entries SET payload = payload || ' ' WHERE seq = ?", (seq,))
    for _, sql in triggers:
        connection.execute(sql)
    connection.commit()
    connection.close()


def test_resume_on_a_log_edited_while_stopped_is_refused(corpus: Path, tmp_path: Path) -> None:
    """Pilot §6: the run must not carry a broken chain into a folder that looks complete."""
    out = tmp_path / "run"
    crashed = run_cli(*run_args(corpus, out), env={"PROVEBENCH_PILOT_CRASH_AT": "after_commit@3"})
    assert crashed.returncode == -signal.SIGKILL
    _edit_payload(out / "ledger.sqlite", 5)
    again = run_cli(*run_args(corpus, out))
    assert again.returncode == 2
    [line] = again.stderr.strip().splitlines()
    assert "ledger.sqlite" in line and "does not verify" in line and "seq 5" in line
    assert not (out / "run.json").exists()
    assert not (out / "register.csv").exists()


def test_an_evaluation_of_the_unfinished_run_leaves_the_finished_one_evaluable(
    corpus: Path, uninterrupted: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    crashed = run_cli(*run_args(corpus, out), env={"PROVEBENCH_PILOT_CRASH_AT": "after_commit@3"})
    assert crashed.returncode == -signal.SIGKILL
    early = run_cli("pilot", "evaluate", str(out), "--corpus", str(corpus))
    assert early.returncode == 2 and "incomplete_run" in early.stderr
    assert (out / "verdict.json").is_file()  # the configuration_error verdict
    (out / "report.html").write_text("a report of the unfinished run", encoding="utf-8")
    resumed = run_cli(*run_args(corpus, out))
    assert resumed.returncode == 0, resumed.stderr
    # Neither output of the earlier state is part of the run, nor left beside it.
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert not {"verdict.json", "report.html"} & set(record["files_sha256"])
    assert not (out / "verdict.json").exists() and not (out / "report.html").exists()
    assert_same_run(out, uninterrupted)
    # Evaluable: scored, though a resumed run earns no gate pass (docs/attestation.md, "A resumed
    # run is read, not credited"), so the evaluation exits 1, not 2.
    final = run_cli("pilot", "evaluate", str(out), "--corpus", str(corpus))
    assert final.returncode == 1, final.stderr
    assert "scorer_pass=true laboratory_pass=false" in final.stdout


def test_a_run_killed_while_writing_its_identity_starts_again(
    corpus: Path, uninterrupted: Path, tmp_path: Path
) -> None:
    """A kill inside the first write leaves only the atomic writer's temporary file: the same
    command starts the run again, rather than calling the folder foreign."""
    out = tmp_path / "run"
    out.mkdir()
    (out / ".identity.json.k3x9abc.tmp").write_text('{"format": "prove', encoding="utf-8")
    again = run_cli(*run_args(corpus, out))
    assert again.returncode == 0, again.stderr
    assert_same_run(out, uninterrupted)
    assert not list(out.glob(".identity.json.*"))
    # Anything else in the folder still makes it foreign.
    other = tmp_path / "other"
    other.mkdir()
    (other / ".identity.json.k3x9abc.tmp").write_text("{", encoding="utf-8")
    (other / ".identity.json.notes").write_text("mine", encoding="utf-8")
    refused = run_cli(*run_args(corpus, other))
    assert refused.returncode == 2 and "not empty" in refused.stderr
    assert sorted(p.name for p in other.iterdir()) == [
        ".identity.json.k3x9abc.tmp",
        ".identity.json.notes",
    ]


def test_a_second_run_in_a_folder_in_use_is_refused_and_touches_nothing(
    corpus: Path, uninterrupted: Path, tmp_path: Path
) -> None:
    """Two runs in one folder would interleave one log, and the loser could never resume: the
    folder is locked for the whole run, refused in one line, and usable once the lock is gone."""
    out = tmp_path / "busy"
    out.mkdir()
    holder = subprocess.Popen(
        [
            "python3",
            "-c",
            "import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('locked', flush=True)\n"
            "time.sleep(60)\n",
            str(out),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        refused = run_cli(*run_args(corpus, out))
        assert refused.returncode == 2, refused.stderr
        assert "another provebench run is using this run directory" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
        assert list(out.iterdir()) == []
    finally:
        holder.kill()
        holder.wait()
    result = run_cli(*run_args(corpus, out))
    assert result.returncode == 0, result.stderr
    assert_same_run(out, uninterrupted)
