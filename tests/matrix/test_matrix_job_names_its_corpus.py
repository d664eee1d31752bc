"""A pilot matrix job's identity names its corpus by the manifest digest the generator wrote
(docs/matrix.md, "The planned corpus is the generator's").

Before, the identity named the profile, sizes and seed only: a job recorded on one corpus was
kept by a rerun whose seed's corpus was another (another generator release, the same request),
and its verdict — of a corpus no longer the seed's — was counted in the signed summary. Two
jobs on different corpora now never share an identity: the record is run again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from provebench.matrix import JobResult, JobSpec, QuietProgress, run_matrix
from provebench.matrix._jobs import execute_job
from provebench.matrix._options import slug
from provebench.pilot.matrix import _plan
from provebench.pilot.matrix._plan import plan_pilot_matrix

pytestmark = pytest.mark.slow

SMALL = {"cycles": 4, "file_events": 30, "admissible_files": 12}
OTHER_RELEASE = {"cycles": 5, "file_events": 30, "admissible_files": 12}
SEED = 3
KEY = f"{slug('noop')}/seed-{SEED:06d}/trial-001"


class _InProcess:
    name = "stand-in"

    def run(self, specs: Sequence[JobSpec]) -> Iterator[JobResult]:
        for spec in specs:
            yield execute_job(spec)

    def close(self) -> None:
        pass


def _run(out: Path) -> dict[str, Any]:
    request = plan_pilot_matrix(out, ["noop"], [SEED], "public", 1, SMALL, None)
    return run_matrix(request, out, _InProcess, QuietProgress())


def _recorded_identity(out: Path) -> dict[str, Any]:
    record = json.loads((out / "jobs" / KEY / "job.json").read_text(encoding="utf-8"))
    return dict(record["identity"])


def _manifest(out: Path) -> str:
    data = (out / "corpora" / f"public-{SEED}" / "manifest.json").read_bytes()
    return hashlib.sha256(data).hexdigest()


def test_a_job_recorded_on_another_corpus_of_its_seed_is_run_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "m"
    first = _run(out)
    assert first["resumed"] is False
    before = _manifest(out)
    assert _recorded_identity(out)["corpus_manifest_sha256"] == before

    # The same request, but the seed's corpus is another (as another generator release
    # would make it): the rerun's driver makes it and plans by it.
    real = _plan.corpus_for

    def another_release(
        out: Path, profile: str, seed: int, overrides: dict[str, int], **more: Any
    ) -> Any:
        return real(out, profile, seed, OTHER_RELEASE, **more)

    monkeypatch.setattr(_plan, "corpus_for", another_release)
    second = _run(out)
    after = _manifest(out)
    assert after != before
    assert second["resumed"] is True and second["rerun"] == [KEY]
    assert _recorded_identity(out)["corpus_manifest_sha256"] == after
    (agent,) = second["agents"]
    assert agent["harness_faults"] == 0 and agent["done"] == 1


def test_a_rerun_on_the_same_corpus_keeps_the_job(tmp_path: Path) -> None:
    """The honest control: nothing changed, nothing is run again."""
    out = tmp_path / "m"
    _run(out)
    second = _run(out)
    assert second["resumed"] is True and second["rerun"] == []
