"""The pilot 03 evaluator: `evaluate_run(RUNDIR, CORPUS)` → `Verdict` (docs/pilot-evaluator.md)."""

from provebench.pilot.evaluate._core import evaluate_run, exit_code, write_verdict
from provebench.pilot.evaluate._external import (
    ExternalCheckRecord,
    ExternalChecksFile,
    ExternalEvidence,
    load_external_checks,
)
from provebench.pilot.evaluate._rules import (
    DUE_WITHIN_CYCLES,
    EVALUATOR_VERSION,
    SELF_CHECK_PROBE_FILE_ID,
    VERDICT_FILE,
    VERDICT_FORMAT,
)
from provebench.pilot.evaluate._verdict import (
    ConfigurationError,
    Escrow,
    LogRef,
    Metric,
    MetricSet,
    Reconciliation,
    StopCondition,
    Verdict,
    Violation,
)

__all__ = [
    "DUE_WITHIN_CYCLES",
    "EVALUATOR_VERSION",
    "SELF_CHECK_PROBE_FILE_ID",
    "VERDICT_FILE",
    "VERDICT_FORMAT",
    "ConfigurationError",
    "Escrow",
    "ExternalCheckRecord",
    "ExternalChecksFile",
    "ExternalEvidence",
    "LogRef",
    "Metric",
    "MetricSet",
    "Reconciliation",
    "StopCondition",
    "Verdict",
    "Violation",
    "evaluate_run",
    "exit_code",
    "load_external_checks",
    "write_verdict",
]
