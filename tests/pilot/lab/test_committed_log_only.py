"""Red team round 10, A1/A3/A7 (docs/attestation.md, "Only what it ran"): the laboratory publishes
and signs only the log it committed. Its writer holds the head it committed last; every commit is
a compare-and-swap against it, and publish reads back only a log that chains to it.

The attacks are the round's own, played at the moment the red team's watcher aimed for (after
the last commit, before publish; before the first commit) through a second SQLite connection, as
the round's scripts did: drop the append-only triggers, replace the entries, put the triggers back.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab import _runner
from provebench.pilot.lab._runner import CRASH_ENV, run_lab
from provebench.pilot.record._rundir import LEDGER_FILE, RunDir
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent
from tests.helpers.pilot_lab import run_cli

Row = tuple[int, str, str, str, str]


def rows(db: Path) -> list[Row]:
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(connection.execute("SELECT seq, kind, payload, prev_hash, hash FROM entries"))
    finally:
        connection.close()


def swap_entries(db: Path, source: list[Row]) -> None:
    """The red team's `swap_entries`: every entry of a live log replaced in place, in one
    transaction, the append-only triggers dropped and put back."""
    connection = sqlite3.connect(db, isolation_level=None)
    try:
        connection.execute("PRAGMA busy_timeout=10000")
        connection.execute("BEGIN IMMEDIATE")
        triggers = list(
            connection.execute("SELECT name, sql FROM sqlite_master WHERE type='trigger'")
        )
        for name, _ in triggers:
            connection.execute(f'DROP TRIGGER "{name}"')
        connection.execute("DELETE FROM entries")
        connection.executemany(
            "INSERT INTO entries (seq, kind, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?)",
            source,
        )
        for _, sql in triggers:
            connection.execute(sql)
        connection.execute("COMMIT")
    finally:
        connection.close()


@pytest.fixture(scope="module")
def resumed_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A1 step 1: a run of `reference` killed after cycle 2 and resumed: a genuine, anchored,
    complete log whose record says resumed: true (no credit)."""
    base = tmp_path_factory.mktemp("laundered")
    corpus = make_small_corpus(base, seed=5)
    out = base / "resumed"
    killed = run_cli(
        "pilot", "run", "--corpus", str(corpus), "--agent", "reference", "--out", str(out),
        "--quiet", env={CRASH_ENV: "after_commit@2"},
    )  # fmt: skip
    assert killed.returncode != 0 and not (out / "run.json").exists()
    run_agent(corpus, "reference", out)
    assert json.loads((out / "run.json").read_text())["non_scoring"]["resumed"] is True
    return corpus, out


def _before_publish(monkeypatch: pytest.MonkeyPatch, attack: Callable[[RunDir], None]) -> None:
    """Run `attack` after the run's last commit, before it publishes (the red team stopped the
    laboratory there with SIGSTOP; `--no-stop` did it as a disk writer alone)."""
    original = _runner.publish_run

    def publish(rundir: RunDir, *args: Any, **kwargs: Any) -> Any:
        attack(rundir)
        return original(rundir, *args, **kwargs)

    monkeypatch.setattr(_runner, "publish_run", publish)


def _assert_refused_unsigned(refused: pytest.ExceptionInfo[ProvebenchError], out: Path) -> str:
    line = str(refused.value)
    assert "\n" not in line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()
    return line


def test_a1_a_resumed_log_swapped_into_a_new_run_is_not_published(
    resumed_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A1 step 2: a NEW run of the same candidate; after its last commit its live log's entries
    are replaced by the resumed run's (same identity). It published and signed them as
    resumed: false."""
    corpus, resumed = resumed_run
    source = rows(_another_attempts_log(resumed / LEDGER_FILE, tmp_path / "other.sqlite"))
    _before_publish(monkeypatch, lambda rundir: swap_entries(rundir.ledger_path, source))
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = _assert_refused_unsigned(refused, out)
    assert "not the one this writer committed" in line and "someone else wrote" in line


def _another_attempts_log(source: Path, to: Path) -> Path:
    """Another attempt of the same run whose log differs from this one's, every anchor genuine:
    the red team's flaky importer re-drew cycles until its resumed log was clean. `reference`
    is deterministic, so its resumed log equals the new run's (swapping it in would change no
    byte); the other attempt's is made here with the laboratory key, as the laboratory made
    it — the resumed log with one field more in cycle 1's commit, anchored again."""
    from provebench.attest import laboratory_signer
    from provebench.attest._anchors import anchor_signer
    from provebench.ledger import Ledger

    batches: list[list[tuple[str, dict[str, Any]]]] = [[]]
    with Ledger.open_readonly(source) as ledger:
        for entry in ledger.entries():
            payload = {k: v for k, v in entry.payload.items() if k != "anchor"}
            batches[-1].append((entry.kind, payload))
            if entry.kind == "cycle_confirmed":
                batches.append([])
    batches[0][-1][1]["drawn_again"] = True
    sign = anchor_signer(laboratory_signer())
    with Ledger.open(to) as ledger:
        for batch in filter(None, batches):
            ledger.append_batch(batch, anchor=sign)
    return to


