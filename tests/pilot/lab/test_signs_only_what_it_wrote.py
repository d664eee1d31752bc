"""Red team round 10, A4/A8/A9 (docs/attestation.md, "Only what it ran"): the laboratory signs
only bytes it wrote. Files changed or planted in a live run after its last commit — under names
the laboratory counts as its own — are refused at publish in one line, before run.json, never
signed: work/ and the last snapshot are checked against the log's last `work_sha256`,
identity.json against what the laboratory wrote, and no SQLite companion may outlive the log.

Each plant is the round's own, made at the moment its scripts aimed for (after the last commit,
before publish)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab import _runner
from provebench.pilot.record._rundir import RunDir
from tests.helpers.pilot_evaluation import make_small_corpus, run_agent


def _plant_work(rundir: RunDir) -> None:
    (rundir.work_dir / "CERTIFIED.json").write_text('{"laboratory_pass": true}\n')


def _plant_snapshot(rundir: RunDir) -> None:
    snapshot = sorted(rundir.checkpoint_dir.glob("snapshot-*"))[-1]
    (snapshot / "CERTIFIED.json").write_text('{"planted": true}\n')


def _swap_identity(rundir: RunDir) -> None:
    path = rundir.path("identity.json")
    identity = json.loads(path.read_text())
    identity["agent"] = {"spec": "reference", "name": "reference-importer", "version": "1",
                         "code_sha256": "0" * 64}  # fmt: skip
    path.write_text(json.dumps(identity, sort_keys=True, indent=2))


def _plant_journal(rundir: RunDir) -> None:
    # First byte 0: SQLite does not take it for a hot journal, so nothing else notices it.
    rundir.path("ledger.sqlite-journal").write_bytes(b'\x00{"laboratory_pass": true}\n')


def _plant_hidden(rundir: RunDir) -> None:
    # Red team round 11, A1 (a1_plant_hidden.sh): files inside hidden folders of a live run.
    for folder in (rundir.root / ".x", rundir.checkpoint_dir / ".y"):
        folder.mkdir()
        (folder / "CERTIFIED.json").write_text('{"laboratory_pass": true}\n')


def _plant_snapshot_name(rundir: RunDir) -> None:
    # Red team round 11, A1b: a folder named like a snapshot, after the last snapshot was made
    # (the laboratory drops the other snapshots only when its pointer moves).
    stray = rundir.checkpoint_dir / "snapshot-999999"
    stray.mkdir()
    (stray / "CERTIFIED.json").write_text('{"laboratory_pass": true}\n')


ATTACKS: dict[str, tuple[Callable[[RunDir], None], str]] = {
    "a4-work": (_plant_work, "work/ does not match the work-directory digest"),
    "a4-snapshot": (_plant_snapshot, "does not match the work-directory digest"),
    "a8-identity": (_swap_identity, "identity.json is not what the laboratory wrote"),
    "a9-journal": (_plant_journal, "ledger.sqlite-journal is in the run folder"),
    "r11-a1-hidden": (_plant_hidden, "the first: '.x'; the laboratory signs only its own files"),
    "r11-a1b-snapshot": (_plant_snapshot_name, "the first: 'checkpoint/snapshot-999999'"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_file_changed_after_the_last_commit_is_refused_not_signed(
    attack: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant, said = ATTACKS[attack]
    original = _runner.publish_run

    def publish(rundir: RunDir, *args: Any, **kwargs: Any) -> Any:
        plant(rundir)
        return original(rundir, *args, **kwargs)

    monkeypatch.setattr(_runner, "publish_run", publish)
    corpus = make_small_corpus(tmp_path, seed=3)
    out = tmp_path / "run"
    with pytest.raises(ProvebenchError) as refused:
        run_agent(corpus, "reference", out)
    line = str(refused.value)
    assert "\n" not in line and said in line, line
    assert not (out / "run.json").exists() and not (out / "run.dsse.json").exists()
