"""Fixtures the agent-runner tests share: the small SI scenario fixture written to a file
(`tests/helpers/si_lab.write_fixture`) and its one scenario loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench.si import Scenario, load_scenarios
from tests.helpers.si_lab import write_fixture


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    return write_fixture(tmp_path)


@pytest.fixture
def scenario(scenario_file: Path) -> Scenario:
    return load_scenarios(scenario_file)[0]
