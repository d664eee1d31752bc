"""The laboratory benchmark's split of a run's CPU between the importer and the lab.

`bench/bench_pilot_run.py` reports `events / lab CPU` as the ceiling the laboratory sets for any
importer, so the split must put CPU burnt in the importer's own code on the importer's side and
the time of the gateway calls it makes on the lab's side. Each run is the benchmark's own child
process (the clock wraps classes, so it must not run inside the test process)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from bench.bench_pilot_run import run_in_subprocess

from tests.helpers.pilot_lab import make_corpus

AGENTS = textwrap.dedent(
    """
    import time

    SPIN_SEC = 0.05

    class Spinner:
        name = "spinner"
        version = "1"

        def run_cycle(self, ctx):
            started = time.process_time()
            while time.process_time() - started < SPIN_SEC:
                pass

    class Lister:
        name = "lister"
        version = "1"

        def run_cycle(self, ctx):
            calls = 0
            token = None
            while calls < 4000:
                calls += 1
                try:
                    token = ctx.drive.list_files(5, token).next_page_token
                except Exception:  # a scheduled fault: the lab answered, go on
                    pass
    """
)


def _child(corpus: Path, agent: str, run_dir: Path) -> dict[str, float]:
    figures: dict[str, float] = run_in_subprocess(corpus, agent, run_dir)
    figures["cycles"] = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))["cycles"]
    return figures


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, float]]:
    work = tmp_path_factory.mktemp("importer-clock")
    corpus = make_corpus(work)
    (work / "agents.py").write_text(AGENTS, encoding="utf-8")
    return {
        name: _child(corpus, agent, work / f"run-{name}")
        for name, agent in (
            ("noop", "noop"),
            ("spinner", f"{work / 'agents.py'}:Spinner"),
            ("lister", f"{work / 'agents.py'}:Lister"),
        )
    }


def test_cpu_burnt_in_the_importer_is_the_importers(runs: dict[str, dict[str, float]]) -> None:
    spinner = runs["spinner"]
    assert spinner["cycles"] >= 3
    assert spinner["importer_cpu_sec"] >= 0.05 * spinner["cycles"]
    assert spinner["importer_cpu_sec"] <= spinner["cpu_sec"]


def test_gateway_calls_are_the_labs(runs: dict[str, dict[str, float]]) -> None:
    # The lister does nothing but call the gateway: almost all it adds to a run is lab time,
    # during its calls (about a quarter here) and after them (logging and publishing them).
    # Its own loop measures about 4% of what it adds; counting its calls as its own, 28%.
    added = runs["lister"]["cpu_sec"] - runs["noop"]["cpu_sec"]
    assert added > 0.2, "the lister should cost the lab measurably more than the no-op run"
    assert runs["lister"]["importer_cpu_sec"] < 0.1 * added


def test_a_run_without_an_importer_part_has_almost_none(runs: dict[str, dict[str, float]]) -> None:
    assert 0 <= runs["noop"]["importer_cpu_sec"] < 0.05
