"""Shadow escrow `shadow-escrow/1`: released over calendar periods of the capture times, a late
defect taking an earlier release back (pilot §8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.pilot import run_lab
from provebench.pilot.corpus import load_corpus
from provebench.pilot.evaluate import evaluate_run
from provebench.pilot.evaluate._shadow_escrow import shadow_periods
from provebench.pilot.shadow import derive_shadow_corpus
from tests.helpers.pilot_evaluation import DEFECTIVE
from tests.helpers.pilot_shadow_drive import daily_captures

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def nine_days(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return daily_captures(tmp_path_factory.mktemp("captures") / "snapshots", 9)


def _corpus(snapshots: Path, out: Path, period_days: int) -> Path:
    derive_shadow_corpus(snapshots, out, period_days=period_days)
    return out


def test_a_seven_day_period_of_clean_cycles_releases_the_shadow_signal(
    nine_days: Path, tmp_path: Path
) -> None:
    corpus = _corpus(nine_days, tmp_path / "corpus", 7)
    run_lab(corpus, "reference", tmp_path / "run")
    verdict = evaluate_run(tmp_path / "run", corpus)
    assert verdict.laboratory_pass and verdict.escrow is not None
    (tranche,) = verdict.escrow.tranches  # days 1–7 complete; days 8–9 not yet
    assert tranche.name == "shadow_period" and tranche.share == 1.0
    assert tranche.released and tranche.amount == verdict.perf_shadow == 1.0
    assert "2026-11-02T06:00:00Z to 2026-11-09T06:00:00Z (cycles 1–7)" in tranche.reason
    assert verdict.escrow.released_total == 1.0


def test_periods_are_calendar_days_on_capture_times(nine_days: Path, tmp_path: Path) -> None:
    origin = load_corpus(_corpus(nine_days, tmp_path / "corpus", 3)).shadow
    assert origin is not None
    assert [cycles for _, _, cycles in shadow_periods(origin)] == [[1, 2, 3], [4, 5, 6]]
    # Captures every 12 hours: 9 captures span 4 days, one 3-day period holds 6 of them.
    twice_daily = daily_captures(tmp_path / "twice", 9, hours=12.0)
    origin = load_corpus(_corpus(twice_daily, tmp_path / "corpus12", 3)).shadow
    assert origin is not None
    assert [cycles for _, _, cycles in shadow_periods(origin)] == [[1, 2, 3, 4, 5, 6]]


def test_a_late_duplicate_takes_back_an_earlier_period(nine_days: Path, tmp_path: Path) -> None:
    corpus = _corpus(nine_days, tmp_path / "corpus", 3)
    run_lab(corpus, f"{DEFECTIVE}:DuplicatesLate", tmp_path / "run")  # re-appends in cycle 5
    verdict = evaluate_run(tmp_path / "run", corpus)
    assert verdict.escrow is not None
    first, second = verdict.escrow.tranches
    period_one = verdict.escrow.cycles[:3]
    assert all(c.clean_when_confirmed for c in period_one)  # clean as each was confirmed …
    assert not all(c.clean_final for c in period_one)  # … regraded once cycle 5 duplicated
    assert first.released_when_confirmed and not first.released and first.regraded
    assert not second.released and verdict.escrow.released_total == 0.0
