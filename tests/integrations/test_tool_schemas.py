"""Every tool a model is offered describes every parameter: Inspect refuses a tool whose
parameter has no description (with a real provider; mockllm never builds the parameters), and
a model reads the descriptions to fill the arguments."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from inspect_ai.tool._tool_def import validate_tool_parameters

from provebench.integrations.inspect._si import tool_params
from provebench.pilot.agents._tools import TOOLS as PILOT_TOOLS
from provebench.si.agents._openai import _SUBMIT
from provebench.si.agents._serve import SUBMIT_ANSWER, SUBMIT_ANSWER_SCHEMA
from provebench.si.sim.declared._tools import TOOLS as DECLARED_TOOLS


def _offered() -> Iterator[tuple[str, Mapping[str, Any]]]:
    for tool in DECLARED_TOOLS:  # the one tool set of both estates (docs/si-agents.md)
        yield f"si {tool.spec.name}", tool.spec.input_schema
    for pilot in PILOT_TOOLS:
        yield f"pilot {pilot.name}", pilot.input_schema
    yield f"si serve {SUBMIT_ANSWER}", SUBMIT_ANSWER_SCHEMA
    yield f"openai {_SUBMIT.name}", _SUBMIT.parameters


OFFERED = dict(_offered())


def _undescribed(schema: Mapping[str, Any]) -> list[str]:
    properties = schema.get("properties") or {}
    return [name for name, spec in properties.items() if not spec.get("description")]


@pytest.mark.parametrize("tool", sorted(OFFERED))
def test_every_parameter_has_a_description_inspect_accepts(tool: str) -> None:
    schema = OFFERED[tool]
    assert _undescribed(schema) == []
    validate_tool_parameters(tool, tool_params(schema).properties)  # raises on a missing one


def test_the_check_fails_on_a_parameter_without_a_description() -> None:
    schema = {"type": "object", "properties": {"set": {"type": "object"}}}
    assert _undescribed(schema) == ["set"]
    with pytest.raises(ValueError, match="Description not provided for parameter 'set'"):
        validate_tool_parameters("orchestration_patch", tool_params(schema).properties)


def test_every_laboratory_offers_tools_to_check() -> None:
    assert len(OFFERED) > 20 and any(name.startswith("pilot ") for name in OFFERED)
