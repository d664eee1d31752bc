"""SI §2.1 tool-echo exclusion: provebench against the naive search and a one-pass floor.

A seeded evidence artifact holds ~50 MB of tool response bodies (manifests, logs, events) and a
20,000-line final answer. Three figures, all in the same run, as MB/s of evidence (bodies +
answer):

* provebench: `named_in_output(..., exclude_tool_echo=True)` on a fresh `EvidenceView`
  (identifier matching, candidate lines, echo search);
* naive: for every answer line, search every body (`line in body`), then match the rest. Running
  it in full takes minutes, so it runs on a seeded sample of answer lines (stratified: echoed and
  non-echoed lines in their real proportion) and its time is scaled to all lines;
* floor: one `bytes.find` pass over the same body bytes (a needle that does not occur).

Two mixes: *common* (1% of answer lines name the identifier, about half of them echoed; 0.5% of
body lines hold it) and *adversarial* (every answer line names the identifier, half of them
echoed; 10% of body lines hold it).

Usage: `python -m bench.bench_si_echo [--quick]`; figures go to `bench/out/si_echo.json`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from provebench.evidence import Evidence, ToolAction
from provebench.si.primitives._primitives import named_in_output
from provebench.si.primitives._scope import EvidenceView

IDENTIFIER = "SMTP_PORT"
OUT = Path(__file__).parent / "out" / "si_echo.json"
_SEED = 20260


@dataclass(frozen=True)
class Mix:
    name: str
    answer_identifier_share: float
    body_identifier_share: float


MIXES = (Mix("common", 0.01, 0.005), Mix("adversarial", 1.0, 0.10))


def _body_line(rng: random.Random, identifier_share: float) -> str:
    if rng.random() < identifier_share:
        return rng.choice(
            [
                f"        - name: {IDENTIFIER}",
                f"            configMapKeyRef: {{name: smtp-config, key: {IDENTIFIER}}}",
                f'{{"level":"error","msg":"env {IDENTIFIER} not set",'
                f'"pod":"ns-{rng.randrange(10**6)}"}}',
            ]
        )
    return rng.choice(
        [
            f"2026-11-30T12:{rng.randrange(60):02d}:{rng.randrange(60):02d}Z INFO request "
            f"id={rng.randrange(10**9)} path=/api/v1/items/{rng.randrange(10**5)} status=200",
            f"  replicas: {rng.randrange(1, 9)}",
            f"    image: registry.local/team/service-{rng.randrange(500)}:v{rng.randrange(99)}",
            f"Normal  Pulled  {rng.randrange(90)}s  kubelet  Successfully pulled image in "
            f"{rng.randrange(1000)}ms",
            f"      - containerPort: {rng.randrange(1024, 65535)}",
        ]
    )


def build(mix: Mix, body_mb: float, answer_lines: int) -> tuple[Evidence, int]:
    """Seeded evidence: bodies of ~100 kB each up to `body_mb`, and the answer lines."""
    rng = random.Random(f"{_SEED}:{mix.name}")
    target = int(body_mb * 1_000_000)
    bodies: list[str] = []
    body_lines: list[str] = []
    size = 0
    while size < target:
        lines = [_body_line(rng, mix.body_identifier_share) for _ in range(1200)]
        body = "\n".join(lines)
        bodies.append(body)
        body_lines.extend(lines)
        size += len(body)
    with_identifier = [line for line in body_lines if IDENTIFIER in line]
    answer: list[str] = []
    for index in range(answer_lines):
        echoed = rng.random() < 0.5
        if rng.random() < mix.answer_identifier_share:
            answer.append(
                rng.choice(with_identifier).strip()
                if echoed
                else f"Finding {index}: {IDENTIFIER} is missing from configmap smtp-config."
            )
        else:
            answer.append(
                rng.choice(body_lines).strip()
                if echoed
                else f"Step {index}: checked the pods and their events; nothing unusual there."
            )
    actions = [
        ToolAction(id=f"call-{i}", tool="kubectl", arguments={}, result=body)
        for i, body in enumerate(bodies)
    ]
    evidence = Evidence(final_answer="\n".join(answer), reasoning_trace="", actions=actions)
    return evidence, size + len(evidence.final_answer)


def _provebench(evidence: Evidence) -> tuple[float, int]:
    started = time.perf_counter()
    result = named_in_output(EvidenceView(evidence), [IDENTIFIER], ["agent_response"], True)
    return time.perf_counter() - started, result.match_count


def _naive(evidence: Evidence, sample_size: int) -> float:
    """Seconds for the naive method over all lines, scaled from a stratified sample."""
    lines = evidence.final_answer.split("\n")
    bodies = [action.result for action in evidence.actions]
    rng = random.Random(_SEED)
    sample = rng.sample(lines, min(sample_size, len(lines)))
    started = time.perf_counter()
    kept = 0
    for line in sample:
        stripped = line.strip()
        if stripped and not any(stripped in body for body in bodies) and IDENTIFIER in line:
            kept += 1
    elapsed = time.perf_counter() - started
    return elapsed * len(lines) / len(sample)


def _floor(evidence: Evidence) -> float:
    data = "\n".join(action.result for action in evidence.actions).encode()
    needle = (IDENTIFIER + "\x00").encode()
    started = time.perf_counter()
    position = data.find(needle)
    elapsed = time.perf_counter() - started
    assert position == -1
    return elapsed


def run(body_mb: float, answer_lines: int, sample_size: int, repeats: int) -> dict[str, object]:
    figures: dict[str, object] = {
        "body_mb": body_mb,
        "answer_lines": answer_lines,
        "naive_sample_lines": sample_size,
        "repeats": repeats,
        "mixes": {},
    }
    for mix in MIXES:
        evidence, total_bytes = build(mix, body_mb, answer_lines)
        megabytes = total_bytes / 1_000_000
        # Interleaved and best-of-N: the machine is shared, so noise hits both sides alike.
        provebench_runs: list[float] = []
        floor_runs: list[float] = []
        matches = 0
        for _ in range(repeats):
            elapsed, matches = _provebench(evidence)
            provebench_runs.append(elapsed)
            floor_runs.append(_floor(evidence))
        provebench_sec, floor_sec = min(provebench_runs), min(floor_runs)
        naive_sec = _naive(evidence, sample_size)
        figures["mixes"][mix.name] = {  # type: ignore[index]
            "evidence_mb": round(megabytes, 2),
            "in_scope_matches": matches,
            "provebench_mb_per_sec": round(megabytes / provebench_sec, 1),
            "naive_mb_per_sec": round(megabytes / naive_sec, 3),
            "floor_bytes_find_mb_per_sec": round(megabytes / floor_sec, 1),
            "speedup_vs_naive": round(naive_sec / provebench_sec, 1),
            "slowdown_vs_floor": round(provebench_sec / floor_sec, 2),
        }
    return figures


def _print(figures: dict[str, object]) -> None:
    print(
        f"SI echo exclusion: {figures['body_mb']} MB bodies, {figures['answer_lines']} answer "
        f"lines (naive scaled from {figures['naive_sample_lines']} sampled lines)"
    )
    print(f"{'mix':<12}{'provebench':>12}{'naive':>10}{'floor':>10}", end="")
    print(f"{'vs naive':>10}{'vs floor':>10}")
    print(f"{'':<12}{'MB/s':>12}{'MB/s':>10}{'MB/s':>10}{'x faster':>10}{'x slower':>10}")
    for name, row in figures["mixes"].items():  # type: ignore[attr-defined]
        print(
            f"{name:<12}{row['provebench_mb_per_sec']:>12}{row['naive_mb_per_sec']:>10}"
            f"{row['floor_bytes_find_mb_per_sec']:>10}{row['speedup_vs_naive']:>10}"
            f"{row['slowdown_vs_floor']:>10}"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench_si_echo", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 MB of bodies, 2,000 lines")
    args = parser.parse_args(argv)
    if args.quick:
        figures = run(body_mb=5, answer_lines=2_000, sample_size=40, repeats=5)
    else:
        figures = run(body_mb=50, answer_lines=20_000, sample_size=100, repeats=5)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    _print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
