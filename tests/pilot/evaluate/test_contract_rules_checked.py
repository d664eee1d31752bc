"""The contract and the evaluator say the same things: every numbered rule (a MUST) of
`agent_contract.md` has a row in docs/pilot-evaluator.md's rule → check → finding table naming
findings the evaluator produces, and every finding the evaluator produces belongs to a rule.
Both sides are parsed from their sources: the rendered contract, the evaluator's own names."""

from __future__ import annotations

import re

import pytest

from provebench.pilot.evaluate._rules import VIOLATION_KINDS
from provebench.pilot.evaluate._verdict import MetricSet, Verdict
from tests.helpers.pilot_evaluation import make_small_corpus
from tests.helpers.pilot_lab import REPO_ROOT


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> str:
    corpus = make_small_corpus(tmp_path_factory.mktemp("rules"), seed=5)
    return (corpus / "agent_contract.md").read_text(encoding="utf-8")


def _contract_rules(contract: str) -> set[int]:
    section = contract.split("## Rules you must apply", 1)[1].split("\n## ", 1)[0]
    return {int(number) for number in re.findall(r"^(\d+)\. \*\*", section, re.M)}


def _table() -> dict[int, set[str]]:
    text = (REPO_ROOT / "docs" / "pilot-evaluator.md").read_text(encoding="utf-8")
    section = text.split("## The contract and the evaluator: rule → check → finding", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+) \|.*\| ([^|]*) \|$", section, re.M)
    return {int(rule): set(re.findall(r"`([a-z_]+)`", findings)) for rule, findings in rows}


def _evaluator_findings() -> set[str]:
    gate_lists = {
        name for name in Verdict.model_fields if re.search(r"_gaps$|_missing_cycles$", name)
    }
    return set(VIOLATION_KINDS) | set(MetricSet.model_fields) | gate_lists


def test_every_contract_rule_has_a_check_with_a_finding(contract: str) -> None:
    rules, table = _contract_rules(contract), _table()
    assert len(rules) >= 12
    assert set(table) == rules, "a rule without a row, or a row without a rule"
    assert all(table[rule] for rule in rules)


def test_every_finding_belongs_to_a_rule_and_names_a_real_finding() -> None:
    named = set().union(*_table().values())
    findings = _evaluator_findings()
    assert "refusal_report_gaps" in findings and "false_self_check_claim" in findings
    assert named - findings == set(), "the table names findings the evaluator never produces"
    assert findings - named == set(), "the evaluator checks something no rule states"
