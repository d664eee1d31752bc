"""The laboratory runner (`provebench pilot run`) with the reference importer, by corpus size.

Generated corpora of 10k, 100k and 1M events (`--quick`: 2k and 20k), 20 cycles each, page
size 1000. Each run is a fresh subprocess, so its peak memory (ru_maxrss) is its own. In the same
run and on the same corpus, the no-op importer is the baseline: it pays for everything the lab
does (verifying and streaming the corpus, applying events, the ledger, publishing) and nothing an
importer does, so `reference / noop` shows what the importer's work costs. Reported: events/s
(wall and CPU), peak memory, the per-event cost ratio of the largest corpus against the smallest
(CPU seconds per event; 1.0 = linear), and a profile split of the reference run at the middle
size.

Each run also splits its CPU between the importer and the laboratory: the importer's part is
the time inside the cycle's deadline (the importer's own code) less the time inside the
gateway's entry points it called (the lab answering, checking and logging). What is left is
the laboratory's own cost for that run, so `events / lab CPU` is the most any importer could
reach on this laboratory while producing the same calls and rows: a ceiling set by the lab, not
by the importer. Figures go to `bench/out/pilot_run.json`.

    .venv/bin/python -m bench.bench_pilot_run [--quick]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_PATH = REPO_ROOT / "bench" / "out" / "pilot_run.json"
FULL_SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (2_000, 20_000)
CYCLES = 20
PAGE_SIZE = 1000
TARGETS = {"events_per_sec": 50_000, "per_event_cost_ratio": 1.5, "peak_memory_mb": 1024}
# Where the reference run's CPU goes: cumulative time of these entry points (profile of the
# middle size). They nest only as noted, so the shares are of the whole run.
PROFILE_POINTS = {
    "corpus streaming and validation": ("pilot/_corpus.py", "iter_events"),
    "rules (decide_cells: grammar, mapping, time rule)": ("pilot/_decide.py", "decide_cells"),
    "importer's own work (minus decide_cells and gateway calls)": (
        "pilot/agents/_reference.py",
        "run_cycle",
    ),
    "gateway calls (drive.list, sheets.append, ...)": ("pilot/_lab/_api.py", None),
    "ledger commit per cycle (append_batch)": ("ledger/_ledger.py", "append_batch"),
    "publishing (register, diagnostics, export)": ("pilot/_publish.py", "publish_run"),
    "checkpoint snapshots": ("pilot/_rundir.py", "snapshot_work"),
}


def make_corpus(events: int, directory: Path) -> Path:
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config

    config = corpus_config(
        seed=20261130,
        profile="public",
        overrides={"cycles": CYCLES, "file_events": events, "admissible_files": events * 8 // 10},
        page_size=PAGE_SIZE,
    )
    target = directory / f"corpus-{events}"
    write_corpus(config, target)
    return target


class ImporterClock:
    """CPU seconds of the importer's own code, counted by wrapping, in this process only, the
    cycle deadline (entered around the importer's part of each cycle) and the gateway's lab
    sections (every public entry point; `lab_section` marks them with `__wrapped__`). A gateway
    call made inside the deadline is the lab's time and is taken back out. About a microsecond
    per call is added: some tens of thousands of calls at the largest size."""

    def __init__(self) -> None:
        self.importer_sec = 0.0
        self._inside = False

    def install(self) -> None:
        from provebench.pilot.lab._deadline import CycleDeadline
        from provebench.pilot.lab._gateway import Gateway

        enter, leave = CycleDeadline.__enter__, CycleDeadline.__exit__
        started = [0.0]

        def timed_enter(deadline: Any) -> Any:
            self._inside = True
            started[0] = time.process_time()
            return enter(deadline)

        def timed_exit(deadline: Any, *exc: object) -> None:
            leave(deadline, *exc)
            self.importer_sec += time.process_time() - started[0]
            self._inside = False

        CycleDeadline.__enter__ = timed_enter  # type: ignore[method-assign]
        CycleDeadline.__exit__ = timed_exit  # type: ignore[method-assign]
        for name, method in list(vars(Gateway).items()):
            if callable(method) and hasattr(method, "__wrapped__"):
                setattr(Gateway, name, self._lab_time(method))

    def _lab_time(self, method: Any) -> Any:
        def timed(*arguments: Any) -> Any:
            if not self._inside:
                return method(*arguments)
            self._inside = False  # a lab section calling another counts once
            started = time.process_time()
            try:
                return method(*arguments)
            finally:
                self.importer_sec -= time.process_time() - started
                self._inside = True

        return timed


def run_in_this_process(corpus: str, agent: str, run_dir: str) -> None:
    """The run, with the importer on the laboratory's own thread whatever it is: the clock
    splits this process's CPU, so a test importer is not sealed here (its run records that)."""
    from provebench._plugin import identity_of, resolve_class
    from provebench.pilot.agents._loader import LoadedAgent, builtin_agents
    from provebench.pilot.lab._runner import execute_run, open_corpus, run_lab

    if agent in builtin_agents():
        run_lab(corpus, agent, run_dir)
        return
    candidate = resolve_class(agent, {})
    name, version = identity_of(candidate)
    isolation = {"mode": "none", "reason": "a benchmark importer timed in the laboratory"}
    loaded = LoadedAgent(agent, name, version, candidate, isolation, code_sha256="0" * 64)
    execute_run(open_corpus(Path(corpus)), loaded, Path(run_dir))


def child(corpus: str, agent: str, run_dir: str, profile_out: str | None) -> int:
    """One run in this (fresh) process; prints its figures as JSON."""
    clock = ImporterClock()
    if not profile_out:
        clock.install()
    wall, cpu = time.perf_counter(), time.process_time()
    if profile_out:
        cProfile.runctx(
            "run_in_this_process(corpus, agent, run_dir)", globals(), locals(), profile_out
        )
    else:
        run_in_this_process(corpus, agent, run_dir)
    figures = {
        "wall_sec": time.perf_counter() - wall,
        "cpu_sec": time.process_time() - cpu,
        "importer_cpu_sec": clock.importer_sec,
        "peak_memory_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print(json.dumps(figures))
    return 0


def run_in_subprocess(
    corpus: Path, agent: str, run_dir: Path, profile_out: Path | None = None
) -> Any:
    command = [
        sys.executable,
        "-m",
        "bench.bench_pilot_run",
        "--child",
        str(corpus),
        agent,
        str(run_dir),
    ]
    if profile_out is not None:
        command.append(str(profile_out))
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"the {agent} run on {corpus} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def profile_split(profile_path: Path) -> dict[str, float]:
    """Seconds (cumulative) per entry point of PROFILE_POINTS, and the total."""
    stats = pstats.Stats(str(profile_path)).stats  # type: ignore[attr-defined]
    seconds = dict.fromkeys(PROFILE_POINTS, 0.0)
    total = 0.0
    for (filename, _, function), (_, _, _, cumtime, _) in stats.items():
        if function == "run_lab" and filename.endswith("pilot/_runner.py"):
            total = cumtime
        for name, (suffix, wanted) in PROFILE_POINTS.items():
            if filename.endswith(suffix) and (wanted is None or function == wanted):
                if wanted is None and function.startswith("_"):
                    continue
                seconds[name] += cumtime
    importer = "importer's own work (minus decide_cells and gateway calls)"
    seconds[importer] -= seconds["rules (decide_cells: grammar, mapping, time rule)"]
    seconds[importer] -= seconds["gateway calls (drive.list, sheets.append, ...)"]
    share = {name: round(value / total, 3) for name, value in seconds.items()}
    share["rest (runner, events, confirmation)"] = round(1 - sum(share.values()), 3)
    return share


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_pilot_run")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", nargs="+")
    args = parser.parse_args(argv)
    if args.child:
        corpus, agent, run_dir, *profile = args.child
        return child(corpus, agent, run_dir, profile[0] if profile else None)

    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    rows: list[dict[str, Any]] = []
    split: dict[str, float] = {}
    work = Path(tempfile.mkdtemp(prefix="bench-pilot-run-"))
    try:
        for events in sizes:
            started = time.perf_counter()
            corpus = make_corpus(events, work)
            generate_sec = time.perf_counter() - started
            reference = run_in_subprocess(corpus, "reference", work / f"ref-{events}")
            noop = run_in_subprocess(corpus, "noop", work / f"noop-{events}")
            if events == sizes[len(sizes) // 2]:
                profile_path = work / "profile.out"
                run_in_subprocess(corpus, "reference", work / f"prof-{events}", profile_path)
                split = profile_split(profile_path)
            lab_sec = reference["cpu_sec"] - reference["importer_cpu_sec"]
            row = {
                "events": events,
                "generate_sec": round(generate_sec, 2),
                "reference": {k: round(v, 3) for k, v in reference.items()},
                "noop": {k: round(v, 3) for k, v in noop.items()},
                "reference_events_per_sec_wall": round(events / reference["wall_sec"]),
                "reference_events_per_sec_cpu": round(events / reference["cpu_sec"]),
                "noop_events_per_sec_cpu": round(events / noop["cpu_sec"]),
                "reference_over_noop_cpu": round(reference["cpu_sec"] / noop["cpu_sec"], 2),
                # The reference run's CPU without the importer's own code: the lab's cost of
                # serving, checking, logging, confirming and publishing what it did.
                "reference_lab_cpu_sec": round(lab_sec, 3),
                "reference_lab_share": round(lab_sec / reference["cpu_sec"], 3),
                "lab_ceiling_events_per_sec_cpu": round(events / lab_sec),
            }
            rows.append(row)
            shutil.rmtree(work / f"ref-{events}", ignore_errors=True)
            shutil.rmtree(work / f"noop-{events}", ignore_errors=True)
            print(
                f"{events:>9} events: reference {row['reference_events_per_sec_cpu']:>7} ev/s cpu "
                f"({row['reference_events_per_sec_wall']:>7} wall), "
                f"peak {reference['peak_memory_mb']:.0f} MB; noop "
                f"{row['noop_events_per_sec_cpu']:>7} ev/s cpu; "
                f"reference/noop {row['reference_over_noop_cpu']}x; lab alone "
                f"{row['reference_lab_share']:.0%} of the reference run, a ceiling of "
                f"{row['lab_ceiling_events_per_sec_cpu']:>7} ev/s cpu",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    first, last = rows[0], rows[-1]
    ratio = (last["reference"]["cpu_sec"] / last["events"]) / (
        first["reference"]["cpu_sec"] / first["events"]
    )
    result = {
        "benchmark": "pilot_run",
        "quick": args.quick,
        "cycles": CYCLES,
        "page_size": PAGE_SIZE,
        "sizes": rows,
        "per_event_cost_ratio_largest_vs_smallest": round(ratio, 2),
        "reference_cpu_profile_share": split,
        "targets": TARGETS,
        "meets": {
            "events_per_sec": last["reference_events_per_sec_cpu"] >= TARGETS["events_per_sec"],
            "per_event_cost_ratio": ratio <= TARGETS["per_event_cost_ratio"],
            "peak_memory_mb": last["reference"]["peak_memory_mb"] <= TARGETS["peak_memory_mb"],
        },
    }
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"per-event cost ratio {sizes[-1]} vs {sizes[0]}: {ratio:.2f}; written {OUT_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
