"""The environment is checked again after a sandboxed run's last cycle (pilot red team 31, A1).

A1: the digest of provebench's environment was taken once, at the command's start; a module
swapped after that check (a no-op importer made the reference) ran in every cycle, and the run's
record, signed, named the sealed environment. The laboratory now computes the digest again after
the last cycle and, where it moved, signs and publishes nothing; the log says so, so a resume
after the swap was undone publishes nothing either. A swap undone before that check is not seen
(docs/sandbox.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot.corpus import corpus_config, write_corpus
from provebench.pilot.lab._runner import run_lab
from provebench.sandbox import _manifest
from provebench.sandbox._manifest import forget_environment_digest
from tests.sandbox.environment_helpers import fresh_digest  # noqa: F401 (a fixture)

SMALL = {"cycles": 4, "file_events": 12, "admissible_files": 4}
SPEC = "provebench.pilot.agents._noop:NoopImporter"

pytestmark = pytest.mark.usefixtures("fresh_digest")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    write_corpus(corpus_config(seed=5, profile="public", overrides=SMALL), target)
    return target


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in root of the environment (the digest covers it), one module in it."""
    folder = tmp_path / "env"
    folder.mkdir()
    (folder / "_noop.py").write_text("class Imp: pass\n", encoding="utf-8")
    monkeypatch.setattr(_manifest, "environment_roots", lambda: [folder])
    return folder


class _SwapAtCycle:
    """A host user's swap, made after the command's check: at the end of the first cycle."""

    def __init__(self, module: Path) -> None:
        self.module = module

    def start(self, total_cycles: int, done_cycles: int) -> None:
        pass

    def cycle_done(self, cycle: int, events: int, errors: int) -> None:
        if cycle == 1:
            self.module.write_text("class Imp: pass  # the reference now\n", encoding="utf-8")

    def finish(self) -> None:
        pass


@pytest.mark.timeout(300)
def test_a_swap_during_the_run_publishes_nothing_even_once_undone(
    tmp_path: Path, corpus: Path, root: Path
) -> None:
    module = root / "_noop.py"
    original = module.read_text(encoding="utf-8")
    run = tmp_path / "run"
    with pytest.raises(ProvebenchError) as refused:
        run_lab(corpus, SPEC, run, seal=True, progress=_SwapAtCycle(module))
    said = str(refused.value)
    assert "environment changed while the run ran" in said and "_noop.py was changed" in said
    assert "\n" not in said
    assert not (run / "run.json").exists() and not (run / "run.dsse.json").exists()
    module.write_text(original, encoding="utf-8")  # restored after the run, as A1 did
    forget_environment_digest()
    with pytest.raises(ProvebenchError, match="environment changed while this run ran"):
        run_lab(corpus, SPEC, run, seal=True)  # a resume: every cycle is committed
    assert not (run / "run.json").exists()


@pytest.mark.timeout(300)
def test_an_unchanged_environment_publishes_the_run(
    tmp_path: Path, corpus: Path, root: Path
) -> None:
    """The honest control: the same sandboxed run, nothing swapped, is signed as before."""
    run = tmp_path / "run"
    outcome = run_lab(corpus, SPEC, run, seal=True)
    assert outcome.cycles == SMALL["cycles"]
    assert (run / "run.json").is_file() and (run / "run.dsse.json").is_file()
