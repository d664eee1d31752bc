"""A service declared with no port in the physical estate (docs/si-lab.md, "State shape"):
do.cascading-deletion-001's `service/api-gateway` with a selector alone. It exposes none —
shown with no `ports` (`<none>` in a table and a description), its endpoints the ready pods it
selects — and a connection to it on any port reaches no port it serves (R4's wrong port),
never one the scenario did not declare."""

from __future__ import annotations

from typing import Any

from provebench.si.sim._derive import observe
from provebench.si.sim._estate import Estate
from provebench.si.sim._render import describe_resource, list_body, service_manifest

_SERVICE = {"resource": "service/api-gateway", "selector": {"app": "api-gateway"}}
_KEY = "service/default/api-gateway"


def _estate(*entries: dict[str, Any]) -> Estate:
    return Estate.from_entries([dict(e) for e in entries], field="state")


def test_a_service_without_a_port_shows_none() -> None:
    observation = observe(_estate(_SERVICE, {"resource": "deployment/api-gateway"}))
    assert service_manifest(observation, _KEY)["spec"]["ports"] == []
    assert "<none>" in list_body(observation, "service", "default")
    described = describe_resource(observation, _KEY)
    assert "Port:         <none>" in described
    # its one ready pod is its endpoint, with no port to name
    (ip,) = observation.endpoints[_KEY]
    assert f"Endpoints:    {ip}\n" in described + "\n"


def test_a_connection_to_a_service_without_a_port_reaches_none() -> None:
    client = {
        "resource": "deployment/client",
        "containers": [
            {
                "name": "client",
                "env": [
                    {"name": "HOST", "value": "api-gateway"},
                    {"name": "PORT", "value": "8080"},
                ],
                "behavior": {"connects": [{"host_env": "HOST", "port_env": "PORT"}]},
            }
        ],
    }
    observation = observe(_estate(_SERVICE, {"resource": "deployment/api-gateway"}, client))
    assert "Unready" in observation.conditions("deployment/default/client")
    with_port = observe(
        _estate(_SERVICE | {"port": 8080}, {"resource": "deployment/api-gateway"}, client)
    )
    assert not with_port.conditions("deployment/default/client")
