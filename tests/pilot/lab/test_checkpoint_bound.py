"""The work directory's checkpoint is bound to the log (docs/pilot-lab.md, "Crash safety").

An importer that does what a file in its work directory says is a no-op when run untouched; killing
its run and writing the switch into the checkpoint (or into work/ between the commit and the
snapshot) before resuming would otherwise run a different importer under the same log. The resume
is refused, one line naming the folder, exit 2, and nothing more is run or written.
"""

from __future__ import annotations

import json
import signal
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.pilot_lab import make_corpus, run_cli

# Seconds, not milliseconds: in `make test`, not in `make check`.
pytestmark = pytest.mark.slow

MODE_SWITCH = """
from typing import ClassVar


class ModeSwitch:
    name: ClassVar[str] = "mode-switch"
    version: ClassVar[str] = "1"

    def run_cycle(self, ctx) -> None:
        mode = ctx.work_dir / "mode"
        if mode.is_file() and mode.read_text().strip() == "honest":
            (ctx.work_dir / "acted").write_text("1")  # not the sealed no-op
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("corpus"), profile="public", seed=1)


def _committed_entries(ledger: Path) -> int:
    connection = sqlite3.connect(ledger)
    try:
        (count,) = connection.execute("SELECT count(*) FROM entries").fetchone()
    finally:
        connection.close()
    return int(count)


# (crash point, the folder the next cycle would start from, as the resume finds it)
ALTERED = [
    ("before_commit@1", "checkpoint/snapshot-000001"),  # killed inside cycle 1: nothing committed
    ("after_snapshot@1", "checkpoint/snapshot-000002"),  # killed before cycle 2's commit
    ("after_commit@2", "work"),  # killed between cycle 2's commit and its snapshot
]


@pytest.mark.parametrize(("point", "altered"), ALTERED, ids=[point for point, _ in ALTERED])
def test_a_resume_from_an_altered_checkpoint_is_refused_and_runs_nothing(
    corpus: Path, tmp_path: Path, point: str, altered: str
) -> None:
    importer = tmp_path / "mode_switch.py"
    importer.write_text(MODE_SWITCH, encoding="utf-8")
    out = tmp_path / "run"
    args = ["pilot", "run", "--corpus", str(corpus), "--agent", f"{importer}:ModeSwitch"]
    crashed = run_cli(*args, "--out", str(out), env={"PROVEBENCH_PILOT_CRASH_AT": point})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    ledger = out / "ledger.sqlite"
    committed = _committed_entries(ledger) if ledger.exists() else 0
    (out / altered / "mode").write_text("honest\n", encoding="utf-8")

    resumed = run_cli(*args, "--out", str(out))

    assert resumed.returncode == 2, resumed.stderr
    [line] = resumed.stderr.strip().splitlines()
    assert line.startswith("provebench: error: ")
    assert str(out / altered) in line
    assert "does not match the work-directory digest" in line
    assert (_committed_entries(ledger) if ledger.exists() else 0) == committed
    assert not (out / "run.json").exists()
    assert not (out / "ledger.jsonl").exists()


def test_each_committed_cycle_records_the_digest_of_its_work_directory(
    corpus: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    result = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "reference", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    entries = [
        json.loads(line) for line in (out / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    confirmed = [entry for entry in entries if entry["kind"] == "cycle_confirmed"]
    assert confirmed
    for entry in confirmed:
        digest = entry["payload"]["work_sha256"]
        assert isinstance(digest, str) and len(digest) == 64
