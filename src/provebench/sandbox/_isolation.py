"""How a candidate was isolated: recorded in the run's identity (hash-chained in the log) and
carried into every verdict.

* `{"mode": "sandbox", "tool": "bubblewrap", "version": …, "policy_sha256": …}` — the candidate
  ran in the sandbox of that policy (docs/sandbox.md);
* `{"mode": "trusted-shipped"}` — one of provebench's own agents (the reference, the no-op, the
  red team's defective importers, the scripted SI agents), chosen by provebench from the agent
  spec, never by an option;
* `{"mode": "none", "reason": …}` — a candidate provebench did not start (`pilot serve`'s HTTP
  client). Its run evaluates, but it can never reach `laboratory_pass` or escrow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Isolation = dict[str, str]

SHIPPED: Isolation = {"mode": "trusted-shipped"}
UNSANDBOXED_MCP: Isolation = {
    "mode": "none",
    "reason": "an MCP client: provebench did not start the agent and cannot seal it",
}
UNSANDBOXED_SERVED: Isolation = {
    "mode": "none",
    "reason": "served over HTTP: provebench did not start the importer and cannot seal it",
}


def sandboxed(version: str, policy_sha256: str) -> Isolation:
    return {
        "mode": "sandbox",
        "tool": "bubblewrap",
        "version": version,
        "policy_sha256": policy_sha256,
    }


def isolation_of(policy_sha256: str) -> Isolation:
    """The record of a launch under the policy with that digest, by the checked bubblewrap."""
    from provebench.sandbox._tool import bwrap_tool

    return sandboxed(bwrap_tool().version, policy_sha256)


def is_sandboxed(isolation: Mapping[str, Any] | None) -> bool:
    """Whether `isolation` says the candidate was sealed: a sandbox, or provebench's own code."""
    if not isinstance(isolation, Mapping):
        return False
    mode = isolation.get("mode")
    if mode == "trusted-shipped":
        return True
    return (
        mode == "sandbox"
        and isolation.get("tool") == "bubblewrap"
        and isinstance(isolation.get("policy_sha256"), str)
        and len(isolation["policy_sha256"]) == 64
    )


__all__ = [
    "SHIPPED",
    "UNSANDBOXED_MCP",
    "UNSANDBOXED_SERVED",
    "Isolation",
    "is_sandboxed",
    "isolation_of",
    "sandboxed",
]
