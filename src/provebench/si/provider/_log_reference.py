"""The runner's own answer to each log read the agent makes through a provider: what the
in-process face shows it, computed from the runner's record alone — the scenario's provisioned
scene with the lines it placed by `/inject-state` (`place_injections`, the in-process rule) —
with the functions the face itself uses (`_handlers.perform` of `logs_read`, then `cut_log`,
the `tailLines` / `limitBytes` cut of `_kube.limited_log`).

A placed line that this reference answer shows is owed in the provider's answer, whatever the
provider says of its own log (provider red team 46, H1-H6, H5b, H13: a read with `--since`,
`-c`, `--previous`, `--tail`, `--limit-bytes` or a qualified kind was released from the hold, and
the count of lines the provider itself answered decided whether a cut read was whole, so
padding the reply, or kubectl's own stderr lines, released it). A pod's workload is the scene's,
never an owner the provider lists (H7)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from provebench.evidence import ToolAction
from provebench.si.provider._kube import cut_log
from provebench.si.provider._kubectl_flags import read_command_line
from provebench.si.provider._kubectl_named import estate_kind
from provebench.si.provider._kubectl_selector import labels_match
from provebench.si.provider._stimuli import LOGS_TOOL, Workloads, selector_pairs
from provebench.si.scenario._scenario import Scenario
from provebench.si.sim._derive import Observation, PodView, observe
from provebench.si.sim._handlers import perform
from provebench.si.sim._inject import build_scene
from provebench.si.sim._status_word import reported_state
from provebench.si.sim._stimuli import injection_namespace, place_injections

# kubectl's default `--tail` for a read over a selector (`kubectl logs --help`)
_SELECTOR_TAIL: Final = "10"
# The `kubectl logs` flags whose answer the face does not cut (it shows the current log of the
# pod whatever they ask: the estate's lines carry no time and no earlier run), read as the read
# they are; `-f` / `--follow` is a stream the face refuses in process too, so it is no read.
_STREAM: Final = frozenset({"-f", "--follow"})
# What kubectl prints when it refuses its own arguments before any request (the flag parser's
# errors, and `logs`' own validation): the read failed in the client, as it does in process.
_CLIENT_REFUSAL: Final = re.compile(
    r"^(?:Error: (?:unknown (?:shorthand )?flag|invalid argument|flag needs an argument"
    r"|bad flag syntax)|error: (?:--[a-z-]+ must|at most one of|only one of))",
    re.MULTILINE,
)
_STDERR: Final = "[stderr]\n"


@dataclass(frozen=True)
class LogRead:
    """One read of the workloads' logs as the agent asked it: `logs_read` of a name (a
    deployment, else a pod), or `kubectl logs` of a deployment, a pod or a selector, with the
    `tailLines` / `limitBytes` kubectl sends and the container it names."""

    namespace: str
    kind: str  # "name" (logs_read), "deployment", "pod", "selector"
    name: str  # the object's name, or the selector
    kubectl: bool = False
    tail: str | None = None
    limit_bytes: str | None = None
    container: str | None = None
    every_pod: bool = False  # `--all-pods`: each pod of a deployment, as a selector reads


@dataclass(frozen=True)
class Reference:
    """The face's answer to a read: each pod's text it shows (cut as asked), whether a placed
    line is owed where any of them shows it (a selector, `--all-pods`: every pod is printed)
    or only where all do (kubectl picks one pod of a deployment), and whether a failure of the
    read is the provider's (the object is one the scene provisioned)."""

    texts: tuple[str, ...]
    any_pod: bool
    failure_owed: bool

    def holds(self, line: str) -> bool:
        found = [line in text for text in self.texts]
        return any(found) if self.any_pod else bool(found) and all(found)


def stdout_of(result: str) -> str:
    """A kubectl command's standard output: its recorded output up to the `[stderr]` marker
    (`_kubectl.KubectlRunner.call`): what kubectl printed of the server's answer (H4: its own
    `Found 3 pods, using pod/…` lines were counted as log lines)."""
    if result.startswith(_STDERR):
        return ""
    cut = result.find("\n" + _STDERR)
    return result if cut < 0 else result[: cut + 1]


def refused_by_kubectl(result: str) -> bool:
    """Whether a failed `kubectl logs` failed in kubectl itself, before any request (a flag
    it does not take, a value it refuses): in process it fails the same."""
    return _CLIENT_REFUSAL.search(result) is not None


def _count(value: str) -> int | None:
    try:
        return int(value)
    except ValueError:
        return None


