"""`provebench pilot evaluate` at 1M events: the invariants and the signature check, side by side
with the same evaluation without them.

One corpus of 1M events (`--quick`: 50k), 20 cycles, page size 1000, run once with the
reference importer. Then, alternately and each in a fresh subprocess (its own peak memory):

* **baseline** — the evaluator as it was before the invariants: `evaluate_run` with the new checks
  switched off (no signature check, no shown-before-append check, no schedule replay, no
  self-check judging; failure reports accounted for by any later report, as before);
* **checked** — the evaluator as shipped.

The ratio `checked / baseline` (CPU seconds, best of each) is the cost of the new checks; the
target is ≤ 1.5x (they are linear in the log). Figures go to `bench/out/pilot_evaluate.json`.

    .venv/bin/python -m bench.bench_pilot_evaluate [--quick]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_PATH = REPO_ROOT / "bench" / "out" / "pilot_evaluate.json"
FULL_EVENTS = 1_000_000
QUICK_EVENTS = 50_000
ROUNDS = 2
TARGET_RATIO = 1.5


def switch_off_the_new_checks() -> None:
    """The evaluator before the invariants, in this process: each new check is a no-op."""
    from provebench.pilot.evaluate import _core, _violations

    _core.run_envelope_problems = lambda *args, **kwargs: []  # type: ignore[assignment]
    _core.unshown_row_violations = lambda *args, **kwargs: []  # type: ignore[assignment]
    _core.schedule_differences = lambda *args, **kwargs: []  # type: ignore[assignment]
    _core.self_check_findings = lambda *args, **kwargs: ([], [])  # type: ignore[assignment]

    class AnyLaterReport(_violations._Accounting):
        """The old rule: any later failure report accounts for every failure of the cycle."""

        def covers(self, failure: Any) -> bool:
            if super().covers(failure):
                return True
            return any(seq > failure.seq for seq in self.file_reported.values()) or any(
                seq > failure.seq for named in self.named.values() for _, seq in named
            )

    _violations._Accounting = AnyLaterReport  # type: ignore[misc]


def child(mode: str, run_dir: str, corpus: str) -> int:
    from provebench.pilot.evaluate import evaluate_run

    if mode == "baseline":
        switch_off_the_new_checks()
    wall, cpu = time.perf_counter(), time.process_time()
    verdict = evaluate_run(run_dir, corpus)
    result = {
        "wall_sec": time.perf_counter() - wall,
        "cpu_sec": time.process_time() - cpu,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "laboratory_pass": verdict.laboratory_pass,
    }
    print(json.dumps(result))
    return 0


def measure(mode: str, run_dir: Path, corpus: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "bench.bench_pilot_evaluate", "--child", mode, str(run_dir),
         str(corpus)],
        capture_output=True, text=True, cwd=REPO_ROOT, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{mode} evaluation failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_pilot_evaluate")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "RUN", "CORPUS"))
    args = parser.parse_args(argv)
    if args.child:
        return child(*args.child)
    from bench.bench_pilot_run import make_corpus
    from provebench.pilot.lab._runner import run_lab

    events = QUICK_EVENTS if args.quick else FULL_EVENTS
    with tempfile.TemporaryDirectory(prefix="bench-evaluate-") as scratch:
        corpus = make_corpus(events, Path(scratch))
        run_dir = Path(scratch) / "run"
        run_lab(corpus, "reference", run_dir)
        rounds: dict[str, list[dict[str, Any]]] = {"baseline": [], "checked": []}
        for _ in range(ROUNDS):
            for mode in rounds:
                rounds[mode].append(measure(mode, run_dir, corpus))
                print(f"{mode}: {rounds[mode][-1]}", flush=True)
    best = {mode: min(r["cpu_sec"] for r in results) for mode, results in rounds.items()}
    ratio = best["checked"] / best["baseline"]
    report = {
        "events": events,
        "rounds": rounds,
        "best_cpu_sec": best,
        "ratio_checked_to_baseline": round(ratio, 3),
        "target_ratio": TARGET_RATIO,
        "met": ratio <= TARGET_RATIO,
        "both_pass": all(r["laboratory_pass"] for results in rounds.values() for r in results),
    }
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"evaluate at {events} events: checked/baseline {ratio:.2f}x (target ≤ {TARGET_RATIO}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
