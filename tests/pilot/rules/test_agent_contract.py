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
