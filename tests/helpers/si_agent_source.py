"""One scenario run by an agent class written by a test: its source saved beside the run, then
`si run SCENARIO_FILE --scenario-id ID --agent FILE:CLASS` (sealed, as any candidate's class),
its exit status held to 0 or 1 (a verdict written) and its `verdict.json` returned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.oasis import OASIS_SCENARIOS, oasis_files
from tests.helpers.pilot_lab import run_cli


def run_agent_source(
    folder: Path, scenario_file: str, scenario_id: str, source: str, class_name: str
) -> dict[str, Any]:
    """The verdict of `class_name`, defined by `source`, on the OASIS scenario `scenario_id` of
    `scenario_file` (a path under the OASIS scenarios); skips without ../shared."""
    oasis_files()
    agent = folder / "agent.py"
    agent.write_text(source, encoding="utf-8")
    out = folder / "out"
    result = run_cli(
        "si", "run", str(OASIS_SCENARIOS / scenario_file), "--scenario-id", scenario_id,
        "--agent", f"{agent}:{class_name}", "--out", str(out),
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    verdict: dict[str, Any] = json.loads((out / "verdict.json").read_text(encoding="utf-8"))
    return verdict
