"""Which objects a deployment's status word is derived from, read by the derivation itself.

The word the physical estate reports of a deployment (`_status_word.unhealthy_word`) follows its
pods' outcomes (`_derive._Deriver.deployment_outcomes`): its own fields, the ConfigMaps and
Secrets its environment and config file read (present or absent), the services its connections
dial and the deployments they select, in turn — and where it requests resources, the nodes R6
places it on and the deployments placed before it. A write of any other object cannot move the
word. Rather than a second list of those rules, the derivation is run over an estate that notes
every object it reads or asks after, so the reading stays the rules' own.
"""

from __future__ import annotations

from provebench.si.sim._derive import _Deriver
from provebench.si.sim._estate import ConfigData, Deployment, Estate, Node, Service


class _NotingEstate(Estate):
    """An estate that notes the key of each object a derivation reads or asks after."""

    def __init__(self, estate: Estate) -> None:
        super().__init__(estate.copy_data())
        self.read: set[str] = set()

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.read.add(key)
        return super().__contains__(key)

    def deployment(self, key: str) -> Deployment:
        self.read.add(key)
        return super().deployment(key)

    def config(self, key: str) -> ConfigData:
        self.read.add(key)
        return super().config(key)

    def service(self, key: str) -> Service:
        self.read.add(key)
        return super().service(key)

    def node(self, key: str) -> Node:
        self.read.add(key)
        return super().node(key)


def status_inputs(estate: Estate, key: str) -> frozenset[str]:
    """The keys of the objects the status word of the deployment at ``key`` is derived from
    (itself included): what its pods' outcomes read, and its placement's inputs."""
    noting = _NotingEstate(estate)
    deriver = _Deriver(noting)  # places every pod first: that reads every deployment and node
    noting.read.clear()
    deriver.deployment_outcomes(key)
    read = {key, *noting.read}
    nodes = list(estate.keys("node"))
    if nodes and estate.deployment(key).resource_requests is not None:
        # R6 places pods first-fit over the nodes, deployments in key order (`schedule`): what
        # is placed before this deployment decides what is left for it
        read |= set(nodes) | {other for other in estate.keys("deployment") if other < key}
    return frozenset(read)


__all__ = ["status_inputs"]
