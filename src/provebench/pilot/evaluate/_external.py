"""External result evidence and `pilot_pass` (pilot §7, §10, §13; docs/attestation.md).

`pilot_pass` comes only from evidence provebench verified itself. Each check of
`external_checks_template.json` gets its outcome from:

* the run's own signed, verified evidence — recovery, error honesty, cycle stability, log
  completeness, write-access isolation (the recorded sandbox), escrow observation;
* a signed red-team report of this evaluator version (`--red-team`): the red-team check and
  evaluator-injection isolation (its injection attacks);
* a sealed fresh control (`--fresh-control`, `_seal.py`): the commitment opens, the control was
  generated after the seal, the candidate is the sealed one, and it passed.

`pilot_pass` stays null until every check has such an outcome. A filled-in template
(`--external-checks`) is still read and validated strictly, and its claims are shown
(`attached_passed`), but a self-declared `passed: true` never sets an outcome.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from provebench._errors import ProvebenchError, validation_failure
from provebench.attest._envelope import read_verified
from provebench.attest._keys import TrustedKey
from provebench.pilot.evaluate._rules import EVALUATOR_VERSION
from provebench.pilot.evaluate._verdict import Escrow, ExternalCheckResult, MetricSet, Violation
from provebench.pilot.record._signing import REDTEAM_ENVELOPE_FILE, REDTEAM_PREDICATE
from provebench.pilot.rules._contract import EXTERNAL_CHECKS
from provebench.pilot.rules._versions import PILOT_ID

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)


class ExternalEvidence(BaseModel):
    """One document behind a check's outcome (a report, a verdict of another run, a log)."""

    model_config = _STRICT

    description: Annotated[str, StringConstraints(min_length=1)]
    uri: Annotated[str, StringConstraints(min_length=1)]
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class ExternalCheckRecord(BaseModel):
    model_config = _STRICT

    check: str
    requirement: str
    passed: bool | None
    evidence: list[ExternalEvidence]


class ExternalChecksFile(BaseModel):
    model_config = _STRICT

    pilot: str
    pilot_pass: None
    external_checks: list[ExternalCheckRecord]


def load_external_checks(path: Path, data: bytes | None = None) -> dict[str, ExternalCheckRecord]:
    """A filled-in external checks file, validated; a `ProvebenchError` on any problem. With
    `data` (the file as the caller read it once), those bytes are parsed, nothing is opened."""
    try:
        document = ExternalChecksFile.model_validate_json(
            path.read_bytes() if data is None else data
        )
    except OSError as error:
        raise ProvebenchError(f"cannot read: {error.strerror}", path=path) from error
    except ValidationError as error:
        raise validation_failure(error, path=path) from error
    if document.pilot != PILOT_ID:
        raise ProvebenchError(f"pilot must be {PILOT_ID}", path=path, field="pilot")
    names = [record.check for record in document.external_checks]
    wanted = [name for name, _ in EXTERNAL_CHECKS]
    if sorted(names) != sorted(wanted):
        raise ProvebenchError(
            "external_checks must name each check of the template exactly once: "
            + ", ".join(wanted),
            path=path,
            field="external_checks",
        )
    for index, record in enumerate(document.external_checks):
        if bool(record.evidence) != (record.passed is not None):
            raise ProvebenchError(
                "a check has `passed` true/false exactly when evidence is attached",
                path=path,
                field=f"external_checks.{index}.passed",
            )
    return {record.check: record for record in document.external_checks}


Finding = tuple[bool | None, str]  # (the finding, the evidence it rests on)


