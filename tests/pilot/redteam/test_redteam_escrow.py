"""Escrow gaps the red team found (pilot §8, §13, §15): no tranche is paid to an importer whose
first cycle is wrong in fields or order, that skips the §12 self-check, or that passes the first
cycle and then omits files — while the reference keeps its first tranche."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.pilot.evaluate import Verdict
from tests.helpers.pilot_evaluation import evaluate, make_small_corpus, run_agent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Six cycles, and no fault in cycle 2: cycle 1's files are due in cycle 2, so a first cycle
    # that was right is paid when confirmed before a later omission takes it back (faults are
    # bound to each cycle's new files since drive-events/2; most small-corpus cycles have one).
    return make_small_corpus(tmp_path_factory.mktemp("redteam-escrow"), seed=1, cycles=6)


def judged(corpus: Path, agent: str) -> Verdict:
    return evaluate(run_agent(corpus, agent, corpus.parent / agent), corpus)


def test_the_reference_keeps_its_first_tranche(corpus: Path) -> None:
    escrow = judged(corpus, "reference").escrow
    assert escrow is not None and escrow.preliminary_signal_credited
    assert escrow.tranches[0].released and escrow.released_total == pytest.approx(0.4)


@pytest.mark.parametrize(
    ("agent", "reason"),
    [
        ("ChangesOrderAfterSorting", "order broken"),
        ("UsesCreationTime", "wrong fields"),
        ("SkipsSelfChecks", "self-check probe"),
    ],
)
def test_a_first_cycle_with_defects_is_not_paid(corpus: Path, agent: str, reason: str) -> None:
    verdict = judged(corpus, agent)
    escrow = verdict.escrow
    assert escrow is not None and not escrow.preliminary_signal_credited
    assert escrow.released_total == 0.0
    assert any(reason in text for cycle in escrow.cycles for text in cycle.reasons)


def test_a_later_omission_takes_the_first_tranche_back(corpus: Path) -> None:
    verdict = judged(corpus, "PassesOneCycleThenFails")
    escrow = verdict.escrow
    assert escrow is not None
    first = escrow.tranches[0]
    assert escrow.cycles[0].clean_final  # the first cycle itself was right ...
    assert first.released_when_confirmed and not first.released and first.regraded
    assert "taken back" in first.reason and escrow.released_total == 0.0
