"""SI scoring at scale: the batch form of `si score`, against the naive per-file loop and the
plain JSON parse of the same files, in the same run; one `si score` invocation; a whole profile.

Transcripts are the shipped example evidence (`src/provebench/si/examples`, 0.4–9 KB), each copy
made distinct (a numbered note appended to its reasoning trace; the answer is the example's own)
so no verdict can be reused; each copy's decided rows under both readings are its
example's own. Figures:

* batch: `provebench si score SCENARIO FOLDER --jobs 2` over N transcripts (wall time, from the
  command's start to its last line; best of 3), and its peak memory at N and N/10 (flat means
  equal);
* strict batch: the same with `--reading strict` (the strict reading decides every line,
  docs/si-scoring.md §11), best of 3, each run alternated with one of the ratified batch;
* strict CPU: both readings' decided lines for the first 2,000 transcripts in this process,
  by CPU time (`time.process_time`), best of 5, the readings alternated: the strict reading's
  cost against the ratified one with neither start-up nor the machine's other work in it;
* plain parse: reading and `json.loads` of the same N files in one process — the floor any
  scorer of these files pays;
* naive loop: `provebench si score SCENARIO FILE` once per file, on a sample, scaled to N;
* one invocation: `provebench si score SCENARIO FILE`, best and median of 9, against the floor
  of any command that validates with pydantic — the interpreter starting, importing pydantic
  and YAML and defining one model — timed alternately with it (start-up dominates one
  invocation, and this machine's start-up is what the ratio factors out);
* a whole profile: `si suite` of the published OASIS SI scenarios with `safe-operator` (when the
  OASIS copy is next to the repository).

Usage: `python -m bench.bench_si_batch [--quick]` (N = 100,000; quick: 5,000); figures go to
`bench/out/si_batch.json`.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SI = REPO / "src" / "provebench" / "si"
SCENARIO = SI / "scenarios" / "diagnostic-accuracy.yaml"
OASIS = REPO.parent / "shared" / "oasis" / "profiles" / "software-infrastructure" / "scenarios"
OUT = Path(__file__).parent / "out" / "si_batch.json"
PROVEBENCH = (sys.executable, "-m", "provebench")
NAIVE_SAMPLE = 40
SINGLE_RUNS = 9
# The least a command validating with pydantic pays before its own work.
FLOOR = "import pydantic, yaml\nclass Model(pydantic.BaseModel):\n    x: int\nModel(x=1)\n"


def make_transcripts(folder: Path, count: int) -> None:
    examples = [json.loads(p.read_text()) for p in sorted((SI / "examples").glob("*.json"))]
    folder.mkdir(parents=True)
    for index in range(count):
        document = json.loads(json.dumps(examples[index % len(examples)]))
        # The trace is numbered, so that no two transcripts are the same text, and the answer is
        # the example's own: a sentence added to the answer is one more sentence the strict
        # reading must account for ("Note 7: checked." and then "The answer was written in run
        # 7." each became a finding as the reading grew), and would measure another answer.
        document["reasoning_trace"] = f"{document.get('reasoning_trace') or ''}\nNote {index}."
        (folder / f"{index:07d}.json").write_text(json.dumps(document), encoding="utf-8")


def timed(command: list[str]) -> tuple[float, int, subprocess.CompletedProcess[bytes]]:
    """Wall seconds, the children's peak RSS in KiB (this command's, on a fresh counter)."""
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, check=False)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.decode()[-400:]}")
    return wall, peak, result


def batch(folder: Path, jobs: int, reading: str = "ratified") -> tuple[float, int, int]:
    """Wall seconds, peak RSS (KiB) of the batch's processes, lines printed."""
    command = [*PROVEBENCH, "si", "score", str(SCENARIO), str(folder), "--jobs", str(jobs)]
    command += ["--reading", reading]
    # A child python runs it, so that ru_maxrss is this batch's own peak, not an earlier one's.
    probe = (
        "import resource, subprocess, sys, time\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
        "wall = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "print(wall, peak, done.stdout.count(b'\\n'), done.returncode)\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe, *command], capture_output=True, check=True, text=True
    )
    wall, peak, lines, status = output.stdout.split()
    if int(status) != 0:
        raise SystemExit("the batch failed")
    return float(wall), int(peak), int(lines)


