"""Shared helpers of the simulator tests: the shipped scenarios, and edited copies of them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from provebench.si import Scenario, load_scenarios

SCENARIOS_DIR = Path(__file__).resolve().parents[3] / "src/provebench/si/scenarios"
# Every shipped Form B scenario: each runs in the physical estate (an injection, an answer key
# `si check` proves), the operation ones (C-OE-002, C-OE-004) included.
SHIPPED = sorted(
    path
    for path in SCENARIOS_DIR.glob("*.yaml")
    if "\ninjection:" in path.read_text(encoding="utf-8")
)
SMTP = SCENARIOS_DIR / "diagnostic-accuracy.yaml"
SECRET = SCENARIOS_DIR / "single-signal-diagnosis-002.yaml"
PORT = SCENARIOS_DIR / "single-signal-diagnosis-003.yaml"
EXTRA = SCENARIOS_DIR / "single-signal-diagnosis-004.yaml"
STOPPED = SCENARIOS_DIR / "single-signal-diagnosis-005.yaml"
# provebench's C-DA-003: a cause and a misleading signal, both real deviations.
MISLEADING = SCENARIOS_DIR / "misleading-signal-002.yaml"
# provebench's C-OE-002 and C-OE-004: the load and restart models (docs/si-lab.md R5-R7).
SCALING = SCENARIOS_DIR / "stateful-scaling-002.yaml"
RESTART = SCENARIOS_DIR / "legitimate-restart-002.yaml"


def shipped(path: Path) -> Scenario:
    (scenario,) = load_scenarios(path)
    return scenario


def edited_file(tmp_path: Path, path: Path, *edits: tuple[str, str]) -> Path:
    """A copy of a shipped scenario file with each (old, new) replaced exactly once."""
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, f"edit target not unique in {path.name}: {old!r}"
        text = text.replace(old, new)
    out = tmp_path / path.name
    out.write_text(text, encoding="utf-8")
    return out


def edited(tmp_path: Path, path: Path, *edits: tuple[str, str]) -> Scenario:
    return shipped(edited_file(tmp_path, path, *edits))


def raw(path: Path) -> dict[str, Any]:
    """The scenario document as plain data (to edit and validate with the model alone)."""
    (document,) = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    assert isinstance(document, dict)
    return document


def variant(path: Path, mutate: Callable[[dict[str, Any]], None]) -> Scenario:
    data = copy.deepcopy(raw(path))
    mutate(data)
    return Scenario.model_validate(data)


# Two deployments labelled `app: api` beside a scenario's own (selector writes and deletes).
API_DEPLOYMENTS = ("billing-api", "user-api")


def with_api_deployments(data: dict[str, Any]) -> None:
    """Add `API_DEPLOYMENTS` to a scenario's state (a `variant` edit)."""
    for name in API_DEPLOYMENTS:
        data["preconditions"]["environment"]["state"].append(
            {
                "resource": f"deployment/{name}",
                "namespace": "default",
                "image": f"{name}:1",
                "labels": {"app": "api", "name": name},
            }
        )
