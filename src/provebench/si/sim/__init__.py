"""The SI laboratory: a simulated, Kubernetes-like estate built from a scenario (SI §5.1)."""

from __future__ import annotations

__all__: list[str] = []
