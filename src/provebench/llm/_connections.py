"""The record of the connections a model client tried (llm/_pinned.py writes it; the pilot's
run puts it in each cycle's transcript note, docs/llm-agents.md "Who runs the model"). Apart
from the pinning itself so that the loop can hold one without importing the sandbox's modules.
"""

from __future__ import annotations

# A cycle's record of connections stays small whatever the client does (its retries, a server
# that closes every connection): the first ones are kept, and how many more were made.
MAX_RECORDED_CONNECTIONS = 256
PINNED = "pinned to the judged addresses"
PINNED_AND_PEER = "pinned to the judged addresses; the peer checked not this machine"


class ConnectionLog:
    """The connections a pinned client tried, in order: each a JSON object with `host`, `port`,
    `judged` (the endpoint's reach), `checked` (what was checked of it), `address` (where it
    connected; null when nothing was), `outcome` (`connected`, `unreachable`, `refused`) and
    `reason` (a refusal's; null otherwise)."""

    def __init__(self) -> None:
        self.entries: list[dict[str, object]] = []
        self.omitted = 0

    def add(self, entry: dict[str, object]) -> None:
        if len(self.entries) < MAX_RECORDED_CONNECTIONS:
            self.entries.append(entry)
        else:
            self.omitted += 1


__all__ = ["MAX_RECORDED_CONNECTIONS", "PINNED", "PINNED_AND_PEER", "ConnectionLog"]
