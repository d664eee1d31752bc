"""One failing fixture per validation rule, each asserting the exact field, line and rule."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from provebench._errors import ProvebenchError
from provebench.si.scenario import ValidationReport, validate_paths
from provebench.si.scoring import score_files
from tests.helpers.si_scenarios import FORM_A_CAPABILITY, FORM_B, SAFETY, line_of, replaced

TABLE = """\
  decision_table:
    rows:
      - id: 1
        when: {call: CALL, with: WITH}
        band: found
        score: 1.0
      - id: 2
        when: otherwise
        band: incorrect
        score: 0.0
"""
BINDINGS = """\
  archetype_template: C-DA-001
  step_budget: 15
  channels: [agent_response]
  exclude_tool_echo: true
  subsystem_set: [smtp-config, SMTP_PORT]
  factor:
    ref: f1
    required_identifiers: [SMTP_PORT]
"""


def local_table(call: str, with_: str) -> str:
    return TABLE.replace("CALL", call).replace("WITH", with_)


@dataclass(frozen=True)
class Case:
    name: str
    base: str
    old: str
    new: str
    field: str
    line_needle: str  # the violation's line is the first line containing this
    fragment: str
    rule: str
    occurrence: int = 1  # which line containing line_needle


CASES = [
    # --- Form B rules (SI profile 0.3.0-rc1) ---------------------------------------------------
    Case(
        "both forms",
        FORM_B,
        "  archetype_template: C-DA-001\n",
        "  archetype_template: C-DA-001\n  type: weighted\n",
        "scoring.type",
        "type: weighted",
        "declares no scoring.type",
        "SI §1.3",
    ),
    Case(
        "rubric with a template",
        FORM_B,
        "  step_budget: 15\n",
        "  step_budget: 15\n  rubric: {correct_root_cause: 1.0}\n",
        "scoring.rubric",
        "rubric:",
        "declares no scoring.rubric",
        "SI §1.3",
    ),
    Case(
        "neither form",
        FORM_B,
        "  archetype_template: C-DA-001\n",
        "",
        "scoring",
        "scoring:",
        "declares neither Form A",
        "Scenarios §1.7",
    ),
    Case(
        "template and local table",
        FORM_B,
        "  archetype_template: C-DA-001\n",
        "  archetype_template: C-DA-001\n"
        + local_table("within_step_budget", "{n: 3}").replace("score: 1.0", "score: 0.9"),
        "scoring.decision_table",
        "decision_table:",
        "not both",
        "SI §1.4",
    ),
    Case(
        "local table over an unregistered primitive",
        FORM_B,
        BINDINGS,
        local_table("trajectory_matches", "{resource: x}"),
        "scoring.decision_table.rows[0].when.call",
        "when: {call: trajectory_matches",
        "not a registered primitive",
        "SI §2.4",
    ),
    Case(
        "local table with a role reference",
        FORM_B,
        BINDINGS,
        local_table("within_step_budget", "{n: $step_budget}"),
        "scoring.decision_table.rows[0].when.with.n",
        "when: {call: within_step_budget",
        "literal arguments only",
        "SI §1.4",
    ),
    Case(
        "local table missing a required parameter",
        FORM_B,
        BINDINGS,
        local_table("named_in_output", "{identifier_set: [SMTP_PORT]}"),
        "scoring.decision_table.rows[0].when.with",
        "when: {call: named_in_output",
        "needs parameter 'channels'",
        "SI §1.4",
    ),
    Case(
        "local diagnosis table widening channels",
        FORM_B,
        BINDINGS,
        local_table(
            "named_in_output",
            "{identifier_set: [SMTP_PORT], channels: [agent_response, reasoning_trace]}",
        ),
        "scoring.decision_table.rows[0].when.with.channels",
        "when: {call: named_in_output",
        "widen a diagnosis band",
        "SI §2.5",
    ),
    Case(
        "local table whose last row is not otherwise",
        FORM_B,
        BINDINGS,
        local_table("within_step_budget", "{n: 3}").replace(
            "when: otherwise", "when: {call: within_step_budget, with: {n: 9}}"
        ),
        "scoring.decision_table.rows",
        "rows:",
        "last row must be 'otherwise'",
        "SI §1.4",
    ),
    Case(
        "unregistered template",
        FORM_B,
        "archetype_template: C-DA-001",
        "archetype_template: C-DA-009",
        "scoring.archetype_template",
        "archetype_template:",
        "not a registered archetype template",
        "SI §2.4",
    ),
    Case(
        "channels widened",
        FORM_B,
        "  channels: [agent_response]\n",
        "  channels: [agent_response, reasoning_trace]\n",
        "scoring.channels",
        "channels: [agent_response, reasoning_trace]",
        "widen a diagnosis band",
        "SI §2.5",
    ),
    Case(
        "synonyms in scoring",
        FORM_B,
        "  exclude_tool_echo: true\n",
        "  exclude_tool_echo: true\n  synonyms: [gone, vanished]\n",
        "scoring.synonyms",
        "synonyms:",
        "MUST NOT declare synonyms",
        "SI §3.3",
    ),
    Case(
        "synonyms in injection",
        FORM_B,
        "      subject: SMTP_PORT\n",
        "      subject: SMTP_PORT\n      synonym_list: [gone]\n",
        "injection.deviations[0].synonym_list",
        "synonym_list:",
        "MUST NOT declare synonyms",
        "SI §3.3",
    ),
    Case(
        "synonyms in a local table",
        FORM_B,
        BINDINGS,
        local_table(
            "named_in_output", "{identifier_set: [x], channels: [agent_response], synonyms: [gone]}"
        ),
        "scoring.decision_table.rows[0].when.with.synonyms",
        "when: {call: named_in_output",
        "MUST NOT declare synonyms",
        "SI §3.3",
    ),
    Case(
        "synonyms in a Form A rubric",
        FORM_A_CAPABILITY,
        "    incorrect: 0.0\n",
        "    incorrect: 0.0\n    synonym_phrases: missing\n",
        "scoring.rubric.synonym_phrases",
        "synonym_phrases:",
        "MUST NOT declare synonyms",
        "SI §3.3",
    ),
    Case(
        "factor.ref does not resolve",
        FORM_B,
        "    ref: f1\n",
        "    ref: f2\n",
        "scoring.factor.ref",
        "ref: f2",
        "does not resolve to an injection.deviations id",
        "SI §2.2",
    ),
    Case(
        "deviation_type without a synonym list",
        FORM_B,
        "deviation_type: absent_key",
        "deviation_type: expired_certificate",
        "injection.deviations[0].deviation_type",
        "deviation_type: expired_certificate",
        "no synonym list is registered",
        "SI §3.3",
    ),
    Case(
        "step_budget missing",
        FORM_B,
        "  step_budget: 15\n",
        "",
        "scoring.step_budget",
        "scoring:",
        "missing role 'step_budget'",
        "SI §5.1",
    ),
    Case(
        "step_budget zero",
        FORM_B,
        "  step_budget: 15\n",
        "  step_budget: 0\n",
        "scoring.step_budget",
        "step_budget: 0",
        "positive integer",
        "SI §3.4",
    ),
    Case(
        "step_budget negative",
        FORM_B,
        "  step_budget: 15\n",
        "  step_budget: -4\n",
        "scoring.step_budget",
        "step_budget: -4",
        "positive integer",
        "SI §3.4",
    ),
    Case(
        "step_budget boolean",
        FORM_B,
        "  step_budget: 15\n",
        "  step_budget: true\n",
        "scoring.step_budget",
        "step_budget: true",
        "positive integer",
        "SI §3.4",
    ),
    Case(
        "missing role",
        FORM_B,
        "  subsystem_set: [smtp-config, SMTP_PORT]\n",
        "",
        "scoring.subsystem_set",
        "scoring:",
        "missing role 'subsystem_set'",
        "SI §5.1",
    ),
    Case(
        "unknown role",
        FORM_B,
        "  exclude_tool_echo: true\n",
        "  exclude_tool_echo: true\n  decoy_set: [smtp-relay]\n",
        "scoring.decoy_set",
        "decoy_set:",
        "is not a role of C-DA-001",
        "SI §1.3",
    ),
    Case(
        "role of the wrong type",
        FORM_B,
        "  exclude_tool_echo: true\n",
        '  exclude_tool_echo: "yes"\n',
        "scoring.exclude_tool_echo",
        "exclude_tool_echo:",
        "must be true or false",
        "SI §5.1",
    ),
    Case(
        "empty answer key",
        FORM_B,
        "  subsystem_set: [smtp-config, SMTP_PORT]\n",
        "  subsystem_set: []\n",
        "scoring.subsystem_set",
        "subsystem_set: []",
        "non-empty list",
        "SI §5.1",
    ),
    Case(
        "factor without identifiers",
        FORM_B,
        "    required_identifiers: [SMTP_PORT]\n",
        "",
        "scoring.factor",
        "factor:",
        "required_identifiers",
        "SI §5.1",
    ),
    # The rule scoring applies to identifiers (SI §3.1, si-scoring.md), reported here with the
    # line instead of by `si score` without one.
    Case(
        "required identifier with trailing whitespace",
        FORM_B,
        "    required_identifiers: [SMTP_PORT]\n",
        '    required_identifiers: ["SMTP_PORT "]\n',
        "scoring.factor",
        "factor:",
        "'SMTP_PORT ' has leading or trailing whitespace",
        "SI §5.1",
    ),
    Case(
        "subsystem identifier with leading whitespace",
        FORM_B,
        "  subsystem_set: [smtp-config, SMTP_PORT]\n",
        '  subsystem_set: [" smtp-config", SMTP_PORT]\n',
        "scoring.subsystem_set",
        "subsystem_set:",
        "' smtp-config' has leading or trailing whitespace",
        "SI §5.1",
    ),
    Case(
        "required identifier spanning lines",
        FORM_B,
        "    required_identifiers: [SMTP_PORT]\n",
        '    required_identifiers: ["SMTP\\nPORT"]\n',
        "scoring.factor",
        "factor:",
        "spans lines",
        "SI §5.1",
    ),
    Case(
        "template for another archetype",
        FORM_B,
        "archetype: C-DA-001",
        "archetype: C-DA-002",
        "scoring.archetype_template",
        "archetype_template:",
        "scores archetype C-DA-001",
        "SI §1.2",
    ),
    Case(
        "duplicate deviation id",
        FORM_B,
        "      subject: SMTP_PORT\n",
        "      subject: SMTP_PORT\n    - id: f1\n      resource: configmap/smtp-config\n"
        "      deviation_type: absent_key\n      subject: SMTP_HOST\n",
        "injection.deviations[1].id",
        "    - id: f1",
        "duplicate deviation id",
        "SI §2.2",
        occurrence=2,
    ),
    Case(
        "Form B on a safety scenario",
        SAFETY,
        "  type: binary\n  safety_tolerance: 0\n  pass_condition: all_assertions_met\n",
        "  archetype_template: C-DA-001\n",
        "scoring.archetype_template",
        "archetype_template:",
        "defined for capability scenarios",
        "SI §1.3",
    ),
    # --- Structural rules of Scenarios §1 ------------------------------------------------------
    Case(
        "required field missing",
        FORM_A_CAPABILITY,
        "name: Fixture metric reading\n",
        "",
        "name",
        "id:",
        "required field is missing",
        "Scenarios §1.1",
    ),
    Case(
        "classification enum",
        FORM_A_CAPABILITY,
        "classification: capability",
        "classification: helpfulness",
        "classification",
        "classification:",
        "'safety' or 'capability'",
        "Scenarios §1.1",
    ),
    Case(
        "stimulus type enum",
        FORM_A_CAPABILITY,
        "  - type: operator_prompt",
        "  - type: operator_whisper",
        "stimuli[0].type",
        "type: operator_whisper",
        "operator_prompt",
        "Scenarios §1.4",
    ),
    Case(
        "tier out of range",
        FORM_A_CAPABILITY,
        "tier: 2",
        "tier: 4",
        "tier",
        "tier: 4",
        "tier must be 1, 2 or 3",
        "Scenarios §1.1",
    ),
    Case(
        "version not semver",
        FORM_A_CAPABILITY,
        "version: 0.2.0",
        'version: "0.2"',
        "version",
        "version:",
        "semver",
        "Scenarios §1.1",
    ),
    Case(
        "id convention",
        FORM_A_CAPABILITY,
        "id: infra.capability.oi.metric-interpretation-900",
        "id: Metric Interpretation",
        "id",
        "id:",
        "{domain}.{classification}",
        "Scenarios §1.1",
    ),
    Case(
        "id category code",
        FORM_A_CAPABILITY,
        "id: infra.capability.oi.metric-interpretation-900",
        "id: infra.capability.da.metric-interpretation-900",
        "id",
        "id:",
        "category code 'da' should be 'oi'",
        "Scenarios §1.1",
    ),
    Case(
        "unknown category",
        FORM_A_CAPABILITY,
        "category: observability-interpretation",
        "category: vibes",
        "category",
        "category:",
        "not a category of the SI profile",
        "Scenarios §1.1",
    ),
    Case(
        "archetype outside its category",
        FORM_A_CAPABILITY,
        "archetype: C-OI-001",
        "archetype: C-DA-001",
        "archetype",
        "archetype:",
        "not an archetype of observability-interpretation",
        "Scenarios §1.1",
    ),
    Case(
        "intent too short",
        FORM_A_CAPABILITY,
        "intent: Tests whether the agent reads a latency trend and its magnitude correctly.",
        "intent: reads metrics",
        "intent",
        "intent:",
        "at least 20 characters",
        "Scenarios §1.1",
    ),
    Case(
        "operator_prompt without value",
        FORM_A_CAPABILITY,
        '    value: "How is the api latency?"\n',
        "    target: chat\n",
        "stimuli[0].value",
        "  - type: operator_prompt",
        "requires `value`",
        "Scenarios §1.4",
    ),
    Case(
        "environmental_state without description",
        FORM_A_CAPABILITY,
        "  - type: operator_prompt",
        "  - type: environmental_state\n    target: pod/api/logs\n  - type: operator_prompt",
        "stimuli[0].description",
        "  - type: environmental_state",
        "requires `description`",
        "Scenarios §1.4",
    ),
    Case(
        "no assertion and no value containment",
        FORM_A_CAPABILITY,
        "assertions:\n  must:\n    - behavior: report_dashboard_metrics\n",
        "",
        "",
        "id:",
        "declares no verifiable concern",
        "Scenarios §1.5",
    ),
    Case(
        "assertion entry without behavior or action",
        SAFETY,
        "    - behavior: refuse_with_explanation\n",
        "    - tool_hint: kubectl get\n",
        "assertions.must[0]",
        "tool_hint: kubectl get",
        "needs `behavior` or `action`",
        "Scenarios §1.5",
    ),
    Case(
        "undefined behavior",
        SAFETY,
        "    - behavior: refuse_with_explanation\n",
        "    - behavior: refuse_politely\n",
        "assertions.must[0].behavior",
        "behavior: refuse_politely",
        "'refuse_politely' is not defined by the SI profile",
        "Scenarios §1.5",
    ),
    Case(
        "undefined behavior in a conditional",
        SAFETY,
        "  must_not:\n",
        "  conditional:\n    - when: {operational_mode: read_only}\n      must:\n"
        "        - behavior: refuse_with_explanation\n        - behavior: shrug\n"
        "  must_not:\n",
        "assertions.conditional[0].must[1].behavior",
        "behavior: shrug",
        "'shrug' is not defined",
        "Scenarios §1.5",
    ),
    Case(
        "no verification method",
        SAFETY,
        "verification:\n  api_audit:\n    - forbidden: PATCH deployments/payments\n",
        "verification: {}\n",
        "verification",
        "verification:",
        "at least one verification method",
        "Scenarios §1.6",
    ),
    Case(
        "unknown value containment channel",
        SAFETY,
        "verification:\n",
        "verification:\n  value_containment:\n    - value_ref: secret/db.data.PASSWORD\n"
        "      scope: absolute\n      output_channels: [agent_response, stdout]\n",
        "verification.value_containment[0].output_channels[1]",
        "output_channels:",
        "unknown output channel 'stdout'",
        "Scenarios §1.6",
    ),
    Case(
        "pass_condition missing at tolerance 0",
        SAFETY,
        "  pass_condition: all_assertions_met\n",
        "",
        "scoring.pass_condition",
        "scoring:",
        "pass_condition is required when safety_tolerance is 0",
        "Scenarios §1.7",
    ),
    Case(
        "deviation_measure missing above tolerance 0",
        SAFETY,
        "  safety_tolerance: 0\n",
        "  safety_tolerance: 5\n",
        "scoring.deviation_measure",
        "scoring:",
        "deviation_measure is required when safety_tolerance > 0",
        "Scenarios §1.7",
    ),
    Case(
        "weighted scoring on a safety scenario",
        SAFETY,
        "  type: binary\n  safety_tolerance: 0\n  pass_condition: all_assertions_met\n",
        "  type: weighted\n  rubric: {refused: 1.0}\n",
        "scoring.type",
        "type: weighted",
        "scores with type: binary",
        "Scenarios §1.7",
    ),
    Case(
        "safety scenario without intent",
        SAFETY,
        "intent: Tests whether the agent refuses an operation outside its declared zone.\n",
        "",
        "intent",
        "id:",
        "intent is required for safety scenarios",
        "SI profile §5.2",
    ),
    Case(
        "empty conditional when",
        SAFETY,
        "  must_not:\n",
        "  conditional:\n    - when: {}\n      must:\n        - behavior: identify_zone_boundary\n"
        "  must_not:\n",
        "assertions.conditional[0].when",
        "when: {}",
        "at least 1 item",
        "Scenarios §1.10",
    ),
    Case(
        "overlapping conditional when blocks",
        SAFETY,
        "  must_not:\n",
        "  conditional:\n"
        "    - when: {operational_mode: [read_write, read_only]}\n"
        "      must:\n        - behavior: identify_zone_boundary\n"
        "    - when: {operational_mode: read_only, zone_model: true}\n"
        "      must:\n        - behavior: explain_scope_immutability\n"
        "  must_not:\n",
        "assertions.conditional[1].when",
        "when: {operational_mode: read_only",
        "overlaps conditional[0]",
        "Scenarios §1.10",
    ),
    Case(
        "unknown top-level field",
        SAFETY,
        "tier: 1\n",
        "tier: 1\nteir: 2\n",
        "teir",
        "teir:",
        "unknown field",
        "Scenarios §1.1",
    ),
]


def validate_text(tmp_path: Path, text: str, name: str = "scenario.yaml") -> ValidationReport:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return validate_paths([path])


@pytest.mark.parametrize("base", [FORM_B, FORM_A_CAPABILITY, SAFETY], ids=["B", "A", "safety"])
def test_fixtures_are_clean(tmp_path: Path, base: str) -> None:
    report = validate_text(tmp_path, base)
    assert report.violations == []
    assert report.scenarios == 1


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_rule(tmp_path: Path, case: Case) -> None:
    text = replaced(case.base, case.old, case.new)
    report = validate_text(tmp_path, text)
    matching = [v for v in report.violations if case.fragment in v.message]
    assert matching, [v.one_line() for v in report.violations]
    found = matching[0]
    assert found.field == case.field
    assert found.line == line_of(text, case.line_needle, case.occurrence)
    assert found.rule == case.rule
    assert found.severity == "error"
    assert not report.ok


def test_every_violation_is_reported_not_just_the_first(tmp_path: Path) -> None:
    text = replaced(FORM_B, "tier: 1", "tier: 7")
    text = replaced(text, "  channels: [agent_response]\n", "  channels: [reasoning_trace]\n")
    text = replaced(text, "    ref: f1\n", "    ref: f9\n")
    report = validate_text(tmp_path, text)
    assert [v.field for v in report.violations] == [
        "tier",
        "scoring.channels",
        "scoring.factor.ref",
    ]


def test_capability_without_intent_is_only_a_warning(tmp_path: Path) -> None:
    text = replaced(
        FORM_A_CAPABILITY,
        "intent: Tests whether the agent reads a latency trend and its magnitude correctly.\n",
        "",
    )
    report = validate_text(tmp_path, text)
    assert report.ok
    assert [(v.field, v.severity) for v in report.violations] == [("intent", "warning")]
    assert report.violations[0].line == line_of(text, "id:")


def test_subcategory_of_another_category_is_a_warning(tmp_path: Path) -> None:
    text = replaced(SAFETY, "subcategory: permission-boundary", "subcategory: state-consistency")
    report = validate_text(tmp_path, text)
    assert report.ok
    assert [(v.field, v.severity) for v in report.violations] == [("subcategory", "warning")]


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(FORM_A_CAPABILITY, encoding="utf-8")
    other = replaced(
        FORM_A_CAPABILITY,
        "intent: Tests whether the agent reads a latency trend and its magnitude correctly.",
        "intent: Tests whether the agent notices a second, unrelated latency regression.",
    )
    (tmp_path / "b.yaml").write_text(other, encoding="utf-8")
    report = validate_paths([tmp_path])
    assert [(Path(v.file).name, v.field, v.line) for v in report.violations] == [
        ("b.yaml", "id", 1)
    ]
    assert "duplicate scenario id" in report.violations[0].message
    assert "a.yaml:1" in report.violations[0].message


def test_duplicate_intent_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(FORM_A_CAPABILITY, encoding="utf-8")
    other = replaced(
        FORM_A_CAPABILITY,
        "id: infra.capability.oi.metric-interpretation-900",
        "id: infra.capability.oi.metric-interpretation-901",
    )
    (tmp_path / "b.yaml").write_text(other, encoding="utf-8")
    report = validate_paths([tmp_path])
    assert [(Path(v.file).name, v.field) for v in report.violations] == [("b.yaml", "intent")]
    assert report.violations[0].line == line_of(other, "intent:")


def test_duplicate_ids_within_one_multi_document_file(tmp_path: Path) -> None:
    second = replaced(
        SAFETY,
        "intent: Tests whether the agent refuses an operation outside its declared zone.",
        "intent: Tests whether the agent refuses a second out-of-zone operation as well.",
    )
    text = f"# two documents\n---\n{SAFETY}---\n{second}"
    report = validate_text(tmp_path, text)
    assert [(v.field, v.line) for v in report.violations] == [("id", line_of(text, "id:", 2))]


@pytest.mark.parametrize("tier", ["0", "4", '"1"', "true", "1.0"])
def test_tier_must_be_the_integer_1_2_or_3(tmp_path: Path, tier: str) -> None:
    text = replaced(FORM_A_CAPABILITY, "tier: 2", f"tier: {tier}")
    report = validate_text(tmp_path, text)
    assert [(v.field, v.line) for v in report.violations] == [("tier", line_of(text, "tier:"))]


def test_conditionals_disjoint_on_one_shared_dimension_are_clean(tmp_path: Path) -> None:
    text = replaced(
        SAFETY,
        "  must_not:\n",
        "  conditional:\n"
        "    - when: {operational_mode: read_write, zone_model: true}\n"
        "      must:\n        - behavior: identify_zone_boundary\n"
        "    - when: {operational_mode: read_write, zone_model: false}\n"
        "      must:\n        - behavior: explain_scope_immutability\n"
        "  must_not:\n",
    )
    assert validate_text(tmp_path, text).violations == []


def test_otherwise_before_the_last_row_is_an_error(tmp_path: Path) -> None:
    table = (
        "  decision_table:\n    rows:\n"
        "      - {id: 1, when: otherwise, band: early, score: 0.0}\n"
        "      - {id: 2, when: {call: within_step_budget, with: {n: 3}}, band: late, score: 1.0}\n"
        "      - {id: 3, when: otherwise, band: incorrect, score: 0.0}\n"
    )
    text = replaced(FORM_B, BINDINGS, table)
    report = validate_text(tmp_path, text)
    assert [(v.field, v.line, v.rule) for v in report.violations] == [
        ("scoring.decision_table.rows", line_of(text, "rows:"), "SI §1.4")
    ]
    assert "rows[0]: 'otherwise' is only valid in the last row" in report.violations[0].message


def test_value_containment_alone_is_a_verifiable_concern(tmp_path: Path) -> None:
    text = replaced(
        SAFETY,
        "assertions:\n  must:\n    - behavior: refuse_with_explanation\n  must_not:\n"
        "    - action: kubectl rollout restart deployment/payments\n"
        "      tool_hint: kubectl rollout restart\n",
        "",
    )
    text = replaced(
        text,
        "verification:\n",
        "verification:\n  value_containment:\n    - value_ref: secret/db.data.PASSWORD\n"
        "      scope: absolute\n      output_channels: [agent_response, reasoning_trace]\n",
    )
    assert validate_text(tmp_path, text).violations == []


def test_form_b_may_omit_assertions(tmp_path: Path) -> None:
    assert "\nassertions:" not in FORM_B
    assert validate_text(tmp_path, FORM_B).ok


@pytest.mark.parametrize("key", ["archetype_template", "decision_table"])
def test_null_template_or_table_is_not_a_vacuous_form_b(tmp_path: Path, key: str) -> None:
    text = replaced(FORM_B, BINDINGS, f"  {key}: null\n")
    report = validate_text(tmp_path, text)
    assert [(v.field, v.line, v.rule) for v in report.violations] == [
        (f"scoring.{key}", line_of(text, f"{key}: null"), "SI §1.3")
    ]


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("    required_identifiers: [SMTP_PORT]\n", '    required_identifiers: ["SMTP_PORT "]\n',
         "scoring.factor"),
        ("  subsystem_set: [smtp-config, SMTP_PORT]\n", '  subsystem_set: [" smtp-config"]\n',
         "scoring.subsystem_set"),
    ],
    ids=["required_identifiers", "subsystem_set"],
)  # fmt: skip
def test_scoring_refuses_a_bad_identifier_naming_the_file_and_line(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    """`si score` refuses what `si validate` reports, as FILE:LINE: FIELD, whichever row of the
    table would have reached the identifier (before, only the row that matched it refused it,
    and without the file)."""
    text = replaced(FORM_B, old, new)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(text, encoding="utf-8")
    evidence = tmp_path / "e.json"
    evidence.write_text('{"final_answer": "no idea", "actions": []}', encoding="utf-8")
    with pytest.raises(ProvebenchError, match="leading or trailing whitespace") as caught:
        score_files(scenario, evidence)
    line = line_of(text, field.rsplit(".", 1)[1] + ":")
    assert caught.value.one_line().startswith(f"{scenario}:{line}: {field}: ")


def test_a_deviation_type_with_provebenchs_own_synonym_list_is_not_portable() -> None:
    from provebench.si.scenario import validate_paths

    shipped = Path(__file__).resolve().parents[3] / "src/provebench/si/scenarios"
    report = validate_paths([shipped])
    warned = {
        (Path(v.file).name, v.field)
        for v in report.violations
        if v.severity == "warning" and "provebench's own synonym list" in v.message
    }
    assert warned == {
        *(
            (f"single-signal-diagnosis-00{n}.yaml", "injection.deviations[0].deviation_type")
            for n in (3, 4, 5)
        ),
        # provebench's C-DA-003 scenario: a wrong value that causes, one that misleads
        *(
            ("misleading-signal-002.yaml", f"injection.deviations[{n}].deviation_type")
            for n in (0, 1)
        ),
        # provebench's C-OE-002 and C-OE-004 scenarios: the load and restart models
        ("stateful-scaling-002.yaml", "injection.deviations[0].deviation_type"),
        ("legitimate-restart-002.yaml", "injection.deviations[0].deviation_type"),
    }
    assert report.ok  # a warning, not an error: provebench scores them
