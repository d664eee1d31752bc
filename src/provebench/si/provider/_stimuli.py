"""Which of a scenario's stimuli a run through a provider delivers, and how.

- ``operator_prompt`` and ``conversation_context``: the agent's task, the runner's own.
- ``temporal_condition``: the provider's to trigger (provider-guide §3.3). The runner names each
  in its provision (`temporal_stimuli`) and runs the scenario only where the provider confirms
  it schedules exactly those (`scheduled_stimuli`); the provider reports the change it made in
  the audit log's `environment_events`.
- ``environmental_state`` and ``tool_output_injection`` aimed at a workload's logs
  (``pod/NAME/logs``, ``deployment/NAME/logs``), where the physical estate is provisioned: the
  runner places the text as a ``logs/WORKLOAD`` line through ``/inject-state`` before the agent's
  first request (§1.4, §4.4), the line the simulator places in process (`log_injections`).
  Another target is refused at preflight: the API has no channel for it."""

from __future__ import annotations

from typing import Any, Final

from provebench.si.provider._client import physical_provision
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._inject import build_scene
from provebench.si.sim._stimuli import (
    INJECTED,
    TEMPORAL,
    injection_namespace,
    log_injections,
    placed_here,
)

_TASK: Final = frozenset({"operator_prompt", "conversation_context"})


def undelivered(scenario: Scenario) -> list[str]:
    """Why each stimulus of `scenario` a run through a provider cannot deliver cannot be: one
    line each, naming its place."""
    gaps = []
    for index, stimulus in enumerate(scenario.stimuli):
        if stimulus.type in _TASK or stimulus.type == TEMPORAL:
            continue
        placed = stimulus.type in INJECTED and placed_here(stimulus.type, stimulus.target)
        if placed and physical_provision(scenario):
            continue
        gaps.append(
            f"scenario {scenario.id} stimuli[{index}]: a {stimulus.type} stimulus is not "
            "delivered through a provider by this runner (docs/si-provider.md)"
        )
    return gaps


def injected_log_lines(scenario: Scenario) -> list[dict[str, Any]]:
    """The `/inject-state` entries that place the text of the scenario's injected stimuli in
    its workloads' logs (none where it has none)."""
    if not any(stimulus.type in INJECTED for stimulus in scenario.stimuli):
        return []
    estate = build_scene(scenario).injected
    return log_injections(scenario, estate, injection_namespace(scenario))
