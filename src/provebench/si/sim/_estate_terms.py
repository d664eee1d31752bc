"""Terms both estates share, kept apart from either so that each may read them without reading
the other (the physical estate's model imports no module of the declared estate's, which names
its pods by the physical estate's rule: one direction only, no import cycle)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

# The annotation under which a Kubernetes-shaped object carries what a scenario only declared
# (docs/si-lab.md, "Declared observations"): reserved, never an agent's to write.
DECLARED_ANNOTATION: Final = "provebench.dev/declared"

# The largest replica count a write may set, in either estate and through any tool (a scale, or
# a patch, apply or create that sets replicas: `_replicas_problem`): the one bound both estates
# hold a deployment to, so a scale one performs the other performs too.
SCALE_MAXIMUM: Final = 100000

# The replica count of a workload whose state entry or create names none, as Kubernetes defaults
# ``spec.replicas``. Both estates write it into the object they hold, so the state they report
# (snapshots, `state_diff`) shows the count they run (red team SB-41, N2: a deployment restated
# with no ``replicas`` ran one pod and showed no count, before or after).
DEFAULT_REPLICAS: Final = 1


# The status words a scenario declares of a workload whose pods a real cluster lists READY 0/N:
# a container waiting (a crash loop, an image or config it cannot get, a pod not yet placed) or
# killed (``OOMKilled``, ``Error``). While such a word holds (`Estate.written`), the workload's
# containers count as not ready, so a service that selects only them has no endpoints, as
# Kubernetes' endpoints controller publishes ready pods only (docs/si-lab.md, "A bare
# deployment"). Casefolded. A word that says the workload serves, if badly (``degraded``,
# ``elevated_error_rate``, ``rolling_update_in_progress``), leaves its pods ready.
NOT_READY_WORDS: Final = frozenset(
    {
        "crashloopbackoff",
        "oomkilled",
        "error",
        "failed",
        "pending",
        "imagepullbackoff",
        "errimagepull",
        "createcontainerconfigerror",
        "containercreating",
        "unready",
        "unavailable",
    }
)


def is_metric_figure(field: str) -> bool:
    """Whether a declared field is a figure `metrics_query` answers (``cpu_usage``,
    ``memory_usage``, ``memory_pressure`` …): a usage, memory or CPU figure."""
    return "usage" in field or "memory" in field or "cpu" in field


def appended_logs(before: Mapping[str, Any] | None, record: Mapping[str, Any]) -> dict[str, Any]:
    """The declared observation ``record`` placed over ``before`` (the one held at its key, or
    None): a ``logs/…`` record's lines follow the lines already held — the provider guide §1.4
    has a stimulus "write specific log content to a pod's stdout/stderr stream", and a stream
    written to keeps what it carried, as a stimulus's injected line is appended in process
    (`si.sim._stimuli`); any other record replaces ``before`` whole."""
    placed = dict(record)
    if placed.get("kind") != "logs" or before is None:
        return placed
    earlier, later = before.get("entries"), placed.get("entries")
    if isinstance(earlier, list) and isinstance(later, list):
        placed["entries"] = [*earlier, *later]
    return placed


__all__ = [
    "DECLARED_ANNOTATION",
    "DEFAULT_REPLICAS",
    "NOT_READY_WORDS",
    "SCALE_MAXIMUM",
    "appended_logs",
    "is_metric_figure",
]
