"""Benchmark of the sandbox (docs/sandbox.md): what sealing a candidate costs.

1. Start-up: one launch of a trivial command (`python -I -c pass`) in the sandbox against the
   same command started plainly, in the same run; the ratio and the added milliseconds per
   launch (one launch is one cycle of an `--agent-cmd` importer).
2. One cycle of an in-process importer class: sealed (its worker in the sandbox, every ctx call
   over the channel) against the same class run in the laboratory's process, on the same small
   corpus; the added milliseconds per cycle, and the calls-per-second of the channel.
3. The pilot §11 control corpus through the external Google-client importer
   (examples/gdrive_importer), sealed as `--agent-cmd` runs it, against the same importer
   started as a plain subprocess with the same variables (a measurement-only path that the
   product does not have). Target: the sealed run under 30 s on 2 cores.

Usage: `python -m bench.bench_sandbox [--quick]`; figures go to `bench/out/sandbox.json`.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "out" / "sandbox.json"

IMPORTER = '''
class Lister:
    """Lists the whole Drive page by page and asks for every file once: a call-heavy cycle."""

    name = "lister"
    version = "1"

    def run_cycle(self, ctx):
        token = None
        while True:
            try:
                page = ctx.drive.list_files(50, token)
            except Exception:
                continue
            for file_id in page.file_ids:
                try:
                    ctx.drive.get_file(file_id)
                except Exception:
                    pass
            token = page.next_page_token
            if token is None:
                return
'''


def startup(launches: int) -> dict[str, Any]:
    from provebench.sandbox import policy_for, run_sandboxed

    policy = policy_for([], {})
    command = [sys.executable, "-I", "-c", "pass"]
    plain, sealed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        private = Path(tmp)
        (private / "work").mkdir()
        for _ in range(launches):  # alternated, so drift on a noisy machine hits both
            start = time.perf_counter()
            subprocess.run(command, check=True)
            plain.append(time.perf_counter() - start)
            start = time.perf_counter()
            outcome = run_sandboxed(policy, command, private_dir=private, env={}, timeout=60)
            sealed.append(time.perf_counter() - start)
            assert outcome.returncode == 0
    plain_ms, sealed_ms = statistics.median(plain) * 1000, statistics.median(sealed) * 1000
    return {
        "launches": launches,
        "plain_median_ms": round(plain_ms, 1),
        "sandboxed_median_ms": round(sealed_ms, 1),
        "added_ms_per_launch": round(sealed_ms - plain_ms, 1),
        "ratio_sandboxed_vs_plain": round(sealed_ms / plain_ms, 2),
    }


def cycles(quick: bool) -> dict[str, Any]:
    from bench.bench_pilot_run import run_in_this_process
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config
    from provebench.pilot.lab._runner import run_lab

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        overrides = {"cycles": 4 if quick else 8}
        write_corpus(corpus_config(seed=5, profile="public", overrides=overrides), corpus)
        source = root / "code" / "lister.py"
        source.parent.mkdir()
        source.write_text(IMPORTER, encoding="utf-8")
        spec = f"{source}:Lister"
        start = time.perf_counter()
        run_in_this_process(str(corpus), spec, str(root / "in-process"))
        in_process = time.perf_counter() - start
        start = time.perf_counter()
        run_lab(corpus, spec, root / "sealed")
        sealed = time.perf_counter() - start
        calls = sum(
            1
            for line in (root / "sealed" / "ledger.jsonl").open(encoding="utf-8")
            if json.loads(line)["kind"] in ("drive.list", "drive.get")
        )
        same = (root / "sealed" / "register.csv").read_bytes() == (
            root / "in-process" / "register.csv"
        ).read_bytes()
    count = overrides["cycles"]
    return {
        "cycles": count,
        "api_calls": calls,
        "in_process_sec": round(in_process, 3),
        "sealed_sec": round(sealed, 3),
        "added_ms_per_cycle": round((sealed - in_process) / count * 1000, 1),
        "ratio_sealed_vs_in_process": round(sealed / in_process, 2),
        "same_register": same,
    }


def _plain_cycle(self: Any, ctx: Any) -> None:
    """`ExternalImporter.run_cycle` without the sandbox: the baseline of part 3 only."""
    from provebench.pilot.emulator import gateway_of, read_diagnostics_file
    from provebench.sandbox._workdir import copy_tree, replace_tree

    cycle_dir = Path(tempfile.mkdtemp(prefix="cycle-", dir=self.lab.private_dir))
    work = cycle_dir / "work"
    copy_tree(ctx.work_dir, work)
    key = self._cycle_key(cycle_dir)
    env = {
        **self.environment(ctx),
        "HOME": str(work),
        "GOOGLE_APPLICATION_CREDENTIALS": str(key),
        "PROVEBENCH_WORK_DIR": str(work),
        "PROVEBENCH_DIAGNOSTICS_FILE": str(cycle_dir / "diagnostics.jsonl"),
    }
    self.lab.open_cycle(ctx)
    try:
        subprocess.run(self.argv, cwd=work, env=env, stdin=subprocess.DEVNULL, check=False)
    finally:
        self.lab.close_cycle(ctx)
    read_diagnostics_file(ctx, gateway_of(ctx), cycle_dir / "diagnostics.jsonl")
    replace_tree(ctx.work_dir, work)


def control_corpus(quick: bool) -> dict[str, Any]:
    from provebench.pilot.corpus._folder import write_corpus
    from provebench.pilot.corpus._profiles import corpus_config
    from provebench.pilot.emulator import _external
    from provebench.pilot.emulator._commands import run_with_command

    importer = Path(__file__).resolve().parents[1] / "examples" / "gdrive_importer" / "importer.py"
    seconds: dict[str, list[float]] = {"sealed": [], "plain": []}
    exact = True
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        profile = "public" if quick else "control"
        write_corpus(corpus_config(seed=11, profile=profile), corpus)  # type: ignore[arg-type]
        sealed_cycle = _external.ExternalImporter.run_cycle
        for attempt, label in enumerate(("sealed", "plain") * (1 if quick else 2)):
            _external.ExternalImporter.run_cycle = (  # type: ignore[method-assign]
                sealed_cycle if label == "sealed" else _plain_cycle
            )
            out = Path(tmp) / f"{label}-{attempt}"
            start = time.perf_counter()
            try:
                run_with_command(corpus, f"python {importer}", out)
            finally:
                _external.ExternalImporter.run_cycle = sealed_cycle  # type: ignore[method-assign]
            seconds[label].append(time.perf_counter() - start)
            exact &= (out / "register.csv").read_bytes() == (
                corpus / "expected_final_rows.csv"
            ).read_bytes()
    sealed, plain = min(seconds["sealed"]), min(seconds["plain"])
    return {
        "corpus": f"{profile}, seed 11",
        "sealed_sec": [round(v, 2) for v in seconds["sealed"]],
        "plain_sec": [round(v, 2) for v in seconds["plain"]],
        "ratio_sealed_vs_plain_best": round(sealed / plain, 2),
        "registers_equal_expected": exact,
    }


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    figures = {
        "quick": quick,
        "startup": startup(5 if quick else 30),
        "in_process_class": cycles(quick),
        "control_corpus_external": control_corpus(quick),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2, sort_keys=True))
    exact = figures["control_corpus_external"]["registers_equal_expected"]
    return 0 if figures["in_process_class"]["same_register"] and exact else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
