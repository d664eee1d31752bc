"""Red team round 10, A10 (docs/attestation.md, "What runs is what was identified"): the run's
snapshot of a sealed candidate's code cannot be changed by the laboratory's own user. The
snapshot's bytes are read once into sealed memory and checked against the listing the run's
identity digests; every launch shows them from there, and the folder a same-user process could
make writable again (`chmod`) is gone before the first launch.

The red team made the snapshot folder writable once identity.json existed and rewrote the
candidate there; that edit is played here at the same moment (after the identity is taken),
against the snapshot folder and against the memory the laboratory holds."""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
import textwrap
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab._runner import run_lab
from provebench.pilot.record._rundir import RunDir
from provebench.sandbox import _code_copy, _held_code, _private
from provebench.sandbox._code_copy import snapshot_code
from tests.helpers.pilot_evaluation import make_small_corpus

pytestmark = pytest.mark.timeout(240)

# Sealed as a do-nothing importer; the edit the red team made turns it into a "switched" one.
SWITCH = textwrap.dedent(
    """
    MODE = "off"


    class Switch:
        name = "switch"
        version = "1"

        def run_cycle(self, ctx):
            ctx.diagnostics.note("mode " + MODE)
    """
)


def _notes(run: Path) -> list[str]:
    import json

    lines = (run / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [
        entry["payload"]["message"]
        for entry in map(json.loads, lines)
        if entry["kind"] == "diagnostics" and entry["payload"].get("channel") == "note"
    ]


def _edit_every_snapshot(tmp: Path) -> list[Path]:
    """The red team's edit: every snapshot of this process's runs made writable again, the
    candidate rewritten in it."""
    edited = []
    for folder in tmp.glob(f"provebench-code-{os.getpid()}-*"):
        for path in [folder, *folder.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
        for source in folder.rglob("switch.py"):
            source.write_text(SWITCH.replace('MODE = "off"', 'MODE = "on"'))
            edited.append(source)
    return edited


def test_an_edit_of_the_snapshot_after_identification_never_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr("tempfile.tempdir", None)
    monkeypatch.setattr(_private, "ROOT_PARENT", tmp)  # every private folder where it is edited
    candidate = tmp_path / "cand"
    candidate.mkdir()
    (candidate / "switch.py").write_text(SWITCH, encoding="utf-8")
    corpus = make_small_corpus(tmp_path, seed=6)
    original = RunDir.prepare
    edited: list[Path] = []

    def prepare(self: RunDir, identity: dict[str, object]) -> bool:
        held = original(self, identity)  # identity.json is written: the red team's moment
        edited.extend(_edit_every_snapshot(tmp))
        # And the candidate's own folder, which is never shown either.
        (candidate / "switch.py").write_text(SWITCH.replace('MODE = "off"', 'MODE = "on"'))
        return held

    monkeypatch.setattr(RunDir, "prepare", prepare)
    run = tmp_path / "run"
    run_lab(corpus, f"{candidate / 'switch.py'}:Switch", run)
    assert _notes(run) == ["mode off"] * 4  # the code identified is the code every cycle ran
    # No folder of this user holds the code the run shows: there was nothing to edit.
    assert edited == []


def test_a_snapshot_changed_before_it_is_held_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edited between the copy (whose listing the identity digests) and the read into memory:
    what would be held is not what was identified — refused in one line naming the file."""
    code = tmp_path / "cand"
    code.mkdir()
    (code / "switch.py").write_text(SWITCH, encoding="utf-8")
    original = _code_copy.hold_code

    def hold_code(shown, roots, listing, *, field):  # type: ignore[no-untyped-def]
        for source in Path(roots[0]).rglob("switch.py"):
            source.chmod(0o644)
            source.write_text(SWITCH.replace("off", "on!"))
        return original(shown, roots, listing, field=field)

    monkeypatch.setattr(_code_copy, "hold_code", hold_code)
    with pytest.raises(ProvebenchError) as refused:
        snapshot_code([code], [], None, field="--agent")
    line = str(refused.value)
    assert "\n" not in line and "switch.py" in line and "changed after it was identified" in line


def test_the_held_bytes_cannot_be_written_even_through_a_new_descriptor(tmp_path: Path) -> None:
    code = tmp_path / "cand"
    code.mkdir()
    (code / "switch.py").write_text(SWITCH, encoding="utf-8")
    snapshot = snapshot_code([code], [], None, field="--agent")
    assert snapshot.held is not None
    opened: list[int] = []
    try:
        args = snapshot.held.mount_args(code, opened)
        assert "--file" in args and "--remount-ro" in snapshot.held.read_only_args()
        (fd,) = opened
        seals = fcntl.fcntl(fd, fcntl.F_GET_SEALS)
        assert seals & _held_code._SEALS == _held_code._SEALS
        writable = os.open(f"/proc/self/fd/{fd}", os.O_RDWR)
        try:
            with pytest.raises(PermissionError):
                os.write(writable, b"MODE = 'on'\n")
            with pytest.raises(PermissionError):
                os.ftruncate(writable, 0)
        finally:
            os.close(writable)
        assert os.pread(fd, 1 << 16, 0) == SWITCH.encode()
        # The snapshot folder is gone: nothing on disk holds the code the sandbox shows.
        assert not list(Path(tempfile.gettempdir()).glob(f"provebench-code-{os.getpid()}-*"))
    finally:
        for fd in opened:
            os.close(fd)
        snapshot.held.close()
