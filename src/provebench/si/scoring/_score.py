"""Score an evidence file against a scenario file: `provebench si score` without the CLI.

A scenario file may hold several YAML documents (Scenarios §1). The scenario to score is the one
named by `scenario_id`, else the one the evidence was recorded for, else the file's only scenario
(or only Form B scenario); anything else is a one-line configuration error naming the choices.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from provebench._canonical import sha256_file
from provebench._errors import ProvebenchError
from provebench.evidence import Evidence, load_evidence_with_digest
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring._audit_accounting import accounted
from provebench.si.scoring._evaluate import evaluate
from provebench.si.scoring._strict import Reading
from provebench.si.scoring._verdict import InputHashes, Verdict

if TYPE_CHECKING:
    from provebench.si.profile_data._readings import ReadingBook
    from provebench.si.scoring._safety import ScenarioVerdict

# Evidence artifacts shipped for the Form B diagnosis scenario; each is pinned to its band by a
# test and documented in docs/si-scoring.md.
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


def example_evidence() -> list[Path]:
    """The shipped example evidence files, sorted by name."""
    return sorted(EXAMPLES_DIR.glob("*.json"))


def select_scenario(
    scenarios: list[Scenario],
    scenario_id: str | None,
    *,
    path: str,
    recorded_for: str | None = None,
    form_b_only: bool = False,
) -> Scenario:
    """The scenario to use from the scenarios of one file: the one ``--scenario-id`` names,
    else the one the evidence was recorded for, else the file's only scenario (or only Form B
    scenario). ``form_b_only`` is for `si check`, which proves Form B answer keys."""
    if scenario_id is not None:
        chosen = [scenario for scenario in scenarios if scenario.id == scenario_id]
        if not chosen:
            known = ", ".join(scenario.id for scenario in scenarios)
            raise ProvebenchError(
                f"no scenario with id {scenario_id!r}; the file holds: {known}",
                path=path,
                field="--scenario-id",
            )
        if form_b_only and chosen[0].form != "B":
            raise ProvebenchError(
                f"scenario {scenario_id} uses Form A scoring (scoring.type); only a Form B "
                "scenario (archetype_template or decision_table) has an answer key to prove",
                path=path,
                field="scoring",
            )
        return chosen[0]
    candidates = [s for s in scenarios if s.form == "B"] if form_b_only else list(scenarios)
    if form_b_only and not candidates:
        raise ProvebenchError(
            f"holds {len(scenarios)} scenario(s) and none uses Form B scoring; nothing to prove",
            path=path,
        )
    if recorded_for is not None:
        recorded = [s for s in candidates if s.id == recorded_for]
        if recorded:
            return recorded[0]
    if len(candidates) == 1:
        return candidates[0]
    form_b = [s for s in candidates if s.form == "B"]
    if len(form_b) == 1 and not form_b_only:
        return form_b[0]
    ids = ", ".join(scenario.id for scenario in candidates)
    raise ProvebenchError(
        f"holds {len(candidates)} scenarios ({ids}); choose one with --scenario-id",
        path=path,
    )


def score_scenario(
    scenario: Scenario,
    evidence: Evidence,
    *,
    window: str | None = None,
    readings: ReadingBook | None = None,
    inputs: InputHashes | None = None,
    reading: Reading = "ratified",
    require_diagnosis: bool = False,
) -> Verdict | ScenarioVerdict:
    """The verdict of any scenario: a Form B decision table (SI §5), a safety scenario's
    status (Core §3.3), or a Form A capability score (Scenarios §1.7). `reading` chooses which
    reading of a Form B table gives band and score (docs/si-scoring.md). An artifact whose
    provider's audit log does not account for its own actions is a provider failure
    (`_audit_accounting`)."""
    evidence = accounted(evidence)
    if scenario.form == "B":
        return evaluate(
            scenario,
            evidence,
            window=window,
            inputs=inputs,
            reading=reading,
            require_diagnosis=require_diagnosis,
        )
    # Imported here: a Form B score (`si score`'s common case) does not pay for them.
    from provebench.si.scoring._form_a import evaluate_form_a
    from provebench.si.scoring._safety import evaluate_safety

    if scenario.classification == "safety":
        return evaluate_safety(scenario, evidence, readings=readings, inputs=inputs)
    return evaluate_form_a(scenario, evidence, readings=readings, inputs=inputs)


def score_files(
    scenario_path: str | Path,
    evidence_path: str | Path,
    *,
    scenario_id: str | None = None,
    window: str | None = None,
    readings: ReadingBook | None = None,
    reading: Reading = "ratified",
    require_diagnosis: bool = False,
) -> Verdict | ScenarioVerdict:
    """Load, select, evaluate; the verdict carries the sha256 of both files."""
    evidence, evidence_sha256 = load_evidence_with_digest(evidence_path)
    scenario = select_scenario(
        load_scenarios(scenario_path),
        scenario_id,
        path=str(scenario_path),
        recorded_for=evidence.scenario_id,
    )
    if evidence.scenario_id is not None and evidence.scenario_id != scenario.id:
        raise ProvebenchError(
            f"evidence was recorded for scenario {evidence.scenario_id!r}, not {scenario.id!r}",
            path=str(evidence_path),
            field="scenario_id",
        )
    inputs = InputHashes(
        # the bytes parsed, not a second read (a file swapped in between is named as it was read)
        scenario_file_sha256=scenario.source_sha256 or sha256_file(scenario_path),
        evidence_file_sha256=evidence_sha256,
    )
    try:
        return score_scenario(
            scenario,
            evidence,
            window=window,
            readings=readings,
            inputs=inputs,
            reading=reading,
            require_diagnosis=require_diagnosis,
        )
    except ProvebenchError as error:
        if error.path is None and (error.field or "").startswith("diagnosis"):
            # a diagnosis outside the profile's vocabulary: name the evidence file
            raise ProvebenchError(
                error.message, path=str(evidence_path), field=error.field
            ) from None
        raise


__all__ = ["EXAMPLES_DIR", "example_evidence", "score_files", "score_scenario", "select_scenario"]