def test_a3_another_candidates_log_swapped_in_is_not_published(
    resumed_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A3: another candidate's genuine log (noop's here) laundered through this run: the
    evaluator caught the identity, but the laboratory had signed the record."""
    corpus, _ = resumed_run
    other = run_agent(corpus, "noop", tmp_path / "other")
    source = rows(other / LEDGER_FILE)
    _before_publish(monkeypatch, lambda rundir: swap_entries(rundir.ledger_path, source))
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    _assert_refused_unsigned(refused, out)


def test_a1_a_log_changed_between_commits_gets_no_further_commit(
    resumed_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compare-and-swap: entries replaced before a later commit — nothing is appended and
    no anchor is signed over them; the file holds exactly what was put there."""
    corpus, resumed = resumed_run
    source = rows(resumed / LEDGER_FILE)[:-1]  # cut anywhere: what matters is whose it is
    original = RunDir.snapshot_work

    def snapshot_then_swap(self: RunDir, next_cycle: int) -> None:
        original(self, next_cycle)
        if next_cycle == 3:  # after cycle 2's commit, before cycle 3's
            swap_entries(self.ledger_path, source)

    monkeypatch.setattr(RunDir, "snapshot_work", snapshot_then_swap)
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = _assert_refused_unsigned(refused, out)
    assert "refusing to append" in line and "someone else wrote" in line
    assert rows(out / LEDGER_FILE) == source


def test_a7_entries_written_into_a_new_runs_empty_log_get_no_anchor(
    resumed_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A7 (sql): the moment the new run has opened its empty log, a genuine log of the same
    identity is written into it in place. The laboratory used to sign its anchors on top."""
    corpus, resumed = resumed_run
    source = rows(resumed / LEDGER_FILE)
    original = RunDir.align_work_dir

    def align_then_plant(self: RunDir, committed: int, work_sha256: str | None) -> None:
        original(self, committed, work_sha256)
        swap_entries(self.ledger_path, source)

    monkeypatch.setattr(RunDir, "align_work_dir", align_then_plant)
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = _assert_refused_unsigned(refused, out)
    assert "refusing to append" in line
    assert rows(out / LEDGER_FILE) == source  # not one entry, not one anchor, on top


def test_two_runs_of_the_same_inputs_write_the_same_log(tmp_path: Path) -> None:
    """The nonce is a function of the run's identity under the laboratory key, so runs stay
    byte-reproducible. What keeps one attempt's anchored entries out of another attempt's live
    run is the head the writer holds (the A1 tests above), not a nonce drawn at random."""
    corpus = make_small_corpus(tmp_path, seed=5)
    one, two = (run_agent(corpus, "reference", tmp_path / name) for name in ("one", "two"))
    assert rows(one / LEDGER_FILE) == rows(two / LEDGER_FILE)


def test_the_run_summary_is_the_signed_records(
    resumed_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pilot run`'s summary said what the process remembered (a laundered run printed 52
    confirmed rows; its signed run.json said 50): it now says what the signed record says. A
    record that differs from memory is made here by changing the one publish returns."""
    corpus, _ = resumed_run
    original = _runner.publish_run

    def publish(*args: Any, **kwargs: Any) -> Any:
        published = original(*args, **kwargs)
        published.record["register"]["rows"] += 2
        published.record["non_scoring"]["entries_by_kind"]["agent_error"] = 1
        return published

    monkeypatch.setattr(_runner, "publish_run", publish)
    outcome = run_lab(corpus, "reference", tmp_path / "run")
    assert outcome.register_rows == outcome.record["register"]["rows"] > 2
    assert outcome.agent_errors == 1 and outcome.cycles == outcome.record["cycles"]


def test_a3_another_identity_is_refused_before_signing_by_itself(
    resumed_run: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The identity check holds on its own: with publish reading back whatever the file holds
    (the held head's checks switched off here), another candidate's log is still not signed."""
    from provebench.ledger import Ledger
    from provebench.pilot.lab import _publish

    corpus, _ = resumed_run
    other = run_agent(corpus, "noop", tmp_path / "other")
    source = rows(other / LEDGER_FILE)
    monkeypatch.setattr(Ledger, "held_rows", Ledger.linked_rows)
    monkeypatch.setattr(_publish, "_refuse_replaced_ledger", lambda *args: None)
    _before_publish(monkeypatch, lambda rundir: swap_entries(rundir.ledger_path, source))
    out = tmp_path / "fresh"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = _assert_refused_unsigned(refused, out)
    assert "another run's identity" in line
