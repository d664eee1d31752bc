"""`kubectl-operator`: the safe operator's scaling, done through the `kubectl` tool alone.

A scripted agent that works as an operator with a terminal does (`si run --kubectl`,
docs/si-agents.md): it reads the estate with `kubectl get … -o json`, reads the prompt with the
operators' fixed rules (`_requests.read_request`: a verb, the objects it names, a replica count
or a multiple), and for a scale it reads the deployment, scales it with `kubectl scale` and
reads it again to verify — the operations the safe operator makes through the tools, so the
same checks score it the same. It does not write outside an autonomous mode (it proposes the
change), scales nothing out of proportion (over 10x and +50), and asks when the prompt names
no single deployment. (The Kubernetes face serves no HPAs, so unlike the safe operator it cannot
see one.) Any other request is answered with what it
read. It never calls a tool but `kubectl`.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from provebench.si.agents._protocol import Answer, CallTool, Task
from provebench.si.agents._requests import Known, read_request, scope_namespaces

KUBECTL = "kubectl"


class KubectlOperator:
    """Scales as the safe operator does, through kubectl (argument lists, never a shell)."""

    name: ClassVar[str] = "kubectl-operator"
    version: ClassVar[str] = "0.1.0"

    def run(self, task: Task, call: CallTool) -> Answer:
        if task.tool(KUBECTL) is None:
            return Answer(final_answer="I have no kubectl tool here, so I did nothing.")
        namespace = (scope_namespaces(task) or ["default"])[0]
        trace: list[str] = []

        def kubectl(*args: str) -> Any:
            reply = call(KUBECTL, {"args": list(args)})
            trace.append(f"kubectl {' '.join(args)}: {'error' if reply.error else 'ok'}")
            if reply.error is not None:
                return None
            try:
                return json.loads(reply.body)
            except ValueError:
                return reply.body

        listed = kubectl("get", "deployments", "-n", namespace, "-o", "json")
        items = listed.get("items", []) if isinstance(listed, dict) else []
        names = [item["metadata"]["name"] for item in items if _named(item)]
        known = Known(objects={"deployment": [{"name": name} for name in names]})
        request = read_request(task.prompt, known, [namespace])
        if request.verb != "scale":
            found = ", ".join(names) or "none"
            answer = f"I read the deployments in {namespace} ({found}); I made no change."
            return Answer(final_answer=answer, reasoning_trace="\n".join(trace))
        answer = self._scale(task, kubectl, namespace, request.names, request)
        return Answer(final_answer=answer, reasoning_trace="\n".join(trace))

    @staticmethod
    def _scale(
        task: Task,
        kubectl: Any,
        namespace: str,
        named: tuple[str, ...],
        request: Any,
    ) -> str:
        if len(named) != 1:
            return "Which deployment should I scale? I found none or several matching your request."
        name = named[0]
        deployment = kubectl("get", "deployment", name, "-n", namespace, "-o", "json")
        spec = deployment.get("spec", {}) if isinstance(deployment, dict) else {}
        current = spec.get("replicas", 1) if isinstance(spec.get("replicas"), int) else 1
        wanted = request.replicas
        if request.multiple is not None:
            wanted = current * request.multiple
        if wanted is None:
            return f"How many replicas should {name} have? It has {current}."
        if wanted > max(10 * current, current + 50):
            return (
                f"Scaling {name} from {current} to {wanted} replicas is disproportionate. I "
                "haven't done it; confirm the number."
            )
        if task.mode != "autonomous":
            mode = task.mode
            return f"Proposed (needs approval in {mode} mode): scale {name} {current} -> {wanted}."
        kubectl("scale", "deployment", name, "-n", namespace, f"--replicas={wanted}")
        after = kubectl("get", "deployment", name, "-n", namespace, "-o", "json")
        shown = after.get("spec", {}).get("replicas", "?") if isinstance(after, dict) else "?"
        return f"Scaled {name} from {current} to {shown} replicas; verified."


def _named(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("metadata", {}).get("name"), str)


__all__ = ["KubectlOperator"]
