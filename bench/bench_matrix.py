"""Matrix overhead: N jobs of a known length on the local pool and on Dask's local cluster.

Each job sleeps `--job-seconds` and writes a verdict; the driver signs each job's record and
writes the summary, as for real jobs. The baseline is the ideal wall time in the same run —
jobs × job time ÷ workers — so the overhead is (wall − ideal) ÷ ideal, per backend, and the
per-job overhead is (wall − ideal) × workers ÷ jobs. Speed-up: the same smaller matrix on one
worker and on `--workers`. Figures go to `bench/out/matrix.json`.

    .venv/bin/python -m bench.bench_matrix [--quick] [--jobs N] [--job-seconds S] [--workers W]

Default: 200 jobs of 1 s on 2 workers (the target: overhead under 5% of job time);
`--quick`: 40 jobs of 0.25 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_PATH = REPO_ROOT / "bench" / "out" / "matrix.json"


def _request(out: Path, jobs: int, seconds: float) -> Any:
    from provebench.matrix import JobSpec, MatrixRequest

    specs = [
        JobSpec(
            key=f"sleeper/job-{index:05d}/trial-001",
            agent="sleeper",
            case=f"job-{index:05d}",
            trial=1,
            function="bench._matrix_jobs:sleeper",
            params={"seconds": seconds},
            folder=str(out / "jobs" / f"sleeper/job-{index:05d}/trial-001"),
        )
        for index in range(jobs)
    ]
    from bench._matrix_jobs import check

    return MatrixRequest(
        "bench",
        {"jobs": jobs, "seconds": seconds},
        specs,
        lambda s: s.case,
        lambda done: {},
        check,
    )


def _run(work: Path, name: str, jobs: int, seconds: float, factory: Any) -> dict[str, Any]:
    from provebench.matrix import QuietProgress, run_matrix

    out = work / name
    start = time.perf_counter()
    summary = run_matrix(_request(out, jobs, seconds), out, factory, QuietProgress())
    wall = time.perf_counter() - start
    summary_bytes = (out / "summary.json").read_bytes()
    shutil.rmtree(out, ignore_errors=True)
    return {
        "wall_seconds": round(wall, 3),
        "faults": len(summary["harness_faults"]),
        "summary": summary_bytes.decode("utf-8"),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_matrix", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 jobs of 0.25 s")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--job-seconds", type=float, default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = args.jobs or (40 if args.quick else 200)
    seconds = args.job_seconds or (0.25 if args.quick else 1.0)
    workers = args.workers
    # Spawned workers (the pool's and Dask's) import the job from this checkout.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    from provebench.matrix import DaskExecutor, LocalPool

    work = Path(tempfile.mkdtemp(prefix="bench-matrix-"))
    ideal = jobs * seconds / workers
    results: dict[str, Any] = {
        "jobs": jobs,
        "job_seconds": seconds,
        "workers": workers,
        "ideal_seconds": ideal,
    }
    try:
        pool = _run(work, "pool", jobs, seconds, lambda: LocalPool(workers))
        dask = _run(work, "dask", jobs, seconds, lambda: DaskExecutor("local-cluster", workers))
        small = max(workers * 4, jobs // 5)
        one = _run(work, "one", small, seconds, lambda: LocalPool(1))
        many = _run(work, "many", small, seconds, lambda: LocalPool(workers))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for name, run in (("local_pool", pool), ("dask_local_cluster", dask)):
        excess = run["wall_seconds"] - ideal
        results[name] = {
            "wall_seconds": run["wall_seconds"],
            "overhead_ratio": round(excess / ideal, 4),
            "per_job_overhead_ms": round(excess * workers / jobs * 1000, 1),
            "harness_faults": run["faults"],
        }
    results["same_summary_bytes"] = pool["summary"] == dask["summary"]
    results["speed_up"] = {
        "jobs": small,
        "one_worker_s": one["wall_seconds"],
        "workers_s": many["wall_seconds"],
        "ratio": round(one["wall_seconds"] / many["wall_seconds"], 2),
    }
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"{jobs} jobs of {seconds} s on {workers} workers; ideal {ideal:.1f} s")
    for name in ("local_pool", "dask_local_cluster"):
        row = results[name]
        print(
            f"{name:22} wall {row['wall_seconds']:8.2f} s  overhead {row['overhead_ratio']:7.2%}"
            f"  per job {row['per_job_overhead_ms']:7.1f} ms  faults {row['harness_faults']}"
        )
    speed = results["speed_up"]
    print(
        f"speed-up, {small} jobs: 1 worker {speed['one_worker_s']} s, {workers} workers "
        f"{speed['workers_s']} s: {speed['ratio']}x"
    )
    print(f"summaries identical across backends: {results['same_summary_bytes']}")
    failed = pool["faults"] or dask["faults"] or not results["same_summary_bytes"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
