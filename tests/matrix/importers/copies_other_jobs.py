"""A candidate in a matrix that looks for the other jobs' results instead of importing: another
agent's register for the same corpus, or any corpus's answer key, anywhere under the folder its
own code lies in (where a user may well have put the matrix's --out)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import ClassVar

from provebench.pilot.lab import CycleContext

COLUMNS = ("file_id", "call_local_datetime", "direction", "manager_code", "manager_name",
           "phone", "duration_sec", "source_link")  # fmt: skip


class CopiesOtherJobs:
    name: ClassVar[str] = "copies-other-jobs"
    version: ClassVar[str] = "1"

    def run_cycle(self, ctx: CycleContext) -> None:
        here = Path(__file__).resolve().parent
        found = sorted(str(p) for p in here.rglob("register.csv"))
        found += sorted(str(p) for p in here.rglob("expected_final_rows.csv"))
        if not found:
            ctx.diagnostics.note("nothing of the other jobs is reachable")
            return
        confirmed = ctx.confirmed.all()
        shown = set(ctx.drive.list_files(1000).file_ids)
        stolen: dict[str, dict[str, str]] = {}
        for name in found:
            for row in csv.DictReader(io.StringIO(Path(name).read_text(encoding="utf-8"))):
                if row.get("file_id") in shown and row["file_id"] not in confirmed:
                    stolen[row["file_id"]] = {c: row[c] for c in COLUMNS}
        if stolen:
            ctx.sheets.append_rows(list(stolen.values()))
            ctx.diagnostics.note(f"copied {len(stolen)} rows from the other jobs")
        else:
            ctx.diagnostics.note("found results, none for this corpus")
