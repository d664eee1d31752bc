"""The verdict shown in docs/si-scoring.md (§5) and the README is that of a shipped example: what
changes with the shipped files (the scenario's version, the input hashes) must be the real one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import provebench.si
from provebench.cli import app

REPO_ROOT = Path(__file__).resolve().parents[3]
PACKAGE = Path(provebench.si.__file__).parent
SCENARIO = PACKAGE / "scenarios" / "diagnostic-accuracy.yaml"
EXAMPLE = PACKAGE / "examples" / "named-without-characterisation.json"


@pytest.fixture(scope="module")
def verdict() -> dict[str, Any]:
    result = CliRunner().invoke(app, ["si", "score", str(SCENARIO), str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    shown: dict[str, Any] = json.loads(result.stdout)
    return shown


def _doc_verdict() -> str:
    text = (REPO_ROOT / "docs" / "si-scoring.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```jsonc\n(.*?)```", text, re.DOTALL) if '"band"' in b]
    return block


def test_the_documented_verdict_has_the_shipped_scenario_and_hashes(
    verdict: dict[str, Any],
) -> None:
    block = _doc_verdict()
    scenario = re.search(r'"scenario": (\{[^}]*\})', block)
    assert scenario is not None and json.loads(scenario.group(1)) == verdict["scenario"]
    for name in ("scenario_file_sha256", "evidence_file_sha256"):
        prefix = re.search(rf'"{name}": "([0-9a-f]{{6,}})…"', block)
        assert prefix is not None and verdict["inputs"][name].startswith(prefix.group(1)), name


def test_the_readme_verdict_has_the_shipped_scenario_version(verdict: dict[str, Any]) -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r'"scenario": \{"id": "([^"]+)", "version": "([^"]+)"', readme)
    assert shown is not None
    assert shown.groups() == (verdict["scenario"]["id"], verdict["scenario"]["version"])
