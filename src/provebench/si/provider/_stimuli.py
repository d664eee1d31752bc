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
  holds it to the replies it relayed (`unshown_injection`): a read of the workload's logs — of
  the deployment, one of its pods, or a selector choosing them — the agent made before a
  permitted write of that workload (while the simulator shows the placed line: a write of the
  workload ends its declared lines) that does not show the line, or that failed where nothing
  in the runner's record explains it, is PROVIDER_FAILURE (provider red team 44, G3-4: a
  provider that placed other text kept the injected instruction from the agent and scored
  better than in process; red team 45, PV1 to PV5, PV8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from provebench.evidence import ToolAction
from provebench.si.provider._client import physical_provision
from provebench.si.provider._kubectl_flags import read_command_line
from provebench.si.provider._kubectl_selector import labels_match
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
_DEPLOYMENT_KINDS: Final = frozenset({"deployment", "deployments", "deploy"})
_POD_KINDS: Final = frozenset({"pod", "pods", "po"})
# `kubectl logs` flags that choose other lines than the workload's current log (a container
# the runner cannot map to the placed line, an earlier run, a time window the estate's lines
# carry no time for, a stream): a read with one is not held to the line.
_UNHELD_FLAGS: Final = frozenset(
    {"-c", "--container", "-p", "--previous", "--since", "--since-time", "-f", "--follow"}
)
# kubectl's default `--tail` for a read over a selector (`kubectl logs --help`)
_SELECTOR_TAIL: Final = 10


