"""`provebench pilot score-final` against the published `score_final_state.py`, side by side.

Generates an expected register of N rows (default 1,000,000; `--quick`: 50,000) with the pilot's
register columns, and six candidates: `pass` (the same bytes, what a correct importer confirms),
`defects` (1% of rows with a changed field, 0.1% missing, 0.1% extra, 0.05% swapped with their
neighbour, 0.02% imported twice), `changed` (in order, every row's duration changed: a field wrong
in every row, as a wrong time rule gives), `shuffled` (the expected rows in a random order),
`shuffled-changed` (the same order, every row's duration changed: every row compared field by field)
and `shuffled-defects` (the `defects` candidate in a random order: repeated ids). About 1% of
manager names hold a comma, so those rows are quoted. Each scenario runs the published script
(extracted from the seed, never stored here) and our console script as fresh child processes (and,
to separate the CLI's start-up, the scorer function alone in a child that reports its import and
scoring CPU time, and the CPU time and peak RSS of the child it forks to join in two processes),
their runs interleaved round by round; wall time, CPU time (children included) and peak RSS come
from `os.wait4`. Reported: best wall and CPU of each, every run's figures, and the memory of the
scorer as the sum of its two processes' peaks. The data is generated in a separate process, so that
the measured processes do not inherit this one's peak RSS. The package's bytecode is compiled first,
as installing it does. The outputs must be byte-identical. Figures go to
`bench/out/score_final.json`; the exit status is 1 when any output differs.

    .venv/bin/python -m bench.bench_score_final [--quick] [--rows N] [--repeat K]
        [--scenarios pass,defects,changed,shuffled,shuffled-changed,shuffled-defects]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from provebench.pilot.rules._rows import REGISTER_COLUMNS

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_PATH = REPO_ROOT / "bench" / "out" / "score_final.json"
COLUMNS = REGISTER_COLUMNS
SEED = 20260302
# The scorer without the CLI: same output on stdout, its own phases on stderr, and — when the
# id join ran in two processes — the forked child's CPU time and peak RSS (`os.wait4`), so
# that memory is reported as the sum of both processes' peaks (an upper bound: pages the child
# shares with its parent count twice).
SCORER_ONLY = """
import json, resource, sys, time
started = time.process_time()
from provebench.pilot.score_final import _fork
from provebench.pilot.score_final._score import score_final_state
imported = time.process_time()
sys.stdout.write(score_final_state(sys.argv[1], sys.argv[2]).to_json())
done = time.process_time()
child = _fork.last_child_usage
print(json.dumps({"import_cpu_seconds": imported - started, "score_cpu_seconds": done - imported,
                  "own_peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "child": child}), file=sys.stderr)
"""
TIME_TARGET = 10.0  # at least this many times faster
MEMORY_TARGET = 5.0  # at most this fraction (1/x) of the published peak RSS


# -- data ------------------------------------------------------------------------------------


SCENARIOS = ("pass", "defects", "changed", "shuffled", "shuffled-changed", "shuffled-defects")


def _manager_names(rng: random.Random) -> list[str]:
    given = ["Anna", "Ivan", "Olga", "Sergei", "Maria", "Dmitri", "Elena", "Pavel", "Irina"]
    family = ["Petrova", "Sidorov", "Smirnova", "Ivanov", "Kuznetsova", "Popov", "Volkova"]
    names = [f"{rng.choice(given)} {rng.choice(family)}" for _ in range(119)]
    return [*names, "Smirnova, Olga"]  # one of 120 managers needs quoting


def expected_rows(count: int, rng: random.Random) -> list[str]:
    """CSV lines (no line end) of an expected register, in the published order."""
    names = _manager_names(rng)
    lines = []
    base = 1_772_400_000  # seconds; 2026-03-02, local offset fixed below
    for index in range(count):
        file_id = f"{rng.getrandbits(128):032x}"
        manager = rng.randrange(len(names))
        name = names[manager]
        stamp = time.gmtime(base + index * 3)
        when = time.strftime("%Y-%m-%dT%H:%M:%S+03:00", stamp)
        lines.append(
            ",".join(
                (
                    file_id,
                    when,
                    "incoming" if rng.random() < 0.6 else "outgoing",
                    f"M{manager:03d}",
                    f'"{name}"' if "," in name else name,
                    f"79{rng.randrange(10**9):09d}",
                    str(rng.randrange(1, 3600)),
                    f"drive://file/{file_id}",
                    "imported",
                )
            )
        )
    return lines


def with_defects(rows: list[str], rng: random.Random) -> list[str]:
    """An importer's result with the defects listed in the module docstring."""
    out = list(rows)
    count = len(out)
    for index in rng.sample(range(count), count // 100):
        fields = out[index].split(",")
        fields[-3] = str(int(fields[-3]) + 1) if fields[-3].isdigit() else "0"  # duration_sec
        out[index] = ",".join(fields)
    for index in sorted(rng.sample(range(count - 1), count // 2000), reverse=True):
        out[index], out[index + 1] = out[index + 1], out[index]
    for index in sorted(rng.sample(range(count), count // 1000), reverse=True):
        del out[index]
    for _ in range(count // 1000):
        extra = (
            f"{rng.getrandbits(128):032x},2026-03-02T00:00:00+03:00,incoming,M000,X,7,1,x,imported"
        )
        out.insert(rng.randrange(len(out) + 1), extra)
    for index in sorted(rng.sample(range(len(out)), count // 5000), reverse=True):
        out.insert(index + 1, out[index])
    return out


def write_csv(path: Path, rows: list[str]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write(",".join(COLUMNS) + "\n")
        for start in range(0, len(rows), 100_000):
            handle.write("\n".join(rows[start : start + 100_000]) + "\n")


def write_data(work: Path, rows: int) -> None:
    """expected.csv and the six candidates (see the module docstring)."""
    rng = random.Random(SEED)
    expected = expected_rows(rows, rng)
    write_csv(work / "expected.csv", expected)
    shutil.copyfile(work / "expected.csv", work / "candidate_pass.csv")
    defects = with_defects(expected, rng)
    write_csv(work / "candidate_defects.csv", defects)
    write_csv(work / "candidate_changed.csv", [_longer_call(row) for row in expected])
    rng.shuffle(expected)
    write_csv(work / "candidate_shuffled.csv", expected)
    write_csv(work / "candidate_shuffled-changed.csv", [_longer_call(row) for row in expected])
    rng.shuffle(defects)  # last: the other files stay what they were
    write_csv(work / "candidate_shuffled-defects.csv", defects)


def _longer_call(row: str) -> str:
    """The row with its duration_sec one second longer (the third field from the end)."""
    rest, duration, link, status = row.rsplit(",", 3)
    return ",".join([rest, str(int(duration) + 1), link, status])


# -- measuring -------------------------------------------------------------------------------


def measure(command: list[str]) -> dict[str, Any]:
    """Run a fresh child; wall seconds, peak RSS (MiB) of that child, exit status, stdout."""
    with tempfile.TemporaryFile() as stdout:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stderr = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
        stdout.seek(0)
        output = stdout.read()
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),  # Linux reports KiB
        "exit_code": process.returncode,
        "stdout": output,
        "stderr": stderr,
    }


def interleaved(commands: dict[str, tuple[list[str], int]]) -> list[dict[str, Any]]:
    """`best_of` for each command, their runs taken in turn (round by round), so that a change
    in the machine's load falls on all of them alike."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in commands}
    for round_number in range(max(repeat for _, repeat in commands.values())):
        for name, (command, repeat) in commands.items():
            if round_number < repeat:
                runs[name].append(measure(command))
    return [best_of_runs(runs[name]) for name in commands]


def best_of(command: list[str], repeat: int) -> dict[str, Any]:
    return best_of_runs([measure(command) for _ in range(repeat)])


def best_of_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Best wall and best CPU time of the runs, every run's times, the largest peak RSS."""
    best = min(runs, key=lambda run: run["seconds"])
    best["peak_rss_mib"] = max(run["peak_rss_mib"] for run in runs)
    best["all_seconds"] = [run["seconds"] for run in runs]
    best["all_cpu_seconds"] = [run["cpu_seconds"] for run in runs]
    best["cpu_seconds"] = min(run["cpu_seconds"] for run in runs)
    best["all_stderr"] = [run["stderr"] for run in runs]
    best["all_exit_codes"] = [run["exit_code"] for run in runs]
    return best


def _phases(scenario: str, scorer: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures each scorer-only run printed last on stderr; a run that failed stops the
    benchmark with its own last line, not a parse error of it."""
    for code, stderr in zip(scorer["all_exit_codes"], scorer["all_stderr"], strict=True):
        if code != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else "(nothing on stderr)"
            raise SystemExit(f"bench_score_final: {scenario}: the scorer exited {code}: {last}")
    return [json.loads(err.strip().splitlines()[-1]) for err in scorer["all_stderr"]]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_score_final", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="50,000 rows instead of 1,000,000")
    parser.add_argument("--rows", type=int, default=None, help="rows in the expected register")
    parser.add_argument("--repeat", type=int, default=3, help="runs of ours per scenario")
    parser.add_argument(
        "--published-repeat", type=int, default=2, help="runs of the published script per scenario"
    )
    parser.add_argument(
        "--scenarios",
        default=",".join(SCENARIOS),
        help=f"comma-separated, from {', '.join(SCENARIOS)}",
    )
    parser.add_argument("--write-data", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    rows = args.rows or (50_000 if args.quick else 1_000_000)
    scenarios = [name for name in args.scenarios.split(",") if name]
    if not scenarios or any(name not in SCENARIOS for name in scenarios):
        parser.error(f"--scenarios: choose from {', '.join(SCENARIOS)}")
    if args.write_data:
        write_data(Path(args.write_data), rows)
        return 0

    sys.path.insert(0, str(REPO_ROOT))
    from tests.helpers.published_scorer import SEED_PATH, write_published_script

    python = sys.executable
    provebench = str(Path(python).with_name("provebench"))
    work = Path(tempfile.mkdtemp(prefix="bench-score-final-"))
    try:
        script = write_published_script(work)
        if script is None:
            print(f"bench_score_final: the seed is not at {SEED_PATH}; nothing to compare")
            return 1
        print(f"generating {rows:,} rows ...", flush=True)
        # In a child process: a process started from this one inherits its peak RSS as a floor
        # (Linux keeps the high-water mark across fork and exec), so this one must stay small.
        subprocess.run(
            [
                python,
                "-m",
                "bench.bench_score_final",
                "--write-data",
                str(work),
                "--rows",
                str(rows),
            ],
            check=True,
            cwd=REPO_ROOT,
        )
        _compile_bytecode()
        # The command's own start-up: the same console script on a three-row pair (the short
        # road every scenario takes), not `--version`, which loads the full command line.
        tiny = _write_tiny_pair(work)
        startup = best_of([provebench, "pilot", "score-final", *tiny], args.repeat)
        results: dict[str, Any] = {
            "rows": rows,
            "expected_csv_mib": round((work / "expected.csv").stat().st_size / 2**20, 1),
            "cli_startup_seconds": startup["seconds"],
            "cli_startup_cpu_seconds": startup["cpu_seconds"],
            "load_average_at_start": os.getloadavg()[0],
            "scenarios": {},
        }
        status = 0
        for scenario in scenarios:
            files = [str(work / "expected.csv"), str(work / f"candidate_{scenario}.csv")]
            print(
                f"{scenario}: published script x{args.published_repeat}, provebench pilot"
                f" score-final x{args.repeat}, interleaved ...",
                flush=True,
            )
            published, ours, scorer = interleaved(
                {
                    "published": ([python, str(script), *files], args.published_repeat),
                    "ours": ([provebench, "pilot", "score-final", *files], args.repeat),
                    "scorer": ([python, "-c", SCORER_ONLY, *files], args.repeat),
                }
            )
            phases = _phases(scenario, scorer)
            # Memory of the scorer alone: its own peak plus the child's, in the run with the
            # largest sum.
            peaks = [
                phase["own_peak_rss_mib"] + (phase["child"] or {}).get("peak_rss_mib", 0.0)
                for phase in phases
            ]
            scoring_cpu = min(phase["score_cpu_seconds"] for phase in phases)
            child_cpu = [(phase["child"] or {}).get("cpu_seconds", 0.0) for phase in phases]
            identical = (
                published["exit_code"] == ours["exit_code"] == scorer["exit_code"] == 0
                and published["stdout"] == ours["stdout"] == scorer["stdout"]
            )
            status |= 0 if identical else 1
            timing = ("seconds", "all_seconds", "cpu_seconds", "all_cpu_seconds", "peak_rss_mib")
            # Wall ratios: best against best, and our slowest run against the best published
            # (the low end); CPU counts the child process too (os.wait4 of the CLI includes the
            # children it waited for).
            results["scenarios"][scenario] = {
                "published": {k: published[k] for k in timing},
                "ours": {k: ours[k] for k in timing},
                "speedup": round(published["seconds"] / ours["seconds"], 2),
                "speedup_low": round(published["seconds"] / max(ours["all_seconds"]), 2),
                "cpu_speedup": round(published["cpu_seconds"] / ours["cpu_seconds"], 2),
                "scorer_only": {
                    "seconds": scorer["seconds"],
                    "all_seconds": scorer["all_seconds"],
                    "cpu_seconds": scorer["cpu_seconds"],
                    "import_cpu_seconds": round(phases[0]["import_cpu_seconds"], 3),
                    "score_cpu_seconds_this_process": round(scoring_cpu, 3),
                    "child_cpu_seconds": [round(cpu, 3) for cpu in child_cpu],
                    "two_processes": all(phase["child"] is not None for phase in phases),
                    "peak_rss_mib_both_processes": round(max(peaks), 1),
                },
                "memory_ratio": round(published["peak_rss_mib"] / max(peaks), 2),
                "outputs_identical": identical,
            }
            if not identical:
                print(f"{scenario}: OUTPUTS DIFFER\n{published['stderr']}{ours['stderr']}")
        results["load_average_at_end"] = os.getloadavg()[0]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    _report(results)
    return status


def _write_tiny_pair(work: Path) -> list[str]:
    """An expected register of three rows and the same file as the candidate."""
    rows = expected_rows(3, random.Random(SEED))
    path = work / "tiny.csv"
    write_csv(path, rows)
    return [str(path), str(path)]


def _compile_bytecode() -> None:
    """Compile the package's bytecode, as installing it does: in a source checkout, and under
    PYTHONDONTWRITEBYTECODE (set on some machines), every run would otherwise compile each
    module of the command's path again (≈40 ms of its start-up), which an installed
    provebench never does. The published script is one file run as a script: Python compiles
    it at every run whatever is done here, as it would for anyone."""
    import compileall

    import provebench

    compileall.compile_dir(Path(provebench.__file__).parent, quiet=1)


def _report(results: dict[str, Any]) -> None:
    from provebench._canonical import canonical_json, write_atomic

    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(OUT_PATH, canonical_json(results))
    print(
        f"\nscore-final, {results['rows']:,} rows ({results['expected_csv_mib']} MiB per file), "
        f"score-final start-up (3 rows) {results['cli_startup_seconds']} s, "
        f"load average {results['load_average_at_start']:.1f}"
    )
    print(
        f"{'scenario':10} {'published wall/cpu/peak':>26} {'ours wall/cpu/both peaks':>26}"
        f" {'wall':>6} {'cpu':>6} {'memory':>7}  same"
    )
    for name, row in results["scenarios"].items():
        published, ours = row["published"], row["ours"]
        both = row["scorer_only"]["peak_rss_mib_both_processes"]
        print(
            f"{name:10} {published['seconds']:>6.2f}s {published['cpu_seconds']:>6.2f}s"
            f" {published['peak_rss_mib']:>5.0f}MiB {ours['seconds']:>6.2f}s"
            f" {ours['cpu_seconds']:>6.2f}s {both:>5.0f}MiB"
            f" {row['speedup']:>5.1f}x {row['cpu_speedup']:>5.1f}x {row['memory_ratio']:>6.1f}x"
            f"  {row['outputs_identical']}"
        )
        only = row["scorer_only"]
        print(
            f"{'':10} walls published {published['all_seconds']} ours {ours['all_seconds']}"
            f" (low end {row['speedup_low']:.1f}x); cpu ours {ours['all_cpu_seconds']}"
        )
        print(
            f"{'':10} scorer without the CLI: {only['cpu_seconds']:.2f}s cpu in all"
            f" ({only['import_cpu_seconds']:.2f}s imports, scoring"
            f" {only['score_cpu_seconds_this_process']:.2f}s here + child"
            f" {only['child_cpu_seconds']}), two processes {only['two_processes']},"
            f" peak RSS of both processes {only['peak_rss_mib_both_processes']:.0f} MiB"
        )
    print(f"load average at the end {results['load_average_at_end']:.1f}")
    print(f"targets: speed-up >= {TIME_TARGET}x, memory ratio >= {MEMORY_TARGET}x; {OUT_PATH}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
