"""The SI profile as data: registry v1, constants (SI §3) and the C-DA-001 template (SI §5.1)."""

from __future__ import annotations

import re

import pytest

from provebench._errors import ProvebenchError
from provebench.si import (
    Call,
    Not,
    Otherwise,
    Ref,
    constants,
    cooccurrence_window,
    profile,
    registry,
    synonyms_for,
    template,
)


def test_profile_and_registry_versions() -> None:
    assert profile().version == "0.3.0-rc1"
    assert registry().registry == "v1"
    assert registry().channels == ("agent_response", "reasoning_trace", "tool_call_parameters")


def test_registry_v1_is_exactly_the_three_primitives() -> None:
    primitives = registry().primitives
    assert list(primitives) == ["named_in_output", "factor_identified", "within_step_budget"]
    signatures = {
        name: {p: (s.type, s.required, s.default) for p, s in primitive.params.items()}
        for name, primitive in primitives.items()
    }
    assert signatures == {
        "named_in_output": {
            "identifier_set": ("identifier_list", True, None),
            "channels": ("channel_list", True, None),
            "exclude_tool_echo": ("bool", False, False),
        },
        "factor_identified": {
            "factor": ("factor", True, None),
            "channels": ("channel_list", True, None),
            "exclude_tool_echo": ("bool", False, False),
        },
        "within_step_budget": {"n": ("positive_int", True, None)},
    }


def test_absent_key_synonyms_are_exactly_si_3_3() -> None:
    listed = synonyms_for("absent_key")
    assert listed.version == "v1"
    assert listed.phrases == (
        "missing",
        "absent",
        "not present",
        "not set",
        "not defined",
        "undefined",
        "not found",
        "does not exist",
        "doesn't exist",
        "no key",
        "lacks",
        "lacking",
        "omitted",
        "unset",
    )


def test_unknown_deviation_type_has_no_synonyms() -> None:
    with pytest.raises(ProvebenchError, match="expired_certificate"):
        synonyms_for("expired_certificate")


def test_identifier_matching_and_sentence_constants() -> None:
    matching = constants().identifier_matching
    assert (matching.normalization, matching.case_insensitive) == ("NFC", True)
    assert matching.token_class == "[A-Za-z0-9_-]"
    split = constants().sentence_split
    text = "SMTP_PORT is missing. v1.2 is fine!\nReally? yes.x"
    parts = [p.strip() for p in re.split(split.pattern, text)]
    # SI §3.2: newline, and . ! ? followed by whitespace or end of text; nothing cleverer.
    assert parts == ["SMTP_PORT is missing.", "v1.2 is fine!", "Really?", "yes.x"]
    assert constants().steps.unit == "tool_invocation"


def test_cooccurrence_windows_are_versioned_with_same_sentence_default() -> None:
    assert cooccurrence_window().id == "same-sentence"
    assert cooccurrence_window().sentence_radius == 0
    assert cooccurrence_window("adjacent-sentence").sentence_radius == 1
    with pytest.raises(ProvebenchError, match="unknown co-occurrence window"):
        cooccurrence_window("same-paragraph")


def test_c_da_001_equals_si_5_1_row_by_row() -> None:
    tpl = template("C-DA-001")
    assert (tpl.id, tpl.version, tpl.archetype, tpl.diagnosis_band) == (
        "C-DA-001",
        "1.0.0",
        "C-DA-001",
        True,
    )
    assert {name: (spec.type, spec.required) for name, spec in tpl.roles.items()} == {
        "factor": ("factor", True),
        "subsystem_set": ("identifier_list", True),
        "channels": ("channel_list", True),
        "step_budget": ("positive_int", True),
        "exclude_tool_echo": ("bool", True),
    }
    echo = {"channels": Ref(role="channels"), "exclude_tool_echo": Ref(role="exclude_tool_echo")}
    expected = [
        (
            1,
            Not(operand=Call(call="within_step_budget", args={"n": Ref(role="step_budget")})),
            "no_conclusion_within_budget",
            0.0,
        ),
        (
            2,
            Call(call="factor_identified", args={"factor": Ref(role="factor"), **echo}),
            "correct_root_cause",
            1.0,
        ),
        (
            3,
            Call(
                call="named_in_output",
                args={"identifier_set": Ref(role="subsystem_set"), **echo},
            ),
            "correct_subsystem_wrong_component",
            0.5,
        ),
        (4, Otherwise(), "incorrect", 0.0),
    ]
    assert [(row.id, row.when, row.band, row.score) for row in tpl.rows] == expected


def test_unregistered_template_is_an_error() -> None:
    with pytest.raises(ProvebenchError, match="not a registered archetype template"):
        template("C-DA-002")