def kubectl_log_read(args: Sequence[str]) -> LogRead | None:
    """What `kubectl logs …` asks, read with kubectl's own flag table (`read_command_line`), or
    None for a command that is no read of a deployment's or a pod's log kubectl sends (another
    command, a flag kubectl does not have, a value it refuses, a stream, another kind)."""
    line = read_command_line(args)
    if not line.exact or line.positionals[:1] != ("logs",):
        return None
    namespace, selector, container = "default", None, None
    tail, limit, every_pod = -1, 0, False
    for flag, value in line.flags:
        if flag in _STREAM:
            return None
        if flag in ("-n", "--namespace"):
            namespace = value
        elif flag in ("-l", "--selector"):
            selector = value
        elif flag in ("-c", "--container"):
            container = value
        elif flag == "--all-pods":
            every_pod = value in ("", "true")
        elif flag == "--tail":
            counted = _count(value)
            if counted is None or counted < -1:
                return None  # kubectl refuses it
            tail = counted
        elif flag == "--limit-bytes":
            counted = _count(value)
            if counted is None or counted < 0:
                return None
            limit = counted
    targets = list(line.positionals[1:])
    if selector is not None:
        if targets:
            return None
        # a selector's read is cut to 10 lines unless the agent asked otherwise
        shown_tail = _SELECTOR_TAIL if tail == -1 else str(tail)
        return LogRead(namespace, "selector", selector, True, shown_tail, _limit(limit), container)
    if len(targets) == 2 and container is None:
        container = targets.pop()  # `kubectl logs POD CONTAINER`
    if len(targets) != 1:
        return None
    kind_text, slash, name = targets[0].partition("/")
    kind = estate_kind(kind_text) if slash else "pod"
    if not slash:
        name = targets[0]
    if kind not in ("deployment", "pod") or not name:
        return None
    return LogRead(
        namespace,
        kind,
        name,
        True,
        None if tail == -1 else str(tail),
        _limit(limit),
        container,
        every_pod,
    )


def _limit(limit: int) -> str | None:
    return None if limit == 0 else str(limit)  # kubectl sends no limitBytes for 0


def log_read_of(tool: str, arguments: Mapping[str, object], kubectl_tool: str) -> LogRead | None:
    """What a call read of the workloads' logs, or None for any other call."""
    if tool == LOGS_TOOL:
        name, namespace = arguments.get("name"), arguments.get("namespace")
        if not isinstance(name, str) or not name:
            return None
        where = namespace if isinstance(namespace, str) and namespace else "default"
        return LogRead(where, "name", name)
    if tool == kubectl_tool:
        args = arguments.get("args")
        if isinstance(args, list) and all(isinstance(arg, str) for arg in args):
            return kubectl_log_read([str(arg) for arg in args])
    return None


def _names(value: object) -> frozenset[str] | None:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return frozenset(str(item) for item in value)
    return None


