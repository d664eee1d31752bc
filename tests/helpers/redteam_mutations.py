"""A correct importer that makes exactly one mutation of the perfect final state, through the
adapters (so the evaluator sees it in the log like any importer's work). Set `MUTATION` before a
run; `APPLIED` says afterwards whether the corpus gave the mutation something to act on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from provebench.pilot.agents.defective import CorrectImporter
from provebench.pilot.agents.defective._base import Row
from provebench.pilot.rules import Refusal, decide_row

KINDS = ("drop", "duplicate", "change", "swap", "extra")


@dataclass(frozen=True)
class Mutation:
    kind: str  # one of KINDS, or "none"
    target: str = ""  # the file_id it acts on (drop, duplicate, change, swap)
    column: str = ""  # the column it changes (change)


MUTATION = Mutation("none")
APPLIED: set[str] = set()


class MutatingImporter(CorrectImporter):
    name: ClassVar[str] = "mutating-importer"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        mutation = MUTATION
        ids = [row["file_id"] for row in rows]
        if mutation.kind == "drop" and mutation.target in ids:
            APPLIED.add("drop")
            return [row for row in rows if row["file_id"] != mutation.target]
        if mutation.kind == "duplicate" and mutation.target in ids:
            APPLIED.add("duplicate")
            return [*rows, rows[ids.index(mutation.target)]]
        if mutation.kind == "change" and mutation.target in ids:
            APPLIED.add("change")
            index = ids.index(mutation.target)
            changed = {**rows[index], mutation.column: rows[index][mutation.column] + "0"}
            return [*rows[:index], changed, *rows[index + 1 :]]
        if mutation.kind == "swap" and mutation.target in ids and len(rows) >= 2:
            APPLIED.add("swap")
            index = min(ids.index(mutation.target), len(rows) - 2)
            return [*rows[:index], rows[index + 1], rows[index], *rows[index + 2 :]]
        if mutation.kind == "extra" and not self.state.get("extra_done"):
            refused = [
                file
                for file in listed.values()
                if isinstance(decide_row(file, self.ctx.time_zone), Refusal)
            ]
            if refused:
                APPLIED.add("extra")
                self.state["extra_done"] = True
                file = refused[0]
                return [*rows, {**(rows[0] if rows else _blank()), "file_id": file.file_id}]
        return rows


def _blank() -> Row:
    return {
        "file_id": "",
        "call_local_datetime": "2026-01-01T00:00:00+00:00",
        "direction": "incoming",
        "manager_code": "M001",
        "manager_name": "x",
        "phone": "0",
        "duration_sec": "1",
        "source_link": "drive://file/x",
    }


__all__ = ["APPLIED", "KINDS", "MUTATION", "MutatingImporter", "Mutation"]
