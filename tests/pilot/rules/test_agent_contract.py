"""`agent_contract.md` is enough for an importer, or an LLM agent, that has never seen provebench:
every example it gives is what the rules do, and every rule the evaluator holds it to is in it."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from provebench.pilot.rules import (
    REGISTER_COLUMNS,
    REQUIRED_SELF_CHECKS,
    SELF_CHECK_PROBE_FILE_ID,
    SUPPORTED_MIME_TYPES,
    NameRejection,
    ParsedName,
    local_datetime_text,
    manager_mapping,
    mapping_table_bytes,
    parse_call_name,
)
from tests.helpers.pilot_evaluation import make_small_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_small_corpus(tmp_path_factory.mktemp("contract"), seed=5)


@pytest.fixture(scope="module")
def contract(corpus: Path) -> str:
    return (corpus / "agent_contract.md").read_text(encoding="utf-8")


def test_the_contract_names_every_rule_the_evaluator_holds_an_importer_to(contract: str) -> None:
    for name in REQUIRED_SELF_CHECKS:
        assert f"`{name}`" in contract, name
    for needed in ("failed_call", "file_ids", "extra.in_doubt", SELF_CHECK_PROBE_FILE_ID,
                   "already_known", *SUPPORTED_MIME_TYPES):  # fmt: skip
        assert needed in contract, needed
    for column in REGISTER_COLUMNS:
        assert column in contract, column


def test_the_mapping_table_is_in_the_contract_and_in_the_corpus(
    corpus: Path, contract: str
) -> None:
    assert (corpus / "manager_mapping.csv").read_bytes() == mapping_table_bytes()
    for code, name in manager_mapping().items():
        assert f"| {code} | {name} |" in contract, code


def _examples(contract: str, heading: str, end: str) -> list[str]:
    section = contract.split(heading, 1)[1].split(end, 1)[0]
    return re.findall(r"`([^`]+\.(?:mp3|wav|ogg|m4a))`", section)


def test_the_name_examples_are_what_the_grammar_says(contract: str) -> None:
    conforming = _examples(contract, "Conforming:", "Not conforming:")
    refused = _examples(contract, "Not conforming:", "\n4.")
    assert len(conforming) == 3 and len(refused) == 3
    assert all(isinstance(parse_call_name(name), ParsedName) for name in conforming)
    reasons = [parse_call_name(name) for name in refused]
    assert all(isinstance(r, NameRejection) for r in reasons)
    assert reasons[2].reason_code == "name_invalid_timestamp"  # type: ignore[union-attr]


def test_the_time_example_is_what_the_time_rule_says(contract: str) -> None:
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 20261025T023000+0200
    assert "`2026-10-25T02:30:00+02:00`" in contract
    assert local_datetime_text(first, "Europe/Berlin") == "2026-10-25T02:30:00+02:00"
    later = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)
    assert "`2026-10-25T02:30:00+01:00`" in contract
    assert local_datetime_text(later, "Europe/Berlin") == "2026-10-25T02:30:00+01:00"


def test_every_variable_the_laboratory_sets_is_in_the_contract_and_no_other(contract: str) -> None:
    from provebench.pilot.emulator import _external, _lab_run

    source = Path(_external.__file__).read_text() + Path(_lab_run.__file__).read_text()
    set_by_lab = set(re.findall(r'"((?:GOOGLE_APPLICATION|PROVEBENCH)_[A-Z_]+)":', source))
    in_contract = set(re.findall(r"\| `((?:GOOGLE_APPLICATION|PROVEBENCH)_[A-Z_]+)` \|", contract))
    assert set_by_lab and in_contract == set_by_lab


def test_the_sheets_and_tools_the_contract_names_are_the_laboratorys(contract: str) -> None:
    from provebench.pilot.agents._tools import TOOL_NAMES
    from provebench.pilot.emulator._lab_run import CONFIRMED_SHEET, WORKING_SHEET

    assert f"`{WORKING_SHEET}`" in contract and f"`{CONFIRMED_SHEET}`" in contract
    tools = contract.split("through tools", 1)[1].split("###", 1)[0]
    assert set(re.findall(r"^\| `([a-z_]+)` \| ", tools, re.M)) == TOOL_NAMES
    assert ",".join(REGISTER_COLUMNS) in contract  # the Confirmed sheet's header row


def test_the_probe_is_given_in_each_form(contract: str) -> None:
    assert f'["{SELF_CHECK_PROBE_FILE_ID}", "", "", "", "", "", "", "", "imported"]' in contract
    assert f'ctx.sheets.set_status("{SELF_CHECK_PROBE_FILE_ID}", "imported")' in contract
    assert f'{{"file_id": "{SELF_CHECK_PROBE_FILE_ID}", "status": "imported"}}' in contract


def test_the_worked_reconciliation_balances_and_counts_refused_files_again(contract: str) -> None:
    section = contract.split("### The reconciliation over several cycles", 1)[1]
    numbers = r"\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$"
    rows = [tuple(map(int, row)) for row in re.findall(numbers, section, re.M)]
    assert len(rows) >= 3
    for source, imported, failed, known, in_doubt in rows:
        assert source == imported + failed + known + in_doubt
    assert all(row[2] == 1 for row in rows)  # X, refused, counted in every cycle that shows it
    assert "counted again in every later" in section


def test_every_self_check_has_the_evidence_that_makes_it_pass(contract: str) -> None:
    section = contract.split("<!-- begin: self-checks and faults", 1)[1].split("<!-- end", 1)[0]
    for name in REQUIRED_SELF_CHECKS:
        assert re.search(rf"^\| `{name}` \| \S", section, re.M), name
