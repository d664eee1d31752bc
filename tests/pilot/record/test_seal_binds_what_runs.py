"""The seal binds every byte that runs (docs/attestation.md, "The seal binds what runs").

Before, a seal's identity was a digest of the source-like files of the candidate's folder: another
class of the same folder was credited with the sealed control, and a data file or a bytecode
file beside the code — shown by the sandbox, outside the digest — changed what ran while the
identity stayed byte-equal. Now the identity is the spec and every byte the sandbox shows, the
seal holds a read-only copy of those bytes, and a run from the seal runs the copy.
"""

from __future__ import annotations

import json
import py_compile
import sys
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.attest import load_trusted_key
from provebench.pilot._seal import candidate_identity, generate_control, seal_candidate, sealed_code
from provebench.pilot.agents._loader import load_agent
from provebench.pilot.record import open_seal
from provebench.pilot.record._seal import fresh_control_finding
from tests.helpers.pilot_lab import run_cli

# Seconds, not milliseconds (sandboxed identification, CLI runs): in `make test`, not `make check`.
pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

IMPORTER = """\
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import helper  # noqa: E402
from provebench.pilot.agents._reference import ReferenceImporter  # noqa: E402

SETTING = (pathlib.Path(__file__).parent / "setting.txt").read_text().strip()


class Mine(ReferenceImporter):
    name = "mine"
    version = SETTING + "-" + helper.VALUE


class Other(Mine):
    name = "other"
"""


def candidate(folder: Path) -> str:
    folder.mkdir(parents=True)
    (folder / "mine.py").write_text(IMPORTER, encoding="utf-8")
    (folder / "helper.py").write_text('VALUE = "source"\n', encoding="utf-8")
    (folder / "setting.txt").write_text("sealed\n", encoding="utf-8")
    return f"{folder / 'mine.py'}:Mine"


def forge_bytecode(folder: Path) -> None:
    """A `__pycache__` entry Python trusts without looking at the source (an unchecked-hash
    .pyc): it makes `helper.VALUE` "forged" while helper.py still says "source"."""
    source = folder / "helper.py"
    real = source.read_text(encoding="utf-8")
    source.write_text('VALUE = "forged"\n', encoding="utf-8")
    cache = folder / "__pycache__" / f"helper.{sys.implementation.cache_tag}.pyc"
    py_compile.compile(
        str(source),
        cfile=str(cache),
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    source.write_text(real, encoding="utf-8")


def as_run_identity(
    agent_spec: str, code_sha256: str, seal: Path, isolation: dict[str, str] | None = None
) -> dict[str, object]:
    opened = open_seal(seal, load_trusted_key())
    corpus = {
        "seed": opened.seed,
        "profile": opened.sealed["profile"],
        "manifest_sha256": opened.control_manifest,
        "cycles": 20,  # the control profile's (pilot §11)
        "events": 500,
    }
    return {
        "agent": {"spec": agent_spec, "code_sha256": code_sha256},
        "corpus": corpus,
        "isolation": isolation or {},
    }


@pytest.fixture
def sealed(tmp_path: Path) -> tuple[str, Path]:
    spec = candidate(tmp_path / "code")
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity(spec, None), "control")
    return spec, seal


def test_another_class_from_the_sealed_folder_is_not_the_sealed_candidate(
    sealed: tuple[str, Path], tmp_path: Path
) -> None:
    spec, seal = sealed
    other = spec.replace(":Mine", ":Other")
    agent = load_agent(other, secrets={"run-folder": tmp_path / "run"})
    identity = as_run_identity(agent.spec, agent.code_sha256, seal)
    passed, basis = fresh_control_finding(seal, load_trusted_key(), identity, True, None)
    assert not passed and "agent.spec differs" in basis


@pytest.mark.parametrize("change", ["data file", "sourceless .pyc"])
def test_a_byte_the_sandbox_shows_changed_after_sealing_is_another_candidate(
    sealed: tuple[str, Path], tmp_path: Path, change: str
) -> None:
    spec, seal = sealed
    folder = tmp_path / "code"
    if change == "data file":
        (folder / "setting.txt").write_text("changed\n", encoding="utf-8")
    else:
        (folder / "extra.pyc").write_bytes(b"\x00" * 16)
    agent = load_agent(spec, secrets={"run-folder": tmp_path / "run"})
    identity = as_run_identity(agent.spec, agent.code_sha256, seal)
    passed, basis = fresh_control_finding(seal, load_trusted_key(), identity, True, None)
    assert not passed and "agent.code_sha256 differs" in basis


