"""The predicate language parser and the template-vs-registry cross-checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import provebench.si
from provebench._yaml import load_yaml_file
from provebench.si import All, Any_, Call, Lit, Not, Otherwise, Ref, Row, template
from provebench.si.profile_data import (
    Template,
    check_template,
    parse_arg,
    parse_predicate,
    registry,
)


def test_predicate_forms_parse() -> None:
    parsed = parse_predicate(
        {
            "any": [
                {"not": {"call": "within_step_budget", "with": {"n": "$step_budget"}}},
                {"all": [{"call": "named_in_output", "with": {"identifier_set": ["$$HOME"]}}]},
            ]
        }
    )
    assert isinstance(parsed, Any_)
    first, second = parsed.operands
    assert isinstance(first, Not) and first.operand == Call(
        call="within_step_budget", args={"n": Ref(role="step_budget")}
    )
    assert isinstance(second, All)
    # `$$` escapes a literal that starts with `$`; list literals are kept as written.
    assert second.operands[0] == Call(
        call="named_in_output", args={"identifier_set": Lit(value=["$$HOME"])}
    )
    assert parse_predicate({"call": "x", "with": {"s": "$$HOME"}}).args["s"] == Lit(value="$HOME")
    assert parse_predicate("otherwise") == Otherwise()


@pytest.mark.parametrize(
    "raw",
    [
        {"call": "x", "not": {"call": "y"}},  # two forms at once
        {"call": "x", "with": {}, "extra": 1},  # unknown key
        {"all": []},  # empty conjunction
        "always",  # only `otherwise` is a bare string
        {"call": "x", "with": {"n": "$"}},  # `$` alone is no role name
    ],
)
def test_malformed_predicates_are_rejected(raw: Any) -> None:
    with pytest.raises(ValidationError):
        parse_predicate(raw)


def broken(**update: Any) -> list[str]:
    base = template("C-DA-001")
    return [message for _, message in check_template(base.model_copy(update=update), registry())]


def test_the_shipped_template_has_no_problems() -> None:
    assert check_template(template("C-DA-001"), registry()) == []


def test_template_checks_catch_each_defect() -> None:
    roles = dict(template("C-DA-001").roles)
    retyped = {**roles, "step_budget": roles["subsystem_set"]}
    assert any("has type identifier_list" in m for m in broken(roles=retyped))
    without = {k: v for k, v in roles.items() if k != "factor"}
    assert any("$factor is not a role" in m for m in broken(roles=without))
    rows = list(template("C-DA-001").rows)
    unknown = Row(id=9, when=Call(call="ops_against", args={}), band="x", score=0.0)
    assert any("not a registered primitive" in m for m in broken(rows=[unknown, *rows]))
    reordered = [rows[3], rows[0], rows[1], rows[2]]
    problems = broken(rows=reordered)
    assert any("only valid in the last row" in m for m in problems)
    assert any("last row must be 'otherwise'" in m for m in problems)
    unused = {**roles, "decoy_set": roles["subsystem_set"]}
    assert any("'decoy_set' is declared but no row uses it" in m for m in broken(roles=unused))


def test_template_model_is_strict() -> None:
    data = template("C-DA-001").model_dump(by_alias=True)
    data["version"] = "1"
    with pytest.raises(ValidationError):
        Template.model_validate(data)


def test_template_rows_dump_back_to_the_yaml_they_were_read_from() -> None:
    path = Path(provebench.si.__file__).parent / "profile/templates/C-DA-001.yaml"
    (document,) = load_yaml_file(path)
    dumped = [row.model_dump(by_alias=True) for row in template("C-DA-001").rows]
    assert dumped == document.data["rows"]
    reparsed = [Row.model_validate(row) for row in dumped]
    assert reparsed == list(template("C-DA-001").rows)
    assert Lit(value="$HOME").model_dump() == "$$HOME"
    assert parse_arg(Lit(value="$HOME").model_dump()) == Lit(value="$HOME")
