"""Scenario models against real files: the 50 OASIS scenarios and the shipped Form B scenario."""

from __future__ import annotations

from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench._yaml import load_yaml_file, load_yaml_text
from provebench.si import BoundFactor, FormBScoring, Scenario, bind_scoring
from provebench.si.scenario import load_scenarios, validate_paths
from tests.helpers.si_scenarios import FORM_A_CAPABILITY, FORM_B, line_of, replaced

REPO = Path(__file__).resolve().parents[3]
OASIS_SCENARIOS = REPO.parent / "shared/oasis/profiles/software-infrastructure/scenarios"
SHIPPED = REPO / "src/provebench/si/scenarios/diagnostic-accuracy.yaml"


def oasis_files() -> list[Path]:
    if not OASIS_SCENARIOS.is_dir():
        pytest.skip(f"OASIS reference scenarios not found at {OASIS_SCENARIOS}")
    return sorted(OASIS_SCENARIOS.rglob("*.yaml"))


def test_every_oasis_scenario_loads() -> None:
    scenarios = load_scenarios(*oasis_files())
    assert len(scenarios) == 50
    assert len({s.id for s in scenarios}) == 50
    assert {s.form for s in scenarios} == {"A"}
    by_class = {c: sum(s.classification == c for s in scenarios) for c in ("safety", "capability")}
    assert by_class == {"safety": 21, "capability": 29}
    # The published files carry extra keys on assertion entries (tool_hint); they are kept.
    hints = [
        entry.model_extra["tool_hint"]
        for s in scenarios
        if s.assertions and s.assertions.must_not
        for entry in s.assertions.must_not
        if entry.model_extra and "tool_hint" in entry.model_extra
    ]
    assert len(hints) == 30


def test_oasis_scenarios_have_no_errors_only_documented_warnings() -> None:
    report = validate_paths(oasis_files())
    assert report.errors == 0
    # 29 capability scenarios without intent (recommended, Scenarios §1.1) and S-BE-003, whose
    # subcategory belongs to another category in the profile's table.
    assert report.warnings == 30
    assert {v.field for v in report.violations} == {"intent", "subcategory"}


def test_shipped_form_b_scenario_validates_clean() -> None:
    report = validate_paths([SHIPPED])
    assert report.violations == []
    assert report.scenarios == 1


def test_shipped_form_b_scenario_binds_to_c_da_001() -> None:
    (scenario,) = load_scenarios(SHIPPED)
    assert scenario.id == "infra.capability.da.single-signal-diagnosis-001"
    assert isinstance(scenario.scoring, FormBScoring)
    bound = bind_scoring(scenario)
    assert bound.template is not None and bound.template.id == "C-DA-001"
    assert bound.roles["step_budget"] == 15
    assert bound.roles["channels"] == ("agent_response",)
    assert bound.roles["exclude_tool_echo"] is True
    assert bound.roles["subsystem_set"] == (
        "smtp-config",
        "SMTP_HOST",
        "SMTP_PORT",
        "configMapKeyRef",
    )
    factor = bound.factor
    assert isinstance(factor, BoundFactor)
    assert (factor.ref, factor.required_identifiers) == ("f1", ("SMTP_PORT",))
    assert factor.deviation_type == "absent_key"
    assert factor.deviation.resource == "configmap/smtp-config"
    assert "doesn't exist" in factor.synonyms.phrases
    versions = bound.versions
    assert (versions.profile, versions.registry, versions.constants) == ("0.3.0-rc1", "v1", "1.0.0")
    assert (versions.template_id, versions.template_version) == ("C-DA-001", "1.0.0")
    assert versions.window == "same-sentence"
    assert versions.synonym_lists == {"absent_key": "v1"}
    assert bind_scoring(scenario, window="adjacent-sentence").window.sentence_radius == 1


def test_bound_arguments_resolve_roles_and_defaults() -> None:
    (scenario,) = load_scenarios(SHIPPED)
    bound = bind_scoring(scenario)
    row_two = bound.rows[1].when
    arguments = bound.arguments(row_two)  # type: ignore[arg-type]
    assert arguments["factor"] == bound.factor
    assert arguments["exclude_tool_echo"] is True


def test_local_table_binds_literal_factor(tmp_path: Path) -> None:
    table = (
        "  decision_table:\n    rows:\n"
        "      - id: 1\n"
        "        when: {call: factor_identified, with: {factor: {ref: f1, required_identifiers:"
        " [SMTP_PORT]}, channels: [agent_response]}}\n"
        "        band: correct_root_cause\n        score: 1.0\n"
        "      - {id: 2, when: otherwise, band: incorrect, score: 0.0}\n"
    )
    start = FORM_B.index("  archetype_template:")
    end = FORM_B.index("verification:")
    text = FORM_B[:start] + table + FORM_B[end:]
    path = tmp_path / "local.yaml"
    path.write_text(text, encoding="utf-8")
    (scenario,) = load_scenarios(path)
    bound = bind_scoring(scenario)
    assert bound.template is None and bound.versions.template_id is None
    arguments = bound.arguments(bound.rows[0].when)  # type: ignore[arg-type]
    assert isinstance(arguments["factor"], BoundFactor)
    assert arguments["factor"].deviation_type == "absent_key"
    assert arguments["exclude_tool_echo"] is False  # registry default (SI §2.1)


def test_bind_scoring_refuses_form_a_and_bad_bindings() -> None:
    form_a = Scenario.model_validate(load_yaml_text_data(FORM_A_CAPABILITY))
    with pytest.raises(ProvebenchError, match="Form A"):
        bind_scoring(form_a)
    broken = Scenario.model_validate(
        load_yaml_text_data(replaced(FORM_B, "    ref: f1\n", "    ref: nowhere\n"))
    )
    with pytest.raises(ProvebenchError) as caught:
        bind_scoring(broken)
    assert caught.value.field == "scoring.factor.ref"


def test_load_scenarios_raises_the_first_error_with_location(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    text = replaced(FORM_B, "  step_budget: 15\n", "  step_budget: 0\n")
    path.write_text(text, "utf-8")
    with pytest.raises(ProvebenchError) as caught:
        load_scenarios(path)
    assert (caught.value.path, caught.value.field) == (str(path), "scoring.step_budget")
    assert caught.value.line == line_of(text, "step_budget: 0")


def load_yaml_text_data(text: str) -> object:
    return load_yaml_text(text)[0].data


def test_shipped_file_keeps_its_attribution() -> None:
    header = SHIPPED.read_text(encoding="utf-8").split("---")[0]
    assert "CC BY 4.0" in header and "OASIS" in header
    assert load_yaml_file(SHIPPED)[0].start_line > 1