def test_a_bytecode_cache_added_after_sealing_never_runs(
    sealed: tuple[str, Path], tmp_path: Path
) -> None:
    """A run's snapshot leaves Python's caches out, as a seal does: a forged cache in the folder
    is neither run nor part of the identity, even in a run that is not from the seal."""
    spec, seal = sealed
    forge_bytecode(tmp_path / "code")
    agent = load_agent(spec, secrets={"run-folder": tmp_path / "run"})
    assert agent.version == "sealed-source"  # compiled from the source, not the forged cache
    assert (
        agent.code_sha256 == open_seal(seal, load_trusted_key()).sealed["candidate"]["code_sha256"]
    )


def test_a_run_from_the_seal_runs_the_sealed_bytes_and_never_the_folders_bytecode(
    sealed: tuple[str, Path], tmp_path: Path
) -> None:
    spec, seal = sealed
    folder = tmp_path / "code"
    unsealed = load_agent(spec, secrets={"run-folder": tmp_path / "run"})
    assert unsealed.version == "sealed-source"
    forge_bytecode(folder)  # after sealing: the folder's Python now says "forged"
    (folder / "setting.txt").write_text("changed\n", encoding="utf-8")
    assert load_agent(spec, secrets={}).version == "changed-source"  # what the folder runs now
    from_seal = sealed_code(seal, load_trusted_key())
    agent = load_agent(spec, secrets={"run-folder": tmp_path / "run"}, sealed=from_seal)
    assert agent.version == "sealed-source"  # the sealed bytes, compiled from the sealed source
    generate_control(seal, tmp_path / "control", load_trusted_key())  # the control corpus
    identity = as_run_identity(agent.spec, agent.code_sha256, seal, dict(agent.isolation))
    assert fresh_control_finding(seal, load_trusted_key(), identity, True, None)[0]


def test_a_sealed_fresh_control_runs_from_the_seal_end_to_end(
    sealed: tuple[str, Path], tmp_path: Path
) -> None:
    _, seal = sealed
    generate_control(seal, tmp_path / "control", load_trusted_key())
    (tmp_path / "code" / "setting.txt").unlink()  # the original may go: the seal holds the code
    ran = run_cli("pilot", "run", "--corpus", str(tmp_path / "control"), "--from-seal", str(seal),
                  "--out", str(tmp_path / "run"), "--quiet")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    verdict = tmp_path / "verdict.json"
    judged = run_cli("pilot", "evaluate", str(tmp_path / "run"), "--corpus",
                     str(tmp_path / "control"), "--fresh-control", str(seal),
                     "--out", str(verdict))  # fmt: skip
    assert verdict.exists(), judged.stderr
    checks = json.loads(verdict.read_text(encoding="utf-8"))["external_checks"]
    [control] = [check for check in checks if check["check"] == "fresh_hidden_control"]
    assert control["outcome"] is True, control["basis"]
    assert "this run is the sealed fresh control" in control["basis"]


@pytest.mark.parametrize("alteration", ["changed", "added", "missing"])
def test_a_seal_whose_copy_was_altered_is_one_line_and_nothing_runs(
    sealed: tuple[str, Path], tmp_path: Path, alteration: str
) -> None:
    _, seal = sealed
    copy = seal / "code" / "0"
    copy.chmod(0o755)
    if alteration == "changed":
        (copy / "setting.txt").chmod(0o644)
        (copy / "setting.txt").write_text("tampered\n", encoding="utf-8")
    elif alteration == "added":
        (copy / "sitecustomize.py").write_text("x = 1\n", encoding="utf-8")
    else:
        (copy / "helper.py").unlink()
    generate_control(seal, tmp_path / "control", load_trusted_key())
    out = tmp_path / "run"
    ran = run_cli("pilot", "run", "--corpus", str(tmp_path / "control"), "--from-seal", str(seal),
                  "--out", str(out), "--quiet")  # fmt: skip
    assert ran.returncode == 2
    [line] = ran.stderr.splitlines()
    assert f"{alteration} " in line and "seal" in line and not out.exists()


