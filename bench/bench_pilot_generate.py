"""`provebench pilot generate` at two sizes: linear time, bounded memory, and loading.

The baseline is the same command at a tenth of the size, in the same run: the time ratio shows
whether generation is linear (ideal: 10x for 10x the events) and the peak-RSS ratio whether memory
stays bounded (ideal: well under 10x). Each generation and each `load_corpus` (which verifies the
manifest and validates every line) runs as a fresh child process; wall time and peak RSS come
from `os.wait4` for that child alone. Figures go to `bench/out/pilot_generate.json`.

    .venv/bin/python -m bench.bench_pilot_generate [--quick] [--events N]

Default N is 1,000,000 file events (baseline 100,000); `--quick`: 200,000 (baseline 20,000).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT_PATH = REPO_ROOT / "bench" / "out" / "pilot_generate.json"
SEED = 20260701
_LOAD = "import sys; from provebench.pilot import load_corpus; load_corpus(sys.argv[1])"


def measure(command: list[str]) -> dict[str, Any]:
    """Run a fresh child; wall seconds, its peak RSS (MiB) and exit status."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    stderr = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
    return {
        "seconds": round(seconds, 3),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),  # Linux reports KiB
        "exit_code": os.waitstatus_to_exitcode(status),
        "stderr": stderr.strip(),
    }


def run_size(work: Path, events: int) -> dict[str, Any]:
    python = sys.executable
    provebench = str(Path(python).with_name("provebench"))
    out = work / f"corpus-{events}"
    generate = measure(
        [
            provebench,
            "pilot",
            "generate",
            "--seed",
            str(SEED),
            "--file-events",
            str(events),
            "--page-size",
            "1000",
            "--out",
            str(out),
        ]
    )
    load = measure([python, "-c", _LOAD, str(out)])
    size_mib = sum(p.stat().st_size for p in out.iterdir()) / 2**20 if out.exists() else 0.0
    shutil.rmtree(out, ignore_errors=True)
    return {
        "file_events": events,
        "corpus_mib": round(size_mib, 1),
        "generate": generate,
        "load": load,
        "generate_events_per_cpu_second": round(events / max(generate["cpu_seconds"], 1e-9)),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="bench_pilot_generate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="200,000 events instead of 1,000,000")
    parser.add_argument("--events", type=int, default=None, help="file events of the large corpus")
    args = parser.parse_args(argv)
    large = args.events or (200_000 if args.quick else 1_000_000)
    small = max(1_000, large // 10)
    work = Path(tempfile.mkdtemp(prefix="bench-pilot-generate-"))
    try:
        baseline = run_size(work, small)
        measured = run_size(work, large)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    failed = [
        run[step]["stderr"]
        for run in (baseline, measured)
        for step in ("generate", "load")
        if run[step]["exit_code"] != 0
    ]
    scale = large / small
    results = {
        "baseline": baseline,
        "measured": measured,
        "size_ratio": scale,
        "generate_cpu_ratio": round(
            measured["generate"]["cpu_seconds"] / max(baseline["generate"]["cpu_seconds"], 1e-9), 2
        ),
        "generate_peak_rss_ratio": round(
            measured["generate"]["peak_rss_mib"] / baseline["generate"]["peak_rss_mib"], 2
        ),
        "load_cpu_ratio": round(
            measured["load"]["cpu_seconds"] / max(baseline["load"]["cpu_seconds"], 1e-9), 2
        ),
        "errors": failed,
    }
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"{'':24}{'baseline':>14}{'measured':>14}{'ratio':>10}")
    print(f"{'file events':24}{small:>14,}{large:>14,}{scale:>10.1f}")
    for label, step, key in (
        ("generate cpu s", "generate", "cpu_seconds"),
        ("generate wall s", "generate", "seconds"),
        ("generate peak RSS MiB", "generate", "peak_rss_mib"),
        ("load cpu s", "load", "cpu_seconds"),
        ("load peak RSS MiB", "load", "peak_rss_mib"),
    ):
        first, second = baseline[step][key], measured[step][key]
        print(f"{label:24}{first:>14}{second:>14}{second / max(first, 1e-9):>10.2f}")
    for error in failed:
        print(f"error: {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
