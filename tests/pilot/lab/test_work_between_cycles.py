"""Red team round 10, A6 (docs/attestation.md, "What runs is what was identified"): a live,
uninterrupted run's work/ lies in the run folder between cycles, writable by any process of the
laboratory's user. A file written there from outside — a switch a sealed do-nothing candidate
obeys — is never given to the candidate: the copy each sealed cycle receives is checked, after
copying, against the listing the laboratory committed last (kept in memory), and a difference
stops the run in one line naming the file, with nothing signed.

The red team wrote `work/switch` from another process as soon as the run had emptied work/; the
writes are played here deterministically at the moments a watcher aims for: after the start's
snapshot, between a check and a copy, and after a cycle's work/ was carried back."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.lab._runner import run_lab
from provebench.pilot.record._rundir import RunDir
from provebench.sandbox import _workdir
from tests.helpers.pilot_evaluation import make_small_corpus

pytestmark = pytest.mark.timeout(240)

# Sealed as a do-nothing importer: it acts only when work/switch says "on", a file it never
# writes (the red team's `cand/switch`, reduced to what the attack needs).
SWITCH = textwrap.dedent(
    """
    from pathlib import Path


    class Switch:
        name = "switch"
        version = "1"

        def run_cycle(self, ctx):
            switch = Path(ctx.work_dir) / "switch"
            if switch.exists() and switch.read_text() == "on":
                ctx.diagnostics.note("switched on from outside")
            (Path(ctx.work_dir) / "cycles").write_text("seen")
    """
)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("a6"), seed=5)


@pytest.fixture
def switch_spec(tmp_path: Path) -> str:
    folder = tmp_path / "cand"
    folder.mkdir()
    (folder / "switch.py").write_text(SWITCH, encoding="utf-8")
    return f"{folder / 'switch.py'}:Switch"


def _switch_on(work: Path) -> None:
    (work / "switch").write_text("on")


def _refused_naming(run: Path, run_it: Callable[[], object], name: str) -> None:
    with pytest.raises(ProvebenchError) as stopped:
        run_it()
    line = str(stopped.value)
    assert "\n" not in line
    assert f"work/{name} changed outside the laboratory between cycles" in line
    assert str(run / "work" / name) in line
    assert not (run / "run.json").exists() and not (run / "run.dsse.json").exists()


def test_a_switch_written_into_a_live_run_after_the_start_stops_it(
    corpus: Path, switch_spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = RunDir.snapshot_work

    def snapshot_work(self: RunDir, next_cycle: int) -> None:
        original(self, next_cycle)
        if next_cycle == 1:  # the red team's moment: work/ emptied and snapshotted
            _switch_on(self.work_dir)

    monkeypatch.setattr(RunDir, "snapshot_work", snapshot_work)
    run = tmp_path / "run"
    _refused_naming(run, lambda: run_lab(corpus, switch_spec, run), "switch")


def test_a_switch_written_between_two_cycles_stops_the_run(
    corpus: Path, switch_spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = RunDir.snapshot_work

    def snapshot_work(self: RunDir, next_cycle: int) -> None:
        original(self, next_cycle)
        if next_cycle == 3:  # after cycle 2's commit and snapshot
            _switch_on(self.work_dir)

    monkeypatch.setattr(RunDir, "snapshot_work", snapshot_work)
    run = tmp_path / "run"
    _refused_naming(run, lambda: run_lab(corpus, switch_spec, run), "switch")


def test_a_write_between_a_check_and_the_copy_is_caught_in_the_copy(
    corpus: Path, switch_spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written into the run folder just before the cycle's copy is made (after any check of the
    run folder itself): the copy the candidate would be given holds it, and is refused."""
    original = _workdir.copy_tree

    def copy_tree(source: Path, target: Path) -> None:
        if source.name == "work" and not (source / "switch").exists():
            _switch_on(source)
        original(source, target)

    monkeypatch.setattr(_workdir, "copy_tree", copy_tree)
    run = tmp_path / "run"
    _refused_naming(run, lambda: run_lab(corpus, switch_spec, run), "switch")


def test_a_write_after_work_was_carried_back_is_neither_committed_nor_given(
    corpus: Path, switch_spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written into the run folder right after a cycle's work/ was copied back, before the
    laboratory takes the digest it commits: the commit digests what the cycle left (read from
    the cycle's own folder), and the next cycle is refused the switch."""
    original = _workdir.replace_tree
    writes: list[Path] = []

    def replace_tree(target: Path, source: Path) -> None:
        original(target, source)
        if not writes:
            writes.append(target)
            _switch_on(target)

    monkeypatch.setattr(_workdir, "replace_tree", replace_tree)
    run = tmp_path / "run"
    _refused_naming(run, lambda: run_lab(corpus, switch_spec, run), "switch")
    assert writes == [run / "work"]


def test_an_untouched_sealed_run_completes(corpus: Path, switch_spec: str, tmp_path: Path) -> None:
    """The check does not stop a run nobody touched: the candidate's own writes carry on."""
    run = tmp_path / "run"
    outcome = run_lab(corpus, switch_spec, run)
    assert outcome.cycles == 4 and (run / "run.dsse.json").exists()
    assert (run / "work" / "cycles").read_text() == "seen"
