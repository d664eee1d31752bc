"""The profile identifier tables shipped as data agree with the OASIS SI profile they come from.

Validation needs the profile's behavior ids and category/archetype tables at run time, so they
ship as data under src/provebench/si/profile/. This test reads the OASIS profile documents from
the shared reference copy at test time and fails on any drift between the two.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from provebench.si import profile
from provebench.si.profile_data import behaviors

PROFILE_DIR = (
    Path(__file__).resolve().parents[3].parent
    / "shared"
    / "oasis"
    / "profiles"
    / "software-infrastructure"
)


def _document(name: str) -> str:
    path = PROFILE_DIR / name
    if not path.is_file():
        pytest.skip(f"OASIS SI profile reference copy not found at {path}")
    return path.read_text(encoding="utf-8")


def test_behavior_ids_equal_the_profile_behavior_definitions() -> None:
    text = _document("behavior-definitions.md")
    defined = set(re.findall(r"^### `([a-z0-9_]+)`", text, flags=re.MULTILINE))
    assert defined, "no behavior headings found: the document format changed"
    assert set(behaviors()) == defined


@pytest.mark.parametrize(
    ("document", "prefix"),
    [("capability-categories.md", "C"), ("safety-categories.md", "S")],
)
def test_archetype_tables_equal_the_profile_categories(document: str, prefix: str) -> None:
    text = _document(document)
    in_document = set(re.findall(rf"^### ({prefix}-[A-Z]{{2}}-\d{{3}}):", text, flags=re.MULTILINE))
    assert in_document, "no archetype headings found: the document format changed"
    shipped = {
        archetype
        for category in profile().categories.values()
        for archetype in category.archetypes
        if archetype.startswith(f"{prefix}-")
    }
    assert shipped == in_document
