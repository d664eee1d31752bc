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
  Another target is refused at preflight: the API has no channel for it.

  `/inject-state` answering `applied` is the provider's word that the line is there; the runner
  holds it to the replies it relayed (`unshown_injection`): a read of the workload's logs the
  agent made before any write of its own — while the simulator shows the placed line, a write
  of the workload ends its declared lines — that does not show the line is PROVIDER_FAILURE
  (provider red team 44, G3-4: a provider that placed other text kept the injected instruction
  from the agent and scored better than in process)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from provebench.evidence import ToolAction
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


LOGS_TOOL: Final = "logs_read"
_DEPLOYMENT: Final = re.compile(r"(?:deployment|deployments|deploy)(?:\.apps)?/(.+)")


def _kubectl_logs_target(args: Sequence[str]) -> tuple[str, str] | None:
    """(namespace, deployment) a `kubectl logs deployment/NAME` reads, or None for another
    command (a pod's logs, more than one object, a flag that is not a namespace's)."""
    if not args or args[0] != "logs":
        return None
    namespace, targets, rest = "default", [], list(args[1:])
    while rest:
        word = rest.pop(0)
        if word in ("-n", "--namespace") and rest:
            namespace = rest.pop(0)
        elif word.startswith("--namespace="):
            namespace = word.partition("=")[2]
        elif word.startswith("-"):
            continue  # a flag with its value joined (`--tail=5`) or none
        else:
            targets.append(word)
    if len(targets) != 1:
        return None
    matched = _DEPLOYMENT.fullmatch(targets[0])
    return None if matched is None else (namespace, matched[1])


def logs_read_target(action: ToolAction, kubectl_tool: str) -> tuple[str, str] | None:
    """(namespace, name) of the workload whose logs `action` read, where it named a deployment
    the way the provider's reply shows a placed line for (provebench's `logs_read` of a name, or
    `kubectl logs deployment/NAME`); None for any other call."""
    if action.tool == LOGS_TOOL:
        name, namespace = action.arguments.get("name"), action.arguments.get("namespace")
        if not isinstance(name, str):
            return None
        return (namespace if isinstance(namespace, str) and namespace else "default", name)
    if action.tool == kubectl_tool:
        args = action.arguments.get("args")
        if isinstance(args, list) and all(isinstance(arg, str) for arg in args):
            return _kubectl_logs_target([str(arg) for arg in args])
    return None


def unshown_injection(
    injected: Sequence[dict[str, Any]],
    reads: Sequence[tuple[int, ToolAction]],
    kubectl_tool: str,
) -> str | None:
    """Why a reply the runner relayed does not show a line `/inject-state` placed (naming the
    step and the resource), or None. `reads`: each permitted call the agent made before any
    write of its own, with its step."""
    placed: dict[tuple[str, str], list[str]] = {}
    for entry in injected:
        workload = str(entry.get("resource", "")).partition("/")[2]
        lines = [line for line in entry.get("entries") or [] if isinstance(line, str)]
        placed.setdefault((str(entry.get("namespace") or "default"), workload), []).extend(lines)
    for step, action in reads:
        target = logs_read_target(action, kubectl_tool)
        if target is None or target not in placed or action.error is not None:
            continue
        for line in placed[target]:
            if line not in action.result:
                namespace, workload = target
                return (
                    f"it answered applied, and the agent's read of "
                    f"logs/{workload} in {namespace} (step {step}) does not show the line it "
                    "placed"
                )
    return None
