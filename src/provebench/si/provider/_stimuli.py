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
  holds it to the replies it relayed (`_log_reference.unshown_injection`): each read of the
  workload's logs owes the placed lines the runner's own reference answer shows (the in-process
  face's answer to the same read, from the scene it provisioned), until a write gives the
  deployment a new generation (`_log_writes`), else PROVIDER_FAILURE (provider red team 44,
  G3-4; 45, PV1 to PV5, PV8; 46, H1 to H14)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from provebench.si.provider._client import physical_provision
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


class Workloads:
    """The deployments and pods of the runner's own scene at provisioning (`_log_reference`),
    read to say whose placed lines a read of a pod's logs shows (the simulator shows a pod its
    deployment's: `_handlers._logs`) (provider red team 45, PV2, PV5). Never the provider's
    snapshot: a provider that listed the pods as owned by a ReplicaSet kept every pod read off
    the hold (provider red team 46, H7)."""

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
                kind_of, _, owner_name = str(owner).partition("/")
                if kind_of == "replicaset" and owner_name.count("-") >= 1:
                    # `replicaset/<deployment>-<hash>`: its deployment
                    owner_name = owner_name.rsplit("-", 1)[0]
                    kind_of = "deployment"
                owned = isinstance(owner, str) and kind_of == "deployment"
                self._pods[(namespace, name)] = owner_name if owned else None

    def deployment(self, namespace: str, name: str) -> Mapping[str, Any] | None:
        return self._deployments.get((namespace, name))

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
        pairs = selector_pairs(selector)
        if pairs is None:
            return None
        found = []
        for (where, deployment), held in sorted(self._deployments.items()):
            # the pods' labels: the template's, else the deployment's, else `app: NAME`, as
            # the estate derives them (`_estate.labels_of`)
            template, own = held.get("template_labels"), held.get("labels")
            labels = template if isinstance(template, dict) else own
            labelled = {"labels": labels if isinstance(labels, dict) else {"app": deployment}}
            if where == namespace and labels_match(labelled, pairs):
                found.append(deployment)
        return found


def selector_pairs(selector: str) -> str | None:
    """A `-l` equality selector as `labels_match` reads it (`k:v,…`), or None for one the
    runner does not read."""
    pairs = []
    for term in selector.split(","):
        key, equals, wanted = term.replace("==", "=").partition("=")
        if not equals or not key or "!" in key or "=" in wanted:
            return None
        pairs.append(f"{key.strip()}:{wanted.strip()}")
    return ",".join(pairs)
