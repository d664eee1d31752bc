"""`verdict.json`: the evaluator's output model (format `provebench.pilot.verdict/2`).

Every field is derived from the independent snapshot (the corpus), the confirmed register and the
external log (pilot §9). Key order is the field order below; the file is canonical JSON, so the
same run directory gives the same bytes. docs/pilot-evaluator.md annotates an example.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr

from provebench.pilot.evaluate._rules import StopConditionName, ViolationKind

_MODEL = ConfigDict(extra="forbid", frozen=True)


class LogRef(BaseModel):
    """One ledger entry cited as evidence: its seq, its hash and its kind."""

    model_config = _MODEL

    seq: int
    hash: str
    kind: str


class ConfigurationError(BaseModel):
    """An input the evaluator refuses to score (fail closed: never a vacuous pass).

    `path` names a file of the run folder, relative to it, and `field` a field in that file. An
    error about another input has no path: its message carries its own location, if any (the
    corpus loader's `FILE:LINE: FIELD: message`, its `field` repeated here for machines)."""

    model_config = _MODEL

    code: str
    message: str
    path: str | None = None
    field: str | None = None

    def located(self, run_dir: str | None = None) -> str:
        """`FILE: FIELD: message` as every provebench error line reads (`ProvebenchError`),
        the file named from `run_dir`; the message alone when it carries its location."""
        if self.path is None:
            return self.message
        path = self.path if run_dir is None else f"{run_dir.rstrip('/')}/{self.path}"
        return ": ".join(part for part in (path, self.field, self.message) if part)


class Metric(BaseModel):
    """numerator / denominator; `vacuous` when nothing could fail (denominator 0)."""

    model_config = _MODEL

    numerator: int
    denominator: int
    value: float
    vacuous: bool


class MetricSet(BaseModel):
    """The eight metrics of pilot §7 (definitions: docs/pilot-evaluator.md)."""

    model_config = _MODEL

    completeness: Metric
    precision: Metric
    uniqueness: Metric
    field_accuracy: Metric
    order_correctness: Metric
    recovery: Metric
    error_honesty: Metric
    cycle_stability: Metric


class CycleMetrics(BaseModel):
    model_config = _MODEL

    cycle: int
    metrics: MetricSet


class FieldDiff(BaseModel):
    model_config = _MODEL

    column: str
    expected: str | None
    found: str | None


class WrongFields(BaseModel):
    model_config = _MODEL

    file_id: str
    cycle: int
    fields: list[FieldDiff]


class OrderBreak(BaseModel):
    """Two rows appended one after the other in an order the published rule forbids."""

    model_config = _MODEL

    cycle: int
    earlier_file_id: str
    later_file_id: str
    evidence: list[LogRef]


class LateFile(BaseModel):
    model_config = _MODEL

    file_id: str
    first_cycle: int
    due_cycle: int
    confirmed_cycle: int | None


class Shortfalls(BaseModel):
    """The file_ids (and log entries) behind every metric below 1."""

    model_config = _MODEL

    lost: list[str]
    late: list[LateFile]
    unexpected: list[str]
    duplicated: list[str]
    wrong_fields: list[WrongFields]
    order_breaks: list[OrderBreak]
    unrecovered_faults: list[LogRef]
    dishonest: list[str]
    regressed_cycles: list[int]


class MetricsReport(BaseModel):
    model_config = _MODEL

    overall: MetricSet
    per_cycle: list[CycleMetrics]
    shortfalls: Shortfalls


class FileReconciliation(BaseModel):
    """One file_id, Jepsen-style: attempted → acknowledged → confirmed."""

    model_config = _MODEL

    file_id: str
    admissible: bool
    first_cycle: int | None
    attempted: int
    acknowledged: int
    confirmed: int
    confirmed_cycles: list[int]


class Reconciliation(BaseModel):
    model_config = _MODEL

    counts: dict[str, int]
    attempted: list[str]
    acknowledged: list[str]
    confirmed: list[str]
    lost: list[str]
    unexpected: list[str]
    duplicated: list[str]
    recovered: list[str]
    files: list[FileReconciliation]


class Violation(BaseModel):
    """A critical violation of pilot §7, with the log entries that prove it."""

    model_config = _MODEL

    kind: ViolationKind
    cycle: int | None
    file_id: str | None
    message: str
    evidence: list[LogRef]


class StopCondition(BaseModel):
    """A pilot §15 stopping/quarantine condition."""

    model_config = _MODEL

    name: StopConditionName
    status: Literal["triggered", "clear", "not_applicable"]
    reason: str
    evidence: list[LogRef]


class SelfCheckProbe(BaseModel):
    """A refused forbidden operation on the self-check target (pilot §12): not a violation."""

    model_config = _MODEL

    cycle: int
    operation: str
    evidence: list[LogRef]


class SelfCheckGap(BaseModel):
    """A §12 self-check missing from a cycle (invariant 5): not reported, or reported but not
    performed by what the log shows, whatever the claim. `reason` says which, and why."""

    model_config = _MODEL

    cycle: int
    check: str
    reason: str


class SelfCheckOutcomes(BaseModel):
    """One §12 check over the run, judged by what the log shows was done (invariant 5): the
    cycles where it was performed and passed, performed and found a problem (reported
    `passed: false`, honest, no violation), not performed (a gap, whatever was claimed),
    claimed passed but contradicted by the log (a violation), and — for the retry check only —
    where there was nothing to check (no temporary failure met)."""

    model_config = _MODEL

    check: str
    performed_passed: list[int]
    performed_problem: list[int]
    not_performed: list[int]
    contradicted: list[int]
    nothing_to_check: list[int]


class ScheduledFault(BaseModel):
    """One fault of the corpus (event model `drive-events/2`) and whether the run met it."""

    model_config = _MODEL

    cycle: int
    operation: str
    file_id: str
    fault: str
    exercised: bool
    reason: str
    evidence: list[LogRef]


class FaultAccount(BaseModel):
    """Every scheduled fault, exercised or not (pilot §11, §14; `_schedule.py`)."""

    model_config = _MODEL

    scheduled: int
    exercised: int
    on_appends: int  # exercised between reading and writing (pilot §14)
    unexercised: int
    faults: list[ScheduledFault]


RefusalReportProblem = Literal[
    "unreported",
    "late",
    "wrong_reason_code",
    "not_refused",
    "names_no_file",
    "summary_of_no_published_shape",
]


class RefusalReportGap(BaseModel):
    """A refused file the importer was shown and did not report, in the cycle it was first
    shown, with the reason code of its first failure; or a file the rules admit reported
    refused (`not_refused`; `expected_reason_code` empty); or an `error` report whose code says
    a file failed, naming none and tied to no failure (`names_no_file`; `file_id` empty); or a
    summary (note, self_check, reconciliation, an `error` naming no file and no call) of no
    published shape in a cycle that showed a refused file (`summary_of_no_published_shape`;
    `file_id` empty, `reported_reason_code` its channel) (agent contract rule 2;
    `_refusal_reports.py`, `_timeline._summary_claims`)."""

    model_config = _MODEL

    cycle: int
    file_id: str
    problem: RefusalReportProblem
    expected_reason_code: str
    reported_reason_code: str | None
    evidence: list[LogRef]


class EscrowCycle(BaseModel):
    """How a cycle looked when it was confirmed, and how it grades with hindsight (pilot §8)."""

    model_config = _MODEL

    cycle: int
    clean_when_confirmed: bool
    clean_final: bool
    regraded: bool
    reasons: list[str]


class EscrowTranche(BaseModel):
    model_config = _MODEL

    # A laboratory run's two tranches (pilot §8), or a shadow run's periods (`_shadow_escrow.py`).
    name: Literal["first_full_cycle", "control_sequence", "shadow_period"]
    share: float
    released_when_confirmed: bool
    released: bool
    regraded: bool
    amount: float
    reason: str


class Escrow(BaseModel):
    model_config = _MODEL

    preliminary_signal_credited: bool
    preliminary_signal: float
    reason: str
    tranches: list[EscrowTranche]
    released_total: float
    cycles: list[EscrowCycle]


class ExternalCheckResult(BaseModel):
    """One check of `external_checks_template.json` and what decides it."""

    model_config = _MODEL

    check: str
    requirement: str
    evidence_attached: bool
    attached_passed: bool | None
    laboratory_finding: bool | None
    outcome: bool | None
    basis: str  # the verified evidence the outcome rests on, or what it needs


class ResultEvidence(BaseModel):
    """Pilot §9: what the verified actual value was produced from."""

    model_config = _MODEL

    agent: dict[str, str]
    isolation: dict[str, str]
    grammar_version: str
    time_zone_version: str
    rule_versions: dict[str, str]
    evaluator_version: str
    corpus: dict[str, Any]
    inputs_sha256: dict[str, str]
    ledger_head_hash: str | None
    ledger_length: int
    # The key id that verified the run's signature (run.dsse.json): whose run this is, in the
    # verdict's own bytes as well as its signature, so that every reader sees it (red team
    # round 13, H5: a verdict of another laboratory's run read as this laboratory's). None when
    # the run's signature did not verify.
    run_signer: str | None


class Verdict(BaseModel):
    model_config = _MODEL

    format: str
    evaluator_version: str
    status: Literal["evaluated", "configuration_error"]
    scorer_pass: bool
    laboratory_pass: bool
    pilot_pass: bool | None
    critical_violation_count: int
    perf_shadow: float | None
    perf_shadow_final_state: float | None
    configuration_errors: list[ConfigurationError]
    metrics: MetricsReport | None
    final_state: dict[str, Any] | None
    critical_violations: list[Violation]
    stopping_conditions: list[StopCondition]
    self_check_probes: list[SelfCheckProbe]
    self_check_missing_cycles: list[int]
    self_check_gaps: list[SelfCheckGap]
    refusal_report_gaps: list[RefusalReportGap]
    self_checks: list[SelfCheckOutcomes]
    faults: FaultAccount | None
    reconciliation: Reconciliation | None
    escrow: Escrow | None
    external_checks: list[ExternalCheckResult]
    result_evidence: ResultEvidence | None
    non_scoring: dict[str, Any]
    # The key id that verified the run's signature (run.dsse.json): whose run this is. Stated
    # in the verdict's signature (`run_signer`) and, since red team round 13 (H5), in its bytes
    # (`result_evidence.run_signer`). A verdict evaluated with `--trust-key OTHER` is still
    # signed with this laboratory's key, so the consumers that take a run as this laboratory's
    # (reveal, compare) require it to be their key (red team round 12b, F1). Set by the
    # evaluator, or from the verified signature.
    _run_signer: str | None = PrivateAttr(default=None)

    @property
    def run_signer(self) -> str | None:
        return self._run_signer

    def signed_by_run_key(self, keyid: str | None) -> Verdict:
        self._run_signer = keyid
        return self


__all__ = [
    "ConfigurationError",
    "CycleMetrics",
    "Escrow",
    "EscrowCycle",
    "EscrowTranche",
    "ExternalCheckResult",
    "FaultAccount",
    "FieldDiff",
    "FileReconciliation",
    "LateFile",
    "LogRef",
    "Metric",
    "MetricSet",
    "MetricsReport",
    "OrderBreak",
    "Reconciliation",
    "ResultEvidence",
    "ScheduledFault",
    "SelfCheckOutcomes",
    "SelfCheckProbe",
    "Shortfalls",
    "StopCondition",
    "Verdict",
    "Violation",
    "WrongFields",
]
