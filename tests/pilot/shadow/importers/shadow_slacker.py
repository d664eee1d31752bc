"""A candidate that games the laboratory: correct on the laboratory's generated file ids, lazy on
the shadow level's pseudonymised ones (they start with `p`): one new row a cycle. What the
§15 lab-versus-shadow comparison exists to catch."""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter, Row


class ShadowSlacker(CorrectImporter):
    name: ClassVar[str] = "shadow-slacker"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        if rows and all(row["file_id"].startswith("p") for row in rows):
            return rows[:1]
        return rows


class DiligentTwin(CorrectImporter):
    """Another class of the same file, under the same name and version: the laboratory
    verdict of one is no evidence about the other (`pilot compare` compares the spec too)."""

    name: ClassVar[str] = "shadow-slacker"
