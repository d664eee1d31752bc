"""Red team round 13b, H1 and H5: an SI sealed agent runs the code its digest names.

H5: the round left A's source in `agent/flip.py` and B's bytecode in
`agent/__pycache__/flip.cpython-*.pyc`, its header carrying A's mtime and size; the sandbox
showed the live folder, caches included, so Python loaded B — under A's digest, which skips
caches. H1: the code was swapped for B while an `si matrix` ran and swapped back before the
matrix's last check. An SI sealed class now runs from its run's snapshot, caches left out, held
in sealed memory (as a pilot run's); its digest is the snapshot's, and an SI matrix job whose
snapshot is not the planned code is a harness fault."""

from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import importlib.util
from pathlib import Path

import pytest

from provebench.attest import load_trusted_key
from provebench.attest._envelope import read_verified
from provebench.matrix import JobSpec
from provebench.matrix._identity import candidate_identity
from provebench.sandbox._candidate import code_digest
from provebench.si.agents._sealed import sealed_class_agent

pytestmark = pytest.mark.timeout(120)

SOURCE = """
class Flip:
    name = "flip"
    version = "{version}"

    def run(self, task, call):
        raise RuntimeError("not run here")
"""


def _agent(folder: Path, version: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "flip.py"
    path.write_text(SOURCE.format(version=version), encoding="utf-8")
    return path


def _forge_cache(path: Path, version: str) -> Path:
    """B's bytecode, with a header (A's source mtime and size) Python accepts for A's source."""
    held = path.stat()
    code = compile(SOURCE.format(version=version), str(path), "exec")
    data = bootstrap._code_to_timestamp_pyc(code, int(held.st_mtime), held.st_size)  # type: ignore[attr-defined]
    cache = Path(importlib.util.cache_from_source(str(path)))
    cache.parent.mkdir(exist_ok=True)
    cache.write_bytes(bytes(data))
    return cache


def test_a_forged_bytecode_cache_is_never_loaded(tmp_path: Path) -> None:
    path = _agent(tmp_path / "agent", "A")
    honest = sealed_class_agent(f"{path}:Flip", secrets={})
    assert honest.version == "A"  # the control: A's source, no cache
    _forge_cache(path, "B")
    loaded = sealed_class_agent(f"{path}:Flip", secrets={})
    assert loaded.version == "A"  # Python compiled the snapshot's source, not the cache
    assert loaded.code_sha256 == honest.code_sha256
    assert loaded.code_sha256 == code_digest([path.parent], field="--agent", skip_caches=True)


def test_a_sourceless_bytecode_file_the_sandbox_shows_is_in_the_digest(tmp_path: Path) -> None:
    path = _agent(tmp_path / "agent", "A")
    before = sealed_class_agent(f"{path}:Flip", secrets={}).code_sha256
    (path.parent / "helper.pyc").write_bytes(b"code")  # importable as `helper`: it is code
    assert sealed_class_agent(f"{path}:Flip", secrets={}).code_sha256 != before


def _job(tmp_path: Path, path: Path, planned: dict[str, str]) -> tuple[JobSpec, Path]:
    scenario = Path(__file__).parents[2] / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"
    matrix = tmp_path / "matrix"
    folder = matrix / "job"
    folder.mkdir()
    spec = JobSpec(
        key="flip/da/trial-001",
        agent=f"{path}:Flip",
        case="infra.capability.da.single-signal-diagnosis-001",
        trial=1,
        function="provebench.si.matrix._job:run_si_job",
        params={
            "scenario_file": str(scenario),
            "agent_timeout": 30,
            "matrix_folder": str(matrix),
            "max_tool_calls": 10,
            "pass_score": 1.0,
        },
        folder=str(folder),
        identity={"candidate": planned},
    )
    return spec, folder


def _planned(tmp_path: Path, path: Path) -> dict[str, str]:
    matrix = tmp_path / "matrix"
    matrix.mkdir()
    return candidate_identity(f"{path}:Flip", shipped=False, matrix_folder=matrix)


def test_an_si_jobs_signed_run_names_the_code_it_ran(tmp_path: Path) -> None:
    """The control: the planned code runs, and the run's signed predicate names its digest."""
    from provebench.si.matrix._job import run_si_job

    path = _agent(tmp_path / "agent", "A")
    planned = _planned(tmp_path, path)
    spec, folder = _job(tmp_path, path, planned)
    run_si_job(spec, folder)
    signed = read_verified(
        folder / "run.dsse.json", load_trusted_key(), predicate_type="urn:provebench:si-run:1"
    )
    assert signed.predicate["agent"]["code_sha256"] == planned["code_sha256"]


def test_an_si_job_whose_code_is_not_the_planned_code_is_a_harness_fault(tmp_path: Path) -> None:
    from provebench.si.matrix._job import ProviderFailure, run_si_job

    path = _agent(tmp_path / "agent", "A")
    planned = _planned(tmp_path, path)
    _agent(tmp_path / "agent", "B")  # swapped in after the matrix was planned
    spec, folder = _job(tmp_path, path, planned)
    with pytest.raises(ProviderFailure, match="not the candidate's code the matrix was planned"):
        run_si_job(spec, folder)
    assert not (folder / "verdict.json").exists()
