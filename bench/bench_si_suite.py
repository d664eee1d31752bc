"""`si suite --from-evidence` over the published OASIS SI profile, against its floors, in one run.

The suite re-scores a recorded run of the 50 profile scenarios (recorded first, once, with the
scripted `safe-operator`). Each repetition times, alternately, three child processes, and takes
the CPU time (user + system, from the children's rusage) and the wall time of each:

* suite: `provebench si suite SCENARIOS --from-evidence RUN --out NEW`;
* floor (provebench's parse): the interpreter starting, provebench's `load_scenarios` over the
  same scenario files and `load_evidence` over the same evidence files — what any command
  that reads these inputs the way provebench must (validated) pays before its own work;
* floor (plain parse): the interpreter starting, YAML (libyaml) and `json.loads` of the same
  files, no validation.

Figures (medians over the repetitions): the suite's CPU over each floor's, the suite's wall over
its own CPU, and the same wall-over-CPU of the provebench-parse floor — a process that writes
nothing — as the measure of what the machine itself adds (a busy shared machine makes both
large; the gap between them is what the suite's own waiting adds), and the suite's durable-write
flushes (syncfs/fsync calls, counted with strace where it is installed).

Usage: `python -m bench.bench_si_suite [--quick]` (9 repetitions; quick: 3); figures go to
`bench/out/si_suite.json`. Needs the OASIS copy beside the repository (`../shared/oasis`).
"""

from __future__ import annotations

import argparse
import json
import os
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
OASIS = REPO.parent / "shared" / "oasis" / "profiles" / "software-infrastructure" / "scenarios"
OUT = Path(__file__).parent / "out" / "si_suite.json"
PROVEBENCH = (sys.executable, "-m", "provebench")
# Installed code runs from its bytecode cache; a shell that forbids writing it would time the
# compiler on every start instead of the suite.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

PROVEBENCH_PARSE = """
import sys
from pathlib import Path
from provebench.evidence import load_evidence
from provebench.si import load_scenarios
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    load_scenarios(path)
for path in sorted((Path(sys.argv[2]) / "scenarios").glob("*/evidence.json")):
    load_evidence(path)
"""

PLAIN_PARSE = """
import json, sys
from pathlib import Path
import yaml
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    list(yaml.load_all(path.read_text(encoding="utf-8"), Loader=loader))
for path in sorted((Path(sys.argv[2]) / "scenarios").glob("*/evidence.json")):
    json.loads(path.read_text(encoding="utf-8"))
"""


def timed(command: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system of the child) and wall seconds of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, check=False, env=CHILD_ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def flushes(command: list[str]) -> int | None:
    """How many syncfs/fsync/fdatasync calls the command makes (None without strace)."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    traced = [strace, "-f", "-c", "-e", "trace=fsync,fdatasync,syncfs", "-o", "/dev/stdout"]
    result = subprocess.run(
        [*traced, *command], capture_output=True, text=True, check=False, env=CHILD_ENV
    )
    for line in result.stdout.splitlines():
        if line.strip().endswith("total"):
            return int(line.split()[3])  # % time, seconds, usecs/call, calls
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_si_suite")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if not OASIS.is_dir():
        print(f"skipped: no OASIS scenarios at {OASIS}")
        return 0
    repetitions = 3 if args.quick else 9
    with tempfile.TemporaryDirectory(prefix="bench-si-suite-") as tmp:
        root = Path(tmp)
        recorded = root / "recorded"
        record = [*PROVEBENCH, "si", "suite", str(OASIS), "--agent", "safe-operator"]
        timed([*record, "--out", str(recorded)])
        out = root / "rescored"

        def suite_command() -> list[str]:
            shutil.rmtree(out, ignore_errors=True)
            rescore = ["si", "suite", str(OASIS), "--from-evidence", str(recorded)]
            return [*PROVEBENCH, *rescore, "--out", str(out)]

        floors = {
            "provebench_parse": [sys.executable, "-c", PROVEBENCH_PARSE, str(OASIS), str(recorded)],
            "plain_parse": [sys.executable, "-c", PLAIN_PARSE, str(OASIS), str(recorded)],
        }
        samples: dict[str, list[tuple[float, float]]] = {"suite": [], **{k: [] for k in floors}}
        timed(suite_command())  # warm the page cache and the bytecode cache once
        for _ in range(repetitions):
            samples["suite"].append(timed(suite_command()))
            for name, command in floors.items():
                samples[name].append(timed(command))
        flush_count = flushes(suite_command())
        scenarios = sum(1 for _ in (recorded / "scenarios").iterdir())

    def median(name: str, index: int) -> float:
        return statistics.median(sample[index] for sample in samples[name])

    suite_cpu, suite_wall = median("suite", 0), median("suite", 1)
    floor_cpu, floor_wall = median("provebench_parse", 0), median("provebench_parse", 1)
    figures: dict[str, Any] = {
        "scenarios": scenarios,
        "repetitions": repetitions,
        "suite_cpu_seconds": round(suite_cpu, 3),
        "suite_wall_seconds": round(suite_wall, 3),
        "floor_provebench_parse_cpu_seconds": round(floor_cpu, 3),
        "floor_plain_parse_cpu_seconds": round(median("plain_parse", 0), 3),
        "suite_cpu_over_provebench_parse_floor": round(suite_cpu / floor_cpu, 2),
        "suite_cpu_over_plain_parse_floor": round(suite_cpu / median("plain_parse", 0), 2),
        "suite_wall_over_cpu": round(suite_wall / suite_cpu, 2),
        "floor_wall_over_cpu": round(floor_wall / floor_cpu, 2),
        "suite_flush_calls": flush_count,
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
