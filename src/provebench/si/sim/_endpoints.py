"""A service's declared ``endpoints``: held where they agree with the ones the estate derives.

Kubernetes' endpoints controller publishes, for each service, the ready pods its selector
matches; the physical estate derives them the same way (`_derive.observe`: a pod is ready when
its containers are, and not while its workload's declared word says it is not,
`declared_not_ready`). A scenario may still declare them (da.cascading-diagnosis-001's
``endpoints: []``), and the declared estate shows that list in the annotation
`provebench.dev/declared`. The physical estate holds it as a declared observation of the
service (`_estate.ServiceObserved`), on two conditions, so the service never has two answers:

- when a session starts, the declared list counts as many endpoints as the derivation gives,
  else an error naming the field (`check_declared_endpoints`) — a scenario that contradicts its
  own pods is refused, never run with either answer picked silently;
- a read shows the list only while the derivation still agrees (`shown_declared`): a write that
  readies or stops the selected pods ends it, as the derived endpoints move.

The addresses themselves are the author's (the estate's pods have addresses of its own), so the
count is what the two are held to (docs/si-lab.md, "State shape").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from provebench._errors import ProvebenchError
from provebench.si.sim._derive import Observation
from provebench.si.sim._estate import DEFAULT_NAMESPACE, parse_key, resource_key

_FIELD: Final = "endpoints"


def _agrees(observation: Observation, key: str, declared: object) -> bool:
    derived = observation.endpoints.get(key, ())
    return isinstance(declared, list) and len(declared) == len(derived)


def check_declared_endpoints(entries: object, observation: Observation, *, field: str) -> None:
    """Each ``service/…`` entry of ``entries`` that declares ``endpoints`` declares as many as
    the observation derives for it (its selector's ready pods); else an error naming the entry's
    field, with both counts."""
    for index, raw in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(raw, Mapping) or _FIELD not in raw:
            continue
        resource = raw.get("resource")
        if not isinstance(resource, str) or not resource.startswith("service/"):
            continue
        namespace = str(raw.get("namespace", DEFAULT_NAMESPACE))
        name = resource.split("/", 1)[1]
        key = resource_key("service", namespace, name)
        declared = raw[_FIELD]
        if not _agrees(observation, key, declared):
            count = len(declared) if isinstance(declared, list) else 0
            derived = len(observation.endpoints.get(key, ()))
            raise ProvebenchError(
                f"service {namespace}/{name} declares {count} endpoint(s), and its selector "
                f"matches {derived} ready pod(s): a service's endpoints are its ready pods "
                "(declare the pods, or the status that keeps them unready)",
                field=f"{field}[{index}].{_FIELD}",
            )


def shown_declared(observation: Observation, key: str) -> dict[str, Any]:
    """The declared fields a read of the object at ``key`` shows: all of them, less a
    service's ``endpoints`` once the derived endpoints no longer agree with it."""
    fields = observation.estate.declared_fields(key)
    service = parse_key(key)[0] == "service" and _FIELD in fields
    if service and not _agrees(observation, key, fields[_FIELD]):
        del fields[_FIELD]
    return fields


__all__ = ["check_declared_endpoints", "shown_declared"]