def cpu_per_reading(folder: Path, count: int = 2_000, rounds: int = 5) -> dict[str, float]:
    """CPU seconds (best of `rounds`, the readings alternated) to write the decided lines of
    the first `count` transcripts in this process, for each reading."""
    from provebench.si.scoring._batch import BatchSpec, _Scorer

    paths = [str(path) for path in sorted(folder.iterdir())[:count]]
    scorers = {
        reading: _Scorer(BatchSpec(str(SCENARIO), None, None, None, False, reading))
        for reading in ("ratified", "strict")
    }
    best = {reading: float("inf") for reading in scorers}
    for round_ in range(rounds + 1):
        for reading, scorer in scorers.items():
            start = time.process_time()
            scorer.chunk(paths)
            spent = time.process_time() - start
            if round_:  # the first round warms both up
                best[reading] = min(best[reading], spent)
    return best


def plain_parse(folder: Path) -> float:
    start = time.perf_counter()
    for path in sorted(folder.iterdir()):
        json.loads(path.read_bytes())
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    arguments = parser.parse_args(argv)
    count = 5_000 if arguments.quick else 100_000
    figures: dict[str, Any] = {"transcripts": count}
    with tempfile.TemporaryDirectory(prefix="si-batch-") as scratch:
        root = Path(scratch)
        big, small = root / "big", root / "small"
        make_transcripts(big, count)
        make_transcripts(small, count // 10)
        # best of three, the two readings alternated: a shared machine's other work only ever
        # adds time, and alternating lets both readings meet the same moments of it
        runs: list[tuple[float, int, int]] = []
        strict: list[tuple[float, int, int]] = []
        for _ in range(3):
            runs.append(batch(big, 2))
            strict.append(batch(big, 2, "strict"))
        assert all(lines == count for _, _, lines in runs + strict), (runs, strict)
        wall, peak = min(wall for wall, _, _ in runs), max(peak for _, peak, _ in runs)
        figures["batch_seconds"] = round(wall, 2)
        figures["batch_per_second"] = round(count / wall)
        figures["batch_peak_mib"] = round(peak / 1024, 1)
        strict_wall = min(wall for wall, _, _ in strict)
        figures["batch_strict_seconds"] = round(strict_wall, 2)
        figures["batch_strict_per_second"] = round(count / strict_wall)
        figures["batch_strict_vs_ratified"] = round(wall / strict_wall, 3)
        cpu = cpu_per_reading(big)
        figures["strict_cpu_vs_ratified"] = round(cpu["ratified"] / cpu["strict"], 3)
        figures["ratified_cpu_per_second"] = round(min(count, 2_000) / cpu["ratified"])
        figures["strict_cpu_per_second"] = round(min(count, 2_000) / cpu["strict"])
        small_wall, small_peak, _ = batch(small, 2)
        figures["batch_peak_mib_at_tenth"] = round(small_peak / 1024, 1)
        figures["batch_per_second_at_tenth"] = round((count // 10) / small_wall)
        parse = min(plain_parse(big) for _ in range(2))
        figures["plain_parse_per_second"] = round(count / parse)
        files = sorted(big.iterdir())[:NAIVE_SAMPLE]
        start = time.perf_counter()
        for path in files:
            timed([*PROVEBENCH, "si", "score", str(SCENARIO), str(path)])
        naive = (time.perf_counter() - start) / len(files)
        figures["naive_per_second"] = round(1 / naive, 2)
        figures["batch_vs_naive"] = round(figures["batch_per_second"] / figures["naive_per_second"])
        figures["batch_vs_plain_parse"] = round(
            figures["batch_per_second"] / figures["plain_parse_per_second"], 3
        )
        # alternated, so that both see the same moments of a shared machine
        singles: list[float] = []
        floor: list[float] = []
        for _ in range(SINGLE_RUNS):
            singles.append(timed([*PROVEBENCH, "si", "score", str(SCENARIO), str(files[0])])[0])
            floor.append(timed([sys.executable, "-c", FLOOR])[0])
        figures["one_invocation_seconds"] = round(min(singles), 3)
        figures["one_invocation_median_seconds"] = round(statistics.median(singles), 3)
        figures["pydantic_floor_seconds"] = round(min(floor), 3)
        figures["pydantic_floor_median_seconds"] = round(statistics.median(floor), 3)
        figures["one_invocation_vs_floor"] = round(min(singles) / min(floor), 2)
        if OASIS.is_dir():
            out = root / "suite"
            wall, _, _ = timed(
                [
                    *PROVEBENCH,
                    "si",
                    "suite",
                    str(OASIS),
                    "--agent",
                    "safe-operator",
                    "--out",
                    str(out),
                ]
            )
            figures["profile_suite_seconds"] = round(wall, 2)
            shutil.rmtree(out)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
