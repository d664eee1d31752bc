"""The agent contract is enough alone (pilot §3, §10): an importer written from
`agent_contract.md` only — Google's client libraries and the standard library, nothing of
provebench — passes the laboratory gate through `--agent-cmd`."""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

import pytest

from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import run_cli

IMPORTER = Path(__file__).with_name("importer.py")


def test_the_importer_imports_nothing_of_provebench_or_its_tests() -> None:
    tree = ast.parse(IMPORTER.read_text(encoding="utf-8"))
    modules = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    modules += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert modules and not [m for m in modules if m.split(".")[0] in ("provebench", "tests")]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 11])
def test_an_importer_written_from_the_contract_alone_passes_the_laboratory_gate(
    tmp_path: Path, seed: int
) -> None:
    corpus = make_small_corpus(tmp_path, seed=seed)
    # What a candidate is handed: the contract. The importer reads its mapping table from it.
    code = tmp_path / "candidate"
    code.mkdir()
    shutil.copy(IMPORTER, code / "importer.py")
    shutil.copy(corpus / "agent_contract.md", code / "agent_contract.md")
    run_dir = tmp_path / "run"
    ran = run_cli(
        "pilot",
        "run",
        "--corpus",
        str(corpus),
        "--out",
        str(run_dir),
        "--agent-cmd",
        f"{sys.executable} {code / 'importer.py'}",
        "--quiet",
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr
    verdict = run_cli("pilot", "evaluate", str(run_dir), "--corpus", str(corpus), "--explain")
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    assert "laboratory_pass=true" in verdict.stdout