def test_the_seal_folder_is_refused_inside_the_code_folder_however_it_is_spelled(
    tmp_path: Path,
) -> None:
    spec = candidate(tmp_path / "code")
    alias = tmp_path / "alias"
    alias.symlink_to(tmp_path / "code")
    with pytest.raises(ProvebenchError, match="which the candidate's sandbox shows"):
        seal_candidate(alias / "seal", candidate_identity(spec, None), "control")
    assert not (tmp_path / "code" / "seal").exists()


def test_a_sealed_run_never_loads_bytecode_from_the_candidates_folder(tmp_path: Path) -> None:
    """A forged cache already there when sealing: the seal does not copy it, so the sealed run
    compiles the sealed source (and so does a run of the folder: its snapshot leaves it out)."""
    spec = candidate(tmp_path / "code")
    forge_bytecode(tmp_path / "code")
    assert load_agent(spec, secrets={}).version == "sealed-source"  # a run's snapshot: no cache
    seal = tmp_path / "seal"
    seal_candidate(seal, candidate_identity(spec, None), "control")
    agent = load_agent(spec, secrets={}, sealed=sealed_code(seal, load_trusted_key()))
    assert agent.version == "sealed-source"
    assert not list((seal / "code").rglob("__pycache__"))


def test_a_sealed_command_runs_from_the_seals_copy(tmp_path: Path) -> None:
    """`--agent-cmd`: the command line is the spec, the folders of the files it names are
    copied; after sealing, the original script fails every cycle, the sealed copy does not."""
    script = tmp_path / "code" / "quiet.py"
    script.parent.mkdir()
    script.write_text("pass\n", encoding="utf-8")
    command = f"{sys.executable} {script}"
    seal = tmp_path / "seal"
    sealed = seal_candidate(seal, candidate_identity(None, command), "control")
    assert sealed["candidate"]["spec"] == f"cmd:{command}"
    generate_control(seal, tmp_path / "control", load_trusted_key())
    script.write_text("raise SystemExit(3)\n", encoding="utf-8")  # changed after sealing
    ran = run_cli("pilot", "run", "--corpus", str(tmp_path / "control"), "--from-seal", str(seal),
                  "--out", str(tmp_path / "run"), "--quiet", timeout=240)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert "agent_error" not in ran.stdout  # the sealed `pass`, not the edited script
    run_record = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    agent = json.dumps(run_record, sort_keys=True)
    assert sealed["candidate"]["code_sha256"] in agent and f"cmd:{command}" in agent


def test_a_first_format_seal_still_opens_but_starts_no_run(
    sealed: tuple[str, Path], tmp_path: Path
) -> None:
    """A /1 seal (signed by this laboratory) held no copy of the code: published evidence with
    one stays checkable, and a run from it is refused in one line."""
    from provebench._canonical import canonical_json, write_atomic
    from provebench.attest._envelope import sign_files
    from provebench.pilot.record._seal import SEAL_FILE, SEAL_PREDICATE

    _, seal = sealed
    first = json.loads((seal / SEAL_FILE).read_text(encoding="utf-8"))
    first["format"] = "provebench.pilot.seal/1"
    del first["code"]
    write_atomic(seal / SEAL_FILE, canonical_json(first))  # the operator writes, then signs
    sign_files(seal, [SEAL_FILE], seal / "seal.dsse.json", SEAL_PREDICATE, first)
    assert open_seal(seal, load_trusted_key()).sealed["format"] == "provebench.pilot.seal/1"
    generate_control(seal, tmp_path / "control", load_trusted_key())
    ran = run_cli("pilot", "run", "--corpus", str(tmp_path / "control"), "--from-seal", str(seal),
                  "--out", str(tmp_path / "run"), "--quiet")  # fmt: skip
    assert ran.returncode == 2
    [line] = ran.stderr.splitlines()
    assert "not a provebench.pilot.seal/2 seal" in line and not (tmp_path / "run").exists()