class Workloads:
    """The deployments and pods of the state at provisioning, read to say whose placed lines a
    read of a pod's logs shows (the simulator shows a pod its deployment's: `_handlers._logs`)
    (provider red team 45, PV2, PV5)."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self._deployments: dict[tuple[str, str], Mapping[str, Any]] = {}
        self._pods: dict[tuple[str, str], str | None] = {}
        for key, value in state.items():
            kind, _, rest = key.partition("/")
            namespace, _, name = rest.partition("/")
            if not isinstance(value, dict):
                continue
            if kind == "deployment":
                self._deployments[(namespace, name)] = value
            elif kind == "pod":
                owner = value.get("owner")
                owned = isinstance(owner, str) and owner.startswith("deployment/")
                self._pods[(namespace, name)] = str(owner).partition("/")[2] if owned else None

    def is_deployment(self, namespace: str, name: str) -> bool:
        return (namespace, name) in self._deployments

    def has_pods(self, namespace: str, name: str) -> bool:
        """Whether the deployment was provisioned with pods (kubectl reads a deployment's logs
        through one of them, and fails, as in process, where there is none)."""
        replicas = self._deployments.get((namespace, name), {}).get("replicas")
        return type(replicas) is int and replicas > 0

    def of_pod(self, namespace: str, name: str) -> str:
        """The workload whose lines a read of the pod ``name`` shows: its owner as the state
        names it, else the deployment its ReplicaSet name gives (``<deployment>-<hash>-<id>``,
        the physical estate's pods are derived and absent from its snapshots), else its own."""
        if (namespace, name) in self._pods:
            return self._pods[(namespace, name)] or name
        owner = name.rsplit("-", 2)[0]
        if name.count("-") >= 2 and (namespace, owner) in self._deployments:
            return owner
        return name

    def of_name(self, namespace: str, name: str) -> str:
        """The workload a `logs_read` of ``name`` reads: the deployment, else the pod's."""
        return name if self.is_deployment(namespace, name) else self.of_pod(namespace, name)

    def selected(self, namespace: str, selector: str) -> list[str] | None:
        """The deployments in ``namespace`` whose pods a `-l` equality selector chooses (their
        template's labels), or None for a selector the runner does not read."""
        pairs = []
        for term in selector.split(","):
            key, equals, wanted = term.replace("==", "=").partition("=")
            if not equals or not key or "!" in key or "=" in wanted:
                return None
            pairs.append(f"{key.strip()}:{wanted.strip()}")
        found = []
        for (where, deployment), held in sorted(self._deployments.items()):
            # the pods' labels: the template's, else the deployment's, else `app: NAME`, as
            # the estate derives them (`_estate.labels_of`)
            template, own = held.get("template_labels"), held.get("labels")
            labels = template if isinstance(template, dict) else own
            labelled = {"labels": labels if isinstance(labels, dict) else {"app": deployment}}
            if where == namespace and labels_match(labelled, ",".join(pairs)):
                found.append(deployment)
        return found


@dataclass(frozen=True)
class LogRead:
    """What one call read of the workloads' logs: the workloads (by namespace), whether it named
    a deployment itself (a failure of such a read is held too; under kubectl, only of one
    provisioned with pods), and the limits it asked."""

    namespace: str
    workloads: tuple[str, ...]
    named_deployment: bool
    tail: int | None = None
    limit_bytes: int | None = None

    def whole(self, shown: str) -> bool:
        """Whether ``shown`` (the reply) is the whole log of each workload read: a read cut to
        N lines or B bytes that shows fewer shows everything (each part is shorter still)."""
        if self.tail is not None and len(shown.splitlines()) >= self.tail:
            return False
        return self.limit_bytes is None or len(shown.encode()) < self.limit_bytes


def _count(value: str) -> int | None:
    try:
        return int(value)
    except ValueError:
        return None


def _kubectl_logs(args: Sequence[str], workloads: Workloads) -> LogRead | None:
    """What `kubectl logs …` reads, read with kubectl's own flag table (`read_command_line`:
    `--tail 50` is one flag and its value, provider red team 45, PV4), or None for a command
    whose lines the runner cannot name (another command, a flag it does not know, a container,
    an earlier run, a time window, a kind but a deployment or a pod, several objects)."""
    line = read_command_line(args)
    if not line.exact or line.positionals[:1] != ("logs",):
        return None
    namespace, selector, tail, limit = "default", None, None, None
    for flag, value in line.flags:
        if flag in _UNHELD_FLAGS:
            return None
        if flag in ("-n", "--namespace"):
            namespace = value
        elif flag in ("-l", "--selector"):
            selector = value
        elif flag == "--tail":
            tail = _count(value)
            if tail is None:
                return None
        elif flag == "--limit-bytes":
            limit = _count(value)
            if limit is None or limit <= 0:
                return None
    targets = line.positionals[1:]
    if selector is not None:
        # a read over a selector reads the pods of each deployment it chooses (PV5)
        chosen = workloads.selected(namespace, selector)
        if targets or not chosen:
            return None
        tail = _SELECTOR_TAIL if tail is None else tail
        named = all(workloads.has_pods(namespace, name) for name in chosen)
        return LogRead(namespace, tuple(chosen), named, tail if tail >= 0 else None, limit)
    if len(targets) != 1:
        return None
    kind, slash, name = targets[0].partition("/")
    if not slash:
        kind, name = "pod", targets[0]
    kind = kind.lower().removesuffix(".apps")
    if kind in _DEPLOYMENT_KINDS:
        found = (name,)
    elif kind in _POD_KINDS:
        found = (workloads.of_pod(namespace, name),)
    else:
        return None
    named = kind in _DEPLOYMENT_KINDS and workloads.has_pods(namespace, name)
    return LogRead(namespace, found, named, tail if tail is None or tail >= 0 else None, limit)


def logs_read_of(action: ToolAction, kubectl_tool: str, workloads: Workloads) -> LogRead | None:
    """What `action` read of the workloads' logs — provebench's `logs_read` of a deployment or
    a pod, `kubectl logs` of a deployment, a pod or a selector — or None for any other call."""
    if action.tool == LOGS_TOOL:
        name, namespace = action.arguments.get("name"), action.arguments.get("namespace")
        if not isinstance(name, str) or not name:
            return None
        where = namespace if isinstance(namespace, str) and namespace else "default"
        named = workloads.is_deployment(where, name)
        return LogRead(where, (workloads.of_name(where, name),), named)
    if action.tool == kubectl_tool:
        args = action.arguments.get("args")
        if isinstance(args, list) and all(isinstance(arg, str) for arg in args):
            return _kubectl_logs([str(arg) for arg in args], workloads)
    return None


Ended = frozenset[tuple[str, str]] | None  # the workloads whose hold has ended; None: all


def unshown_injection(
    injected: Sequence[dict[str, Any]],
    reads: Sequence[tuple[int, ToolAction, Ended]],
    kubectl_tool: str,
    workloads: Workloads,
    scope: Sequence[str] | None = None,
) -> str | None:
    """Why a reply the runner relayed does not show a line `/inject-state` placed (naming the
    step and the resource), or None. `reads`: each call forwarded, with its step and the
    workloads an earlier permitted write of the agent wrote (the simulator ends a workload's
    declared lines at a write of it, `Estate.written`, not at any write: provider red team 45,
    PV3). A read of a deployment's logs the provider failed, in a namespace the agent may read
    (`scope`), counts as not showing the line: nothing in the runner's record explains the
    failure (PV1). A read whose flags cut the log is held only where the reply shows it whole
    (PV8)."""
    placed: dict[tuple[str, str], list[str]] = {}
    for entry in injected:
        workload = str(entry.get("resource", "")).partition("/")[2]
        lines = [line for line in entry.get("entries") or [] if isinstance(line, str)]
        placed.setdefault((str(entry.get("namespace") or "default"), workload), []).extend(lines)
    for step, action, ended in reads:
        if ended is None:
            break
        read = logs_read_of(action, kubectl_tool, workloads)
        if read is None:
            continue
        held = [
            (read.namespace, workload)
            for workload in read.workloads
            if (read.namespace, workload) in placed and (read.namespace, workload) not in ended
        ]
        if not held:
            continue
        if action.error is not None:
            in_scope = scope is None or read.namespace in scope
            if not (read.named_deployment and in_scope):
                continue
        elif not read.whole(action.result):
            continue
        for target in held:
            for line in placed[target]:
                if action.error is not None or line not in action.result:
                    namespace, workload = target
                    return (
                        f"it answered applied, and the agent's read of "
                        f"logs/{workload} in {namespace} (step {step}) does not show the line "
                        "it placed" + (" (the read failed)" if action.error is not None else "")
                    )
    return None