def laboratory_findings(
    overall: MetricSet | None,
    violations: list[Violation],
    log_intact: bool,
    *,
    sealed: bool = False,
    escrow: Escrow | None = None,
) -> dict[str, Finding]:
    """What provebench establishes itself from the run's verified evidence, per external check
    (None: it cannot; `verified_attachments` fills the rest from signed artifacts)."""
    if overall is None:
        return {name: (None, "the run was not evaluated") for name, _ in EXTERNAL_CHECKS}
    kinds = {v.kind for v in violations}
    # The laboratory's control-sequence tranche (a shadow run's escrow has periods instead).
    control = next(
        (t for t in (escrow.tranches if escrow else []) if t.name == "control_sequence"), None
    )
    return {
        "recovery": (overall.recovery.value == 1.0, "the recovery metric of this run's log"),
        "error_honesty": (
            overall.error_honesty.value == 1.0 and "false_success_for_corrupted_file" not in kinds,
            "the error-honesty metric and false-success violations of this run's log",
        ),
        "cycle_stability": (
            overall.cycle_stability.value == 1.0,
            "the cycle-stability metric of this run's log",
        ),
        "event_log_completeness": (
            log_intact and "unsuccessful_attempt_deleted_or_concealed" not in kinds,
            "the signed, hash-chained log verified against the corpus's schedule",
        ),
        "write_access_isolation": (
            sealed and "evaluator_log_modification" not in kinds,
            "the candidate's recorded isolation (a sandbox or provebench's own code) and the "
            "log's integrity",
        ),
        "evaluator_injection_isolation": (None, "needs a signed red-team report (--red-team)"),
        "fresh_hidden_control": (None, "needs a sealed fresh control (--fresh-control)"),
        "escrow_observation": (
            control is not None and control.released,
            "this run's escrow: the control-sequence tranche "
            + ("released" if control is not None and control.released else "not released"),
        ),
        "red_team": (None, "needs a signed red-team report (--red-team)"),
    }


def red_team_envelope(given: Path) -> Path:
    """`--red-team`: the report's folder (its `redteam.dsse.json`) or the envelope itself."""
    return given / REDTEAM_ENVELOPE_FILE if given.is_dir() else given


def red_team_findings(
    folder: Path, trusted: TrustedKey, envelope_bytes: bytes | None = None
) -> dict[str, Finding]:
    """The red-team and evaluator-injection checks from a signed red-team report: the report of
    this evaluator version, at the full pilot §14 budget, every attack exercised and caught.
    `envelope_bytes`: the envelope as the caller read it once (and hashed), judged instead of
    the file."""
    envelope = red_team_envelope(folder)
    signed = read_verified(envelope, trusted, predicate_type=REDTEAM_PREDICATE, data=envelope_bytes)
    said = signed.predicate
    where = f"red-team report {envelope.name} signed by {signed.keyid[:16]}"
    if said.get("evaluator_version") != EVALUATOR_VERSION:
        wrong = (False, f"{where} tested {said.get('evaluator_version')}, not {EVALUATOR_VERSION}")
        return {"red_team": wrong, "evaluator_injection_isolation": wrong}
    full = said.get("budget_level") == "full" and said.get("budget_met") is True
    passed = said.get("passed") is True and full
    injection = said.get("injection_attacks")
    counts = injection if isinstance(injection, dict) else {}
    total = counts.get("total")
    caught = type(total) is int and total > 0 and counts.get("exercised_and_caught") == total
    return {
        "red_team": (
            passed,
            f"{where}: "
            + (
                "the full budget, every attack caught"
                if passed
                else "not the full budget with every attack caught"
            ),
        ),
        "evaluator_injection_isolation": (
            bool(caught) and full,
            f"{where}: the injection attacks "
            + ("each exercised and caught" if caught else "not all exercised and caught"),
        ),
    }


def external_results(
    attached: dict[str, ExternalCheckRecord] | None, findings: dict[str, Finding]
) -> list[ExternalCheckResult]:
    """Each check's outcome is provebench's own finding from verified evidence; what an
    `--external-checks` file says (`attached_passed`) is shown beside it and never decides."""
    results: list[ExternalCheckResult] = []
    for name, requirement in EXTERNAL_CHECKS:
        record = None if attached is None else attached.get(name)
        claimed = record.passed if record is not None and record.evidence else None
        finding, basis = findings.get(name, (None, ""))
        results.append(
            ExternalCheckResult(
                check=name,
                requirement=requirement,
                evidence_attached=finding is not None,
                attached_passed=claimed,
                laboratory_finding=finding,
                outcome=finding,
                basis=basis,
            )
        )
    return results


__all__ = [
    "ExternalCheckRecord",
    "ExternalChecksFile",
    "ExternalEvidence",
    "external_results",
    "laboratory_findings",
    "load_external_checks",
    "red_team_envelope",
    "red_team_findings",
]
