"""Matrix runs: many independent jobs — agents × cases × trials — on a local process pool or a
Dask cluster, resumable, each job's record signed, one deterministic summary with pass^k
(docs/matrix.md). It knows nothing of the pilot or the SI profile: each brings its jobs.

Names are imported on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.matrix._engine import MatrixRequest, run_matrix
    from provebench.matrix._executors import LOCAL_CLUSTER, DaskExecutor, LocalPool, executor_for
    from provebench.matrix._jobs import JobResult, JobSpec, execute_job
    from provebench.matrix._passk import pass_hat_curve, pass_hat_k, task_pass_hat
    from provebench.matrix._progress import QuietProgress, StderrProgress

_EXPORTS = {
    "LOCAL_CLUSTER": "provebench.matrix._executors",
    "DaskExecutor": "provebench.matrix._executors",
    "JobResult": "provebench.matrix._jobs",
    "JobSpec": "provebench.matrix._jobs",
    "LocalPool": "provebench.matrix._executors",
    "MatrixRequest": "provebench.matrix._engine",
    "QuietProgress": "provebench.matrix._progress",
    "StderrProgress": "provebench.matrix._progress",
    "execute_job": "provebench.matrix._jobs",
    "executor_for": "provebench.matrix._executors",
    "pass_hat_curve": "provebench.matrix._passk",
    "pass_hat_k": "provebench.matrix._passk",
    "run_matrix": "provebench.matrix._engine",
    "task_pass_hat": "provebench.matrix._passk",
}
__all__ = [
    "LOCAL_CLUSTER",
    "DaskExecutor",
    "JobResult",
    "JobSpec",
    "LocalPool",
    "MatrixRequest",
    "QuietProgress",
    "StderrProgress",
    "execute_job",
    "executor_for",
    "pass_hat_curve",
    "pass_hat_k",
    "run_matrix",
    "task_pass_hat",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
