"""Red team round 12, A5/A13 (docs/attestation.md, "Only what it ran"): the laboratory signs
only bytes it read once and checked. A file it signs but did not derive at publish — the log,
work/, the last snapshot — is read once, checked from the bytes read, listed by their digest,
and must still hold them just before the signature; otherwise nothing is signed and run.json is
not left behind.

Each swap is made deterministically at the point the round's racers aimed for (a5: a forged log
renamed over `ledger.sqlite` after the check of its count and stored head; a13:
`work/CERTIFIED.json` planted after the check of work/ and before it was listed), through a hook
on the code path between the check and the signature."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab import _publish
from provebench.pilot.record._rundir import RunDir
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _forge_log(rundir: RunDir) -> None:
    """The round's forge_log.py in short: a copy of the log with one payload edited in place,
    every stored hash (and so the count and the stored head) kept, renamed over the log."""
    forged = rundir.root.parent / "forged.sqlite"
    shutil.copyfile(rundir.ledger_path, forged)
    connection = sqlite3.connect(forged)
    triggers = connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
    ).fetchall()
    for name, _ in triggers:
        connection.execute(f"DROP TRIGGER {name}")
    seq = connection.execute("SELECT MAX(seq) FROM entries WHERE kind = 'diagnostics'").fetchone()
    connection.execute("UPDATE entries SET payload = ? WHERE seq = ?", ('{"forged":true}', seq[0]))
    for _, sql in triggers:
        connection.execute(sql)
    connection.commit()
    connection.close()
    forged.replace(rundir.ledger_path)


def _plant_work(rundir: RunDir) -> None:
    (rundir.work_dir / "CERTIFIED.json").write_text('{"laboratory_pass": true}\n')


def _plant_snapshot(rundir: RunDir) -> None:
    snapshot = sorted(rundir.checkpoint_dir.glob("snapshot-*"))[-1]
    (snapshot / "CERTIFIED.json").write_text('{"planted": true}\n')


# (the publish step after which the swap is made, the swap, what the refusal says)
ATTACKS: dict[str, tuple[str, Callable[[RunDir], None], str]] = {
    # After the log's check (old: count and stored head), before anything else is read.
    "a5-after-check": ("_refuse_replaced_ledger", _forge_log, "the laboratory read and checked"),
    # Before the log's check: the bytes read are re-hashed entry by entry.
    "a5-before-check": ("_refuse_foreign_files", _forge_log, "does not chain is seq"),
    "a13-work": ("_refuse_unrecorded_work", _plant_work, "work/ does not match"),
    "a13-snapshot": ("_refuse_unrecorded_work", _plant_snapshot, "snapshot-"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_file_swapped_between_its_check_and_the_signature_is_not_signed(
    attack: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    step, swap, said = ATTACKS[attack]
    original = getattr(_publish, step)

    def checked_then_swapped(rundir: RunDir, *args: Any, **kwargs: Any) -> Any:
        result = original(rundir, *args, **kwargs)
        swap(rundir)
        return result

    monkeypatch.setattr(_publish, step, checked_then_swapped)
    corpus = make_small_corpus(tmp_path, seed=3)
    out = tmp_path / "run"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = str(refused.value)
    assert "\n" not in line and said in line, line
    # Fail closed: nothing signed, and the folder does not look complete.
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()
