"""The SI laboratory: a simulated, Kubernetes-like estate built from a scenario (SI §5.1).

`Session` runs one scenario (its tools, its recording); `check_counterfactual` proves a Form B
scenario's answer key against the simulator before it is used. Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si.sim._check import CheckResult, CounterfactualReport, check_counterfactual
    from provebench.si.sim._derive import Observation, observe
    from provebench.si.sim._estate import Estate
    from provebench.si.sim._inject import Scene, apply_deviations, build_scene, delta, restore
    from provebench.si.sim._session import Session
    from provebench.si.sim._tools import ToolResponse, ToolSpec, UnparsedArguments

_EXPORTS: dict[str, str] = {
    "CheckResult": "provebench.si.sim._check",
    "CounterfactualReport": "provebench.si.sim._check",
    "check_counterfactual": "provebench.si.sim._check",
    "Observation": "provebench.si.sim._derive",
    "observe": "provebench.si.sim._derive",
    "Estate": "provebench.si.sim._estate",
    "Scene": "provebench.si.sim._inject",
    "apply_deviations": "provebench.si.sim._inject",
    "build_scene": "provebench.si.sim._inject",
    "delta": "provebench.si.sim._inject",
    "restore": "provebench.si.sim._inject",
    "Session": "provebench.si.sim._session",
    "ToolResponse": "provebench.si.sim._tools",
    "ToolSpec": "provebench.si.sim._tools",
    "UnparsedArguments": "provebench.si.sim._tools",
}

__all__ = [
    "CheckResult",
    "CounterfactualReport",
    "Estate",
    "Observation",
    "Scene",
    "Session",
    "ToolResponse",
    "ToolSpec",
    "UnparsedArguments",
    "apply_deviations",
    "build_scene",
    "check_counterfactual",
    "delta",
    "observe",
    "restore",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
