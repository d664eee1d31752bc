"""One benchmark, run alternately in a baseline checkout and in this one, in the same session.

An absolute time on a shared machine says more about the hour than about the code, so a
comparison between two versions is honest only when both meet the same moments: this runs
`bench.bench_<name>` in BASE (with BASE's own virtual environment and code) and here (with this
checkout's), alternating — base, current, base, current … — and keeps each run's figures as
that benchmark wrote them (`bench/out/<name>.json` of the checkout that ran it), with the load
averages just before and just after the run, and the CPU time of the benchmark's whole process
tree (user + system of every process it waited for: on a loaded machine a steadier figure
than wall time, though not free of the load either).

    .venv/bin/python -m bench.side_by_side --base ../baseline-checkout --rounds 2 \
        sandbox redteam [--quick]

BASE must be a checkout of this repository with its venv built (`make .venv/.installed-test`
there). Nothing is compared here: the figures of every run go to
`bench/out/side_by_side-<name>.json`, and the reading of them is the reader's (each benchmark's
figures differ: see docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def _run(tree: Path, name: str, extra: list[str]) -> dict[str, Any]:
    python = tree / ".venv" / "bin" / "python"
    out = tree / "bench" / "out" / f"{name}.json"
    out.unlink(missing_ok=True)  # a figure left by an earlier run must not pass for this one
    load_before = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [str(python), "-m", f"bench.bench_{name}", *extra],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_after = os.getloadavg()
    if done.returncode != 0 or not out.is_file():
        raise SystemExit(
            f"bench_{name} in {tree} failed (exit {done.returncode}): {done.stderr[-600:]}"
        )
    return {
        "tree": str(tree),
        "commit": _commit(tree),
        "bench_wall_sec": round(wall, 1),
        # user + system of the benchmark's whole process tree (every process it waited for),
        # which other work on the machine inflates far less than the wall time
        "bench_cpu_sec": round(
            after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1
        ),
        "load_before": [round(v, 2) for v in load_before],
        "load_after": [round(v, 2) for v in load_after],
        "figures": json.loads(out.read_text(encoding="utf-8")),
    }


def _commit(tree: Path) -> str:
    command = ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="side_by_side", description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the baseline checkout")
    parser.add_argument("--rounds", type=int, default=2, help="base-then-current pairs")
    parser.add_argument("--quick", action="store_true", help="pass --quick to the benchmark")
    parser.add_argument("names", nargs="+", help="benchmark names: sandbox, redteam, si_echo …")
    args = parser.parse_args(argv)
    base = args.base.resolve()
    if not (base / ".venv" / "bin" / "python").is_file():
        raise SystemExit(f"{base}: no .venv (run `make .venv/.installed-test` there)")
    extra = ["--quick"] if args.quick else []
    for name in args.names:
        runs: list[dict[str, Any]] = []
        for round_index in range(args.rounds):
            for label, tree in (("base", base), ("current", HERE)):
                run = {"round": round_index + 1, "label": label, **_run(tree, name, extra)}
                runs.append(run)
                print(json.dumps(run), flush=True)
        out = HERE / "bench" / "out" / f"side_by_side-{name}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(runs, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
