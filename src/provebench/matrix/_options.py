"""The options every matrix command shares, and the parsing of a seed list like `1-100,105`."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Annotated

import typer

from provebench._errors import ProvebenchError

MAX_JOBS = 100_000
MAX_TRIALS = 1_000

AgentsOption = Annotated[
    str, typer.Option("--agents", help="Comma-separated agent specs (as --agent takes them).")
]
TrialsOption = Annotated[
    int,
    typer.Option(
        "--trials", help="Trials of each job (pass^k for k up to this).", min=1, max=MAX_TRIALS
    ),
]
OutOption = Annotated[Path, typer.Option("--out", help="The matrix folder (made, or resumed).")]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers", help="Worker processes (default: the number of cores).", min=1, max=256
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="Run on Dask distributed over mutual TLS: local-cluster, or a scheduler's "
        "tls://HOST:PORT (default: a local process pool; docs/matrix.md).",
    ),
]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No progress output.")]
StoreOption = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="Write the jobs' folders to this fsspec URL (s3://…, file://…) instead of "
        "OUT/jobs (docs/matrix.md).",
    ),
]


def agent_list(text: str) -> list[str]:
    agents = [part.strip() for part in text.split(",") if part.strip()]
    if not agents:
        raise ProvebenchError("no agent given", field="--agents")
    if len(set(agents)) != len(agents):
        raise ProvebenchError("an agent is named twice", field="--agents")
    return agents


def seed_list(text: str, *, maximum: int) -> list[int]:
    """`1-100,105` → [1, …, 100, 105]: ranges inclusive, each seed once, in the order given."""
    seeds: dict[int, None] = {}
    for part in (p.strip() for p in text.split(",")):
        low_text, dash, high_text = part.partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if dash else low
        except ValueError:
            raise ProvebenchError(
                f"not a seed or a range of seeds: {part!r} (e.g. 1-100,105)", field="--seeds"
            ) from None
        if not 0 <= low <= high <= maximum:
            raise ProvebenchError(
                f"seeds run 0 to {maximum}, low to high: {part!r}", field="--seeds"
            )
        if high - low + len(seeds) > MAX_JOBS:
            raise ProvebenchError(f"at most {MAX_JOBS} seeds", field="--seeds")
        seeds.update(dict.fromkeys(range(low, high + 1)))
    return list(seeds)


def default_workers(workers: int | None) -> int:
    return workers if workers is not None else max(1, os.cpu_count() or 1)


def slug(agent: str) -> str:
    """A folder name for an agent spec: readable, and unique by a short hash of the spec."""
    readable = (
        re.sub(r"[^A-Za-z0-9._-]+", "_", agent.rsplit("/", 1)[-1])[:40].strip("._") or "agent"
    )
    return f"{readable}-{hashlib.sha256(agent.encode('utf-8')).hexdigest()[:8]}"


__all__ = [
    "AddressOption",
    "AgentsOption",
    "OutOption",
    "QuietOption",
    "StoreOption",
    "TrialsOption",
    "WorkersOption",
    "agent_list",
    "default_workers",
    "seed_list",
    "slug",
]
