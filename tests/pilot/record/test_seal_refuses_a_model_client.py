"""Pilot red team 27, A6: `pilot seal --agent provebench.pilot.agents._openai:OpenAIImporter`
was sealed — the model client's class by another spelling than `openai:MODEL`. A seal refuses
the model client by its class, however it is spelled."""

from __future__ import annotations

import pytest

from provebench._errors import ProvebenchError
from provebench.pilot._seal import MODEL_NOT_SEALABLE, RELAY_NOT_SEALABLE, candidate_identity


@pytest.mark.parametrize(
    "spec",
    ["openai:m", "provebench.pilot.agents._openai:OpenAIImporter"],
)
def test_every_spelling_of_the_model_client_is_refused(spec: str) -> None:
    with pytest.raises(ProvebenchError) as refused:
        candidate_identity(spec, None)
    assert refused.value.message == MODEL_NOT_SEALABLE


@pytest.mark.parametrize(
    "spec",
    [
        "provebench.pilot.agents._mcp_serve:DeskImporter",  # pilot red team 31, A5
        "provebench.pilot.agents._sandboxed:SandboxedImporter",
    ],
)
def test_a_relay_to_a_candidate_outside_the_seal_is_refused(spec: str) -> None:
    with pytest.raises(ProvebenchError) as refused:
        candidate_identity(spec, None)
    assert refused.value.message == RELAY_NOT_SEALABLE


def test_a_built_in_importer_by_its_class_is_still_sealed() -> None:
    spec = "provebench.pilot.agents._reference:ReferenceImporter"
    assert candidate_identity(spec, None).identity["spec"] == spec
