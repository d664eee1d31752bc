"""The whole pilot §14 red team (`provebench pilot redteam --budget full`) on this machine.

Baseline, in the same run and on the same corpora (same seed): the reference importer alone —
generating the corpora, one lab run and one evaluation per corpus. The red team does that for
every attacking importer too, in a pool of 2 worker processes, so `redteam / baseline` shows what
the attacks cost on top of one importer's run. Target: the full red team under 60 s wall.
`--quick`: the CI budget. Figures go to `bench/out/redteam.json`.

    .venv/bin/python -m bench.bench_redteam [--quick]
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
OUT_PATH = REPO_ROOT / "bench" / "out" / "redteam.json"
TARGET_WALL_SEC = 60.0
SEED = 20261130
WORKERS = 2


def timed(out: Path, level: str, attacks: Any, workers: int) -> tuple[float, float, Any]:
    from provebench.pilot.redteam import run_redteam

    shutil.rmtree(out, ignore_errors=True)
    wall, cpu = time.perf_counter(), time.process_time()
    report = run_redteam(out, seed=SEED, level=level, workers=workers, attacks=attacks)  # type: ignore[arg-type]
    return time.perf_counter() - wall, time.process_time() - cpu, report


def main(argv: list[str]) -> int:
    from provebench.pilot.redteam import ATTACKS, agents_of

    parser = argparse.ArgumentParser(prog="bench_redteam")
    parser.add_argument("--quick", action="store_true", help="the CI budget instead of full")
    args = parser.parse_args(argv)
    level = "ci" if args.quick else "full"
    with tempfile.TemporaryDirectory(prefix="bench-redteam-") as scratch:
        root = Path(scratch)
        base_wall, base_cpu, base = timed(root / "baseline", level, (), 1)
        wall, cpu, report = timed(root / "redteam", level, ATTACKS, WORKERS)
    runs = len(agents_of(ATTACKS)) * len(report.corpora)
    figures: dict[str, Any] = {
        "budget_level": level,
        "seed": SEED,
        "machine_cpus": os.cpu_count(),
        "workers": WORKERS,
        "corpora": [{k: c[k] for k in ("name", "cycles", "events")} for c in report.corpora],
        "budget_achieved": report.achieved,
        "attacks": len(report.attacks),
        "caught": len(report.attacks) - len(report.uncaught),
        "reference_clean": report.reference["clean"] and base.reference["clean"],
        "runs": runs,
        "redteam_wall_sec": round(wall, 2),
        "redteam_parent_cpu_sec": round(cpu, 2),
        "baseline_reference_only_wall_sec": round(base_wall, 2),
        "baseline_reference_only_cpu_sec": round(base_cpu, 2),
        "ratio_redteam_to_baseline": round(wall / base_wall, 2),
        "wall_sec_per_run": round(wall * WORKERS / runs, 3),
        "target_wall_sec": TARGET_WALL_SEC if level == "full" else None,
        "target_met": wall < TARGET_WALL_SEC if level == "full" else None,
    }
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
