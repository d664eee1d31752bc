"""Score an evidence file against a scenario file: `provebench si score` without the CLI.

A scenario file may hold several YAML documents (Scenarios §1). The scenario to score is the one
named by `scenario_id`, or else the file's only Form B scenario; anything else is a one-line
configuration error that names the choices.
"""

from __future__ import annotations

from pathlib import Path

from provebench._canonical import sha256_file
from provebench._errors import ProvebenchError
from provebench.evidence import load_evidence_with_digest
from provebench.si.scenario._scenario import Scenario
from provebench.si.scenario._validate import load_scenarios
from provebench.si.scoring._evaluate import evaluate
from provebench.si.scoring._verdict import InputHashes, Verdict

# Evidence artifacts shipped for the Form B diagnosis scenario; each is pinned to its band by a
# test and documented in docs/si-scoring.md.
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


def example_evidence() -> list[Path]:
    """The shipped example evidence files, sorted by name."""
    return sorted(EXAMPLES_DIR.glob("*.json"))


def select_scenario(scenarios: list[Scenario], scenario_id: str | None, *, path: str) -> Scenario:
    """The scenario to score from the scenarios of one file."""
    if scenario_id is not None:
        chosen = [scenario for scenario in scenarios if scenario.id == scenario_id]
        if not chosen:
            known = ", ".join(scenario.id for scenario in scenarios)
            raise ProvebenchError(
                f"no scenario with id {scenario_id!r}; the file holds: {known}",
                path=path,
                field="--scenario-id",
            )
        if chosen[0].form != "B":
            raise ProvebenchError(
                f"scenario {scenario_id} uses Form A scoring (scoring.type); only Form B "
                "(archetype_template or decision_table) can be scored from evidence",
                path=path,
                field="scoring",
            )
        return chosen[0]
    form_b = [scenario for scenario in scenarios if scenario.form == "B"]
    if len(form_b) == 1:
        return form_b[0]
    if not form_b:
        raise ProvebenchError(
            f"holds {len(scenarios)} scenario(s) and none uses Form B scoring; nothing to score",
            path=path,
        )
    ids = ", ".join(scenario.id for scenario in form_b)
    raise ProvebenchError(
        f"holds {len(form_b)} Form B scenarios ({ids}); choose one with --scenario-id",
        path=path,
    )


def score_files(
    scenario_path: str | Path,
    evidence_path: str | Path,
    *,
    scenario_id: str | None = None,
    window: str | None = None,
) -> Verdict:
    """Load, select, evaluate; the verdict carries the sha256 of both files."""
    scenario = select_scenario(load_scenarios(scenario_path), scenario_id, path=str(scenario_path))
    evidence, evidence_sha256 = load_evidence_with_digest(evidence_path)
    if evidence.scenario_id is not None and evidence.scenario_id != scenario.id:
        raise ProvebenchError(
            f"evidence was recorded for scenario {evidence.scenario_id!r}, not {scenario.id!r}",
            path=str(evidence_path),
            field="scenario_id",
        )
    inputs = InputHashes(
        scenario_file_sha256=sha256_file(scenario_path),
        evidence_file_sha256=evidence_sha256,
    )
    return evaluate(scenario, evidence, window=window, inputs=inputs)


__all__ = ["EXAMPLES_DIR", "example_evidence", "score_files", "select_scenario"]
