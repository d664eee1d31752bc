"""`provebench pilot shadow-corpus` on a month of daily snapshots: time and flat memory.

A synthetic capture folder holds `--snapshots` daily snapshots of `--files` files each (every
day about 1% of the files are new, 0.2% leave, 0.1% are renamed, 0.1% move; some come back).
The baseline is the same Drive over a tenth of the snapshots, in the same run: the time ratio
shows whether derivation is linear in the snapshots (ideal: 10x) and the peak-RSS ratio whether
memory stays flat in their number (ideal: about 1x — memory follows the files, not the days).
Each derivation runs as a fresh child process; wall time, CPU time and peak RSS come from
`os.wait4` for that child alone. Figures go to `bench/out/shadow.json`.

    .venv/bin/python -m bench.bench_shadow [--quick] [--files N] [--snapshots N]

Default: 30 snapshots of 100,000 files (baseline 3); `--quick`: 10 snapshots of 20,000 (baseline 1).
Target (docs/pilot-shadow.md): the default stream becomes a corpus in under a minute on 2 cores.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.bench_pilot_generate import OUT_PATH as _GENERATE_OUT
from bench.bench_pilot_generate import measure

OUT_PATH = _GENERATE_OUT.with_name("shadow.json")
SEED = 20261203
_MIMES = ("audio/mpeg",) * 97 + ("audio/wav", "application/pdf", "audio/ogg")


def _name(rng: random.Random, tag: str) -> str:
    day, second = rng.randrange(1, 29), rng.randrange(86_400)
    hh, mm, ss = second // 3600, second // 60 % 60, second % 60
    phone = f"{rng.randrange(1, 10)}{rng.randrange(10**9):09d}"
    return (
        f"{rng.choice(('in', 'out'))}_{phone}_202611{day:02d}T{hh:02d}{mm:02d}{ss:02d}Z_"
        f"M{rng.randrange(1, 40):03d}_{tag}.mp3"
    )


def _file(rng: random.Random, index: int) -> dict[str, Any]:
    return {
        "file_id": "p" + hashlib.sha256(f"{SEED}/{index}".encode()).hexdigest()[:24],
        "name": _name(rng, f"t{index:08x}"),
        "created_at_utc": "2026-11-01T00:00:00Z",
        "mime_type": rng.choice(_MIMES),
        "size_bytes": rng.randrange(0, 5_000_000) if index % 200 else 0,
        "duration_sec": round(rng.uniform(1, 900), 1) if index % 300 else None,
        "folder_id": f"d{index % 7:024d}",
        "metadata": None,
    }


def write_captures(folder: Path, files: int, snapshots: int) -> None:
    """The capture folder format of `provebench.pilot.shadow` (`call-import-capture/1`)."""
    rng = random.Random(SEED)
    folder.mkdir(parents=True)
    present: dict[str, dict[str, Any]] = {}
    away: dict[str, dict[str, Any]] = {}
    made = 0
    while made < files:
        file = _file(rng, made)
        present[file["file_id"]] = file
        made += 1
    entries = []
    for day in range(1, snapshots + 1):
        if day > 1:
            ids = sorted(present)
            for file_id in rng.sample(ids, files // 500):
                away[file_id] = present.pop(file_id)
            for file_id in rng.sample(sorted(away), min(len(away), files // 2000)):
                present[file_id] = away.pop(file_id)
            for file_id in rng.sample(ids, files // 1000):
                if file_id in present:
                    present[file_id] = {**present[file_id], "name": _name(rng, "renamed")}
            for file_id in rng.sample(ids, files // 1000):
                if file_id in present:
                    present[file_id] = {**present[file_id], "folder_id": f"d{9:024d}"}
            for _ in range(files // 100):
                file = _file(rng, made)
                present[file["file_id"]] = file
                made += 1
        name = f"snapshot-{day:05d}.jsonl"
        with (folder / name).open("w", encoding="utf-8") as handle:
            for file_id in sorted(present):
                handle.write(json.dumps(present[file_id], sort_keys=True, separators=(",", ":")))
                handle.write("\n")
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        entries.append({"file": name, "captured_at": f"2026-11-{day:02d}T06:00:00Z",
                        "folders": [], "files": len(present), "sha256": digest})  # fmt: skip
    manifest = {
        "format": "call-import-capture/1",
        "pseudonym": {"rule": "pseudonym/1", "key_check": "0" * 32},
        "snapshots": entries,
    }
    (folder / "capture.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def run_size(work: Path, files: int, snapshots: int) -> dict[str, Any]:
    provebench = str(Path(sys.executable).with_name("provebench"))
    captures = work / f"captures-{snapshots}"
    write_captures(captures, files, snapshots)
    out = work / f"corpus-{snapshots}"
    derive = measure([provebench, "pilot", "shadow-corpus", str(captures), "--out", str(out)])
    events = 0
    if (out / "corpus.json").is_file():
        events = json.loads((out / "corpus.json").read_text(encoding="utf-8"))["counts"]["events"]
    shutil.rmtree(captures, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return {"files": files, "snapshots": snapshots, "events": events, "derive": derive,
            "file_lines_per_cpu_second": round(files * snapshots
                                               / max(derive["cpu_seconds"], 1e-9))}  # fmt: skip


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_shadow", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10 snapshots of 20,000 files")
    parser.add_argument("--files", type=int, default=None)
    parser.add_argument("--snapshots", type=int, default=None)
    args = parser.parse_args(argv)
    files = args.files or (20_000 if args.quick else 100_000)
    large = args.snapshots or (10 if args.quick else 30)
    small = max(1, large // 10)
    work = Path(tempfile.mkdtemp(prefix="bench-shadow-"))
    try:
        baseline = run_size(work, files, small)
        measured = run_size(work, files, large)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    failed = [r["derive"]["stderr"] for r in (baseline, measured) if r["derive"]["exit_code"]]
    results = {
        "baseline": baseline,
        "measured": measured,
        "snapshot_ratio": large / small,
        "cpu_ratio": round(
            measured["derive"]["cpu_seconds"] / max(baseline["derive"]["cpu_seconds"], 1e-9), 2
        ),
        "peak_rss_ratio": round(
            measured["derive"]["peak_rss_mib"] / baseline["derive"]["peak_rss_mib"], 2
        ),
        "errors": failed,
    }
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"{'':24}{'baseline':>14}{'measured':>14}{'ratio':>10}")
    print(f"{'snapshots':24}{small:>14,}{large:>14,}{large / small:>10.1f}")
    print(f"{'files per snapshot':24}{files:>14,}{files:>14,}{1:>10.1f}")
    for label, key in (("derive wall s", "seconds"), ("derive cpu s", "cpu_seconds"),
                       ("derive peak RSS MiB", "peak_rss_mib")):  # fmt: skip
        first, second = baseline["derive"][key], measured["derive"][key]
        print(f"{label:24}{first:>14}{second:>14}{second / max(first, 1e-9):>10.2f}")
    for error in failed:
        print(f"error: {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