class LogReference:
    """The in-process face's answers to log reads at provisioning, from the runner's record."""

    def __init__(self, scenario: Scenario) -> None:
        scene = build_scene(scenario).injected
        estate = place_injections(scenario, scene, injection_namespace(scenario))
        self._observation: Observation = observe(estate)
        scope = scenario.preconditions.agent.scope or {}
        self._namespaces = _names(scope.get("namespaces"))
        self._zones = _names(scope.get("zones"))
        # the scene's deployments and pods: whose lines a pod's read shows (H7)
        self.workloads = Workloads(reported_state(self._observation))
        self.replicas: dict[tuple[str, str], int] = {}
        for key in self._observation.estate.keys("deployment"):
            _, namespace, name = key.split("/", 2)
            held = self.workloads.deployment(namespace, name)
            count = held.get("replicas") if held is not None else None
            self.replicas[(namespace, name)] = count if type(count) is int else 1

    def _refused(self, namespace: str) -> bool:
        """Whether the agent's scope refuses a read in ``namespace`` (`Session._refusal`)."""
        if self._namespaces is not None and namespace not in self._namespaces:
            return True
        zone = self._observation.estate.namespace(namespace).zone
        return self._zones is not None and zone is not None and zone not in self._zones

    def _log(self, namespace: str, name: str) -> str | None:
        if self._refused(namespace):
            return None
        arguments = {"name": name, "namespace": namespace}
        response = perform(self._observation, LOGS_TOOL, "log", arguments).response
        return None if response.error is not None else response.body

    def _pods(self, namespace: str, deployment: str) -> list[PodView]:
        return sorted(
            (
                p
                for p in self._observation.pods
                if (p.namespace, p.deployment) == (namespace, deployment)
            ),
            key=lambda pod: pod.name,
        )

    def _pod(self, namespace: str, name: str) -> PodView | None:
        found = (p for p in self._observation.pods if (p.namespace, p.name) == (namespace, name))
        return next(found, None)

    def answer(self, read: LogRead) -> Reference | None:
        """The face's answer to ``read``, or None where it refuses or fails it (nothing is owed)."""
        if read.kind == "name":
            text = self._log(read.namespace, read.name)
            return None if text is None else Reference((text,), False, True)
        owed = True
        if read.kind == "selector":
            pairs = selector_pairs(read.name)
            if pairs is None:
                return None
            pods = sorted(
                (
                    pod
                    for pod in self._observation.pods
                    if pod.namespace == read.namespace
                    and labels_match({"labels": dict(pod.labels)}, pairs)
                ),
                key=lambda pod: pod.name,
            )
        elif read.kind == "deployment":
            pods = self._pods(read.namespace, read.name)
        else:
            pod = self._pod(read.namespace, read.name)
            if pod is not None:
                pods = [pod]
            else:
                # a pod of the scene's deployment by the ReplicaSet naming rule, which another
                # provider names otherwise: its lines are its deployment's; that its read
                # failed, the runner cannot tell from a name no pod has
                workload = self.workloads.of_pod(read.namespace, read.name)
                pods = self._pods(read.namespace, workload) if workload != read.name else []
                owed = False
        if not pods:
            return None
        if read.container is not None and any(
            read.container not in {c.name for c in pod.containers} for pod in pods
        ):
            return None  # a container the scene's pods do not have
        texts = []
        for pod in pods:
            text = self._log(read.namespace, pod.name)
            if text is None:
                return None
            cut = cut_log(text, read.tail, read.limit_bytes)
            texts.append(cut.decode("utf-8", errors="ignore"))
        return Reference(tuple(texts), read.kind == "selector" or read.every_pod, owed)


Ended = frozenset[tuple[str, str]]  # the (namespace, deployment) whose placed lines ended


def unshown_injection(
    injected: Sequence[Mapping[str, Any]],
    reads: Sequence[tuple[int, ToolAction, Ended]],
    kubectl_tool: str,
    reference: LogReference,
) -> str | None:
    """Why a reply the runner relayed does not show a line `/inject-state` placed (naming the
    step and the resource), or None. `reads`: each call forwarded, with its step and the
    workloads whose placed lines an earlier write ended (`_session._log_reads`: a new
    generation of the deployment, as the simulator ends them).

    Each log read is held to the runner's reference answer (`LogReference.answer`): a placed
    line it shows is owed in the provider's answer (a kubectl command's standard output only);
    what else the provider printed changes nothing. A read the face refuses or fails in
    process owes nothing. A read that failed through the provider, of an object the scene
    provisioned, counts as not showing the line: nothing in the runner's record explains it
    (provider red team 45, PV1; 46, H14: of a pod), unless kubectl refused its own arguments."""
    placed: dict[tuple[str, str], list[str]] = {}
    for entry in injected:
        workload = str(entry.get("resource", "")).partition("/")[2]
        lines = [line for line in entry.get("entries") or [] if isinstance(line, str)]
        placed.setdefault((str(entry.get("namespace") or "default"), workload), []).extend(lines)
    for step, action, ended in reads:
        read = log_read_of(action.tool, action.arguments, kubectl_tool)
        if read is None:
            continue
        answer = reference.answer(read)
        if answer is None:
            continue
        failed = action.error is not None
        if failed and (
            not answer.failure_owed or (read.kubectl and refused_by_kubectl(action.result))
        ):
            continue
        shown = stdout_of(action.result) if read.kubectl else action.result
        for (namespace, workload), lines in sorted(placed.items()):
            if namespace != read.namespace or (namespace, workload) in ended:
                continue
            for line in lines:
                if answer.holds(line) and (failed or line not in shown):
                    return (
                        f"it answered applied, and the agent's read of "
                        f"logs/{workload} in {namespace} (step {step}) does not show the line "
                        "it placed" + (" (the read failed)" if failed else "")
                    )
    return None


__all__ = [
    "Ended",
    "LogRead",
    "LogReference",
    "Reference",
    "kubectl_log_read",
    "log_read_of",
    "refused_by_kubectl",
    "stdout_of",
    "unshown_injection",
]
