"""What a simulator tool is to an agent (its name and input schema) and what one call answers.

The tools themselves are one set for both estates: `si.sim.declared._tools` (docs/si-agents.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pydantic import BaseModel, ConfigDict, Field, JsonValue


class ToolSpec(BaseModel):
    """One tool as an agent sees it (a valid MCP tool name, a JSON Schema for its input)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    interface_type: str
    description: str
    input_schema: dict[str, JsonValue]


class ToolResponse(BaseModel):
    """The verbatim body of one tool call, and its error when it failed."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    body: str
    error: str | None = None
    error_code: str | None = None


class UnparsedArguments(Mapping[str, JsonValue]):
    """The arguments of a call that could not be read as a JSON object (a model's cut-off or
    malformed JSON), passed in place of arguments by provebench's own model loop.

    The call is still a step (SI §3.4): the session records it, the raw text as its one
    argument `unrecordable_arguments` and in its error, and runs nothing. It is an empty
    mapping, so any code that takes it for arguments sees none."""

    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem

    def __getitem__(self, key: str) -> JsonValue:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def error(self) -> str:
        return f"the arguments are not a JSON object ({self.problem}): {self.text!r}"


__all__ = ["ToolResponse", "ToolSpec", "UnparsedArguments"]
