"""Every field of the evidence is classified as the agent's (searched by every disclosure
check) or not, with why (SI red team 15, H2: the agent's exception text and its standard error
were recorded and shown, never searched). A field added to the evidence model and classified
in neither table fails here, so a new channel of the agent cannot be forgotten."""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_args, get_origin

from pydantic import BaseModel

from provebench.evidence import Evidence, NonScoringMetadata, ToolAction
from provebench.evidence._agent_text import AGENT_FIELDS, NOT_AGENT_FIELDS, OUT_OF_BAND
from provebench.evidence._channels import CHANNELS

# The models whose fields are classified one by one (the rest are classified whole).
_DESCENDED = (ToolAction, NonScoringMetadata)


def _leaf_paths(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    for name, info in model.model_fields.items():
        annotation = info.annotation
        listed = get_origin(annotation) is list
        inner = get_args(annotation)[0] if listed else annotation
        if inner in _DESCENDED:
            yield from _leaf_paths(inner, f"{prefix}{name}{'[]' if listed else ''}.")
        else:
            yield prefix + name


def test_every_evidence_field_is_classified_once() -> None:
    fields = set(_leaf_paths(Evidence))
    assert "agent_error" in fields and "metadata.agent_name" in fields  # the walk reaches them
    assert not set(AGENT_FIELDS) & set(NOT_AGENT_FIELDS)
    assert fields - set(AGENT_FIELDS) - set(NOT_AGENT_FIELDS) == set(), "unclassified fields"
    assert set(AGENT_FIELDS) | set(NOT_AGENT_FIELDS) == fields, "a classified field is gone"


def test_every_agent_field_is_searched_in_a_channel() -> None:
    for field, channel in AGENT_FIELDS.items():
        assert channel in CHANNELS if channel is not None else field in OUT_OF_BAND
    assert set(OUT_OF_BAND) >= {"agent_error", "agent_stderr"}
