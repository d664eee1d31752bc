"""What runs is what was identified, for the whole run (docs/attestation.md, "What runs is what
was identified").

Before, a run checked the candidate's folder (its own, or a seal's copy with `--from-seal`) once
at the start and then showed it live to every cycle: a data file swapped after the identity was
taken changed what ran while the run's `code_sha256` stayed the seal's, and the fresh control
was credited. Now each run takes a private read-only snapshot of the code before the candidate
first starts, digests it, and shows every cycle the snapshot. A change to the folder (or the
seal's copy) after that changes nothing that runs. Each test swaps the file after the
candidate was identified, before its first cycle (`RunProgress.start`): no timing race.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.pilot._seal import candidate_identity, seal_candidate, sealed_code
from provebench.pilot.lab._runner import run_lab
from provebench.pilot.record._seal import FROM_SEAL_KEY, fresh_control_finding, open_seal
from provebench.sandbox._candidate import code_digest
from tests.helpers.pilot_lab import make_corpus

# Sandboxed cycles: seconds, not milliseconds.
pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

CANDIDATE = """\
import pathlib

from provebench.pilot.agents._reference import ReferenceImporter

MODE = pathlib.Path(__file__).parent / "mode.txt"


class Cand(ReferenceImporter):
    name = "cand"
    version = "1"

    def run_cycle(self, ctx):
        mode = MODE.read_text().strip()  # read each cycle, from the folder the sandbox shows
        with open(ctx.work_dir / "modes.log", "a") as log:
            log.write(mode + "\\n")
        if mode == "honest":
            super().run_cycle(ctx)
"""


def candidate(folder: Path) -> str:
    folder.mkdir(parents=True)
    (folder / "cand.py").write_text(CANDIDATE, encoding="utf-8")
    (folder / "mode.txt").write_text("noop\n", encoding="utf-8")
    return f"{folder / 'cand.py'}:Cand"


class SwapOnStart:
    """A run's progress that rewrites a file once the candidate is identified, before the first
    cycle runs — what the attack did ~0.7 s into the run."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.swapped = False

    def start(self, total_cycles: int, done_cycles: int) -> None:
        folder = self.target.parent
        folder.chmod(0o755)  # a seal's copy is read-only: its owner can still change it
        self.target.unlink()
        self.target.write_text("honest\n", encoding="utf-8")
        self.swapped = True

    def cycle_done(self, cycle: int, events: int, errors: int) -> None:
        pass

    def finish(self) -> None:
        pass


def modes_run(run_dir: Path) -> set[str]:
    return set((run_dir / "work" / "modes.log").read_text(encoding="utf-8").split())


def run_identity(run_dir: Path) -> dict[str, object]:
    record: dict[str, object] = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return record


def test_a_file_swapped_in_the_candidates_folder_after_the_identity_never_runs(
    tmp_path: Path,
) -> None:
    spec = candidate(tmp_path / "cand")
    noop_digest = code_digest([tmp_path / "cand"], field="--agent", skip_caches=True)
    swap = SwapOnStart(tmp_path / "cand" / "mode.txt")
    run_lab(make_corpus(tmp_path), spec, tmp_path / "run", progress=swap)  # type: ignore[arg-type]
    assert swap.swapped and (tmp_path / "cand" / "mode.txt").read_text() == "honest\n"
    assert modes_run(tmp_path / "run") == {"noop"}  # every cycle ran the snapshot's bytes
    identity = run_identity(tmp_path / "run")
    assert identity["agent"]["code_sha256"] == noop_digest  # type: ignore[index]
    assert FROM_SEAL_KEY not in identity["isolation"]  # type: ignore[operator]


def test_a_file_swapped_in_the_seals_copy_after_the_check_never_runs(tmp_path: Path) -> None:
    spec = candidate(tmp_path / "cand")
    seal = tmp_path / "seal"
    sealed = seal_candidate(seal, candidate_identity(spec, None), "control")
    from_seal = sealed_code(seal, load_trusted_key())
    [copy] = [root for _, root in from_seal.copies]
    swap = SwapOnStart(copy / "mode.txt")
    run_lab(make_corpus(tmp_path), spec, tmp_path / "run", progress=swap,  # type: ignore[arg-type]
            sealed=from_seal)  # fmt: skip
    assert swap.swapped and (copy / "mode.txt").read_text() == "honest\n"
    assert modes_run(tmp_path / "run") == {"noop"}  # the sealed bytes, for the whole run
    identity = run_identity(tmp_path / "run")
    assert identity["agent"]["code_sha256"] == sealed["candidate"]["code_sha256"]  # type: ignore[index]
    assert identity["isolation"][FROM_SEAL_KEY] == sealed["commitment"]  # type: ignore[index]


def test_only_a_run_from_the_seals_copy_gets_the_fresh_control_credit(tmp_path: Path) -> None:
    """The same spec and the same digest are not enough: a run of the candidate's folder ran
    whatever the folder held. Only the seal's commitment in the run's signed identity counts."""
    spec = candidate(tmp_path / "cand")
    seal = tmp_path / "seal"
    sealed = seal_candidate(seal, candidate_identity(spec, None), "control")
    opened = open_seal(seal, load_trusted_key())
    corpus = {"manifest_sha256": "0" * 64, "profile": "control", "cycles": 20, "events": 600}
    base = {"agent": dict(sealed["candidate"]), "corpus": corpus}
    trusted = load_trusted_key()
    not_from_seal = fresh_control_finding(seal, trusted, {**base, "isolation": {}}, True, None)
    assert not_from_seal[0] is False and "--from-seal" in not_from_seal[1]
    other_seal = {**base, "isolation": {FROM_SEAL_KEY: "f" * 64}}
    assert not fresh_control_finding(seal, trusted, other_seal, True, None)[0]
    environment = {"environment_sha256": opened.sealed["environment_sha256"]}
    from_seal = {**base, "isolation": {FROM_SEAL_KEY: opened.sealed["commitment"], **environment}}
    passed, basis = fresh_control_finding(seal, trusted, from_seal, True, None)
    assert not passed and "no control corpus yet" in basis  # past the from-seal condition


def test_a_commands_file_swapped_after_the_identity_never_runs(tmp_path: Path) -> None:
    """`--agent-cmd`: the folders of the files the command names are snapshotted the same way."""
    import sys

    from provebench.pilot.emulator._commands import run_with_command

    script = tmp_path / "cmd" / "importer.py"
    script.parent.mkdir()
    script.write_text(
        "import pathlib, sys\n"
        "mode = (pathlib.Path(__file__).parent / 'mode.txt').read_text().strip()\n"
        "sys.exit(0 if mode == 'noop' else 3)\n",
        encoding="utf-8",
    )
    (script.parent / "mode.txt").write_text("noop\n", encoding="utf-8")
    swap = SwapOnStart(script.parent / "mode.txt")
    outcome = run_with_command(make_corpus(tmp_path), f"{sys.executable} {script}",
                               tmp_path / "run", progress=swap)  # type: ignore[arg-type]  # fmt: skip
    assert swap.swapped
    assert outcome.agent_errors == 0  # no cycle ran the swapped file (it exits 3)
