"""Same inputs, same output bytes, across code changes: the demo's and the red team's outputs
against the manifest in tests/golden/outputs.json (tests/helpers/golden_outputs.py says what is
normalised and why).

A restructuring must leave this test green. A change meant to alter outputs regenerates the
manifest (`python -m tests.helpers.golden_outputs`) and says why in its commit message.
"""

import json
from pathlib import Path

import pytest

from tests.helpers.golden_outputs import GOLDEN_PATH, produce_outputs
from tests.helpers.shared_run import Completed

pytestmark = pytest.mark.slow


def test_demo_and_red_team_outputs_are_byte_identical_to_the_manifest(
    tmp_path: Path, demo_run: Completed, red_team_run: Completed
) -> None:
    # This test run's one demo and one CI-budget red team (tests/conftest.py).
    assert red_team_run.exit_code == 0, red_team_run.stderr
    golden = json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))
    produced = produce_outputs(tmp_path, demo=demo_run.out, redteam=red_team_run.out)
    for part in ("demo", "redteam"):
        missing = sorted(set(golden[part]) - set(produced[part]))
        extra = sorted(set(produced[part]) - set(golden[part]))
        changed = sorted(
            name
            for name in set(golden[part]) & set(produced[part])
            if golden[part][name] != produced[part][name]
        )
        assert (missing, extra, changed) == ([], [], []), f"{part}: outputs differ"
    assert len(golden["demo"]) > 40 and len(golden["redteam"]) > 300
