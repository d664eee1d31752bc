"""Any value of any type at any field yields violations, never an exception (fail closed)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from provebench._yaml import YamlDocument, load_yaml_text
from provebench.si import Scenario, bind_scoring
from provebench.si.scenario import validate_documents
from tests.helpers.si_scenarios import FORM_A_CAPABILITY, FORM_B, SAFETY

REPLACEMENTS: list[Any] = [None, 0, -1, "x", "$role", [], {}, True, [None], {"k": None}]


def paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*at, key)
            yield from paths(value, (*at, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield (*at, index)
            yield from paths(value, (*at, index))


def with_value(data: Any, at: tuple[Any, ...], value: Any) -> Any:
    changed = copy.deepcopy(data)
    target = changed
    for part in at[:-1]:
        target = target[part]
    target[at[-1]] = value
    return changed


@pytest.mark.parametrize("text", [FORM_B, FORM_A_CAPABILITY, SAFETY], ids=["B", "A", "safety"])
def test_every_field_replaced_by_every_type_is_reported_not_raised(text: str) -> None:
    (original,) = load_yaml_text(text, path="s.yaml")
    checked = bound = 0
    for at in paths(original.data):
        for value in REPLACEMENTS:
            data = with_value(original.data, at, value)
            document = YamlDocument("s.yaml", 0, data, original.start_line, original.lines)
            violations = validate_documents([document])
            assert all(v.file == "s.yaml" and v.line >= 1 for v in violations)
            if not any(v.severity == "error" for v in violations):
                # What validate accepts, the models and the binder accept too.
                scenario = Scenario.model_validate(data)
                if scenario.form == "B":
                    bind_scoring(scenario)
                    bound += 1
            checked += 1
    assert checked > 300
    assert bound > 0 or "archetype_template" not in text


@pytest.mark.parametrize("data", [None, [], "text", 3, [FORM_B]])
def test_a_document_that_is_not_a_mapping_is_one_violation(data: Any) -> None:
    document = YamlDocument("s.yaml", 0, data, 1, {})
    (violation,) = validate_documents([document])
    assert violation.message == "a scenario document must be a mapping of fields"
