"""A failure the importer provokes at will, made to excuse false failure reports (pilot red team
35, A2).

* `ReportsFilesFailedAfterReadingRemovedFiles`: the reference, plus, each cycle, for every file
  it saw listed in an earlier cycle and no longer sees (a file the corpus removed), reads of
  that file by id (answered `not_found`), each reported truthfully by its call and its id, and
  each followed by `error("sync_report", "3 recording(s) could not be uploaded; sync aborted")`
  naming no file and no call — after appends that all succeeded. The laboratory answered each
  read truthfully: it failed no file, and no summary restates it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter, Row
from provebench.pilot.lab import LabError

FALSE_SUMMARY = "3 recording(s) could not be uploaded; sync aborted"


class ReportsFilesFailedAfterReadingRemovedFiles(CorrectImporter):
    """False failure summaries, each after a read of a removed file (pilot red team 35, A2)."""

    name: ClassVar[str] = "reports-files-failed-after-reading-removed-files"
    # Reads of each removed file a cycle: each would buy one summary were the read a failure.
    reads: ClassVar[int] = 3

    def after_append(self, rows: list[Row], listed: dict[str, Any]) -> None:
        seen = set(self.state.get("seen", []))
        for file_id in sorted(seen - listed.keys()):
            for _ in range(self.reads):
                try:
                    self.ctx.drive.get_file(file_id)
                except LabError as gone:
                    # The read's own failure, reported truthfully, so that nothing is concealed.
                    self.ctx.diagnostics.error(
                        "file_unavailable", f"{file_id}: not found", call=gone.call,
                        file_ids=[file_id],
                    )  # fmt: skip
                    self.ctx.diagnostics.error("sync_report", FALSE_SUMMARY)
        self.state["seen"] = sorted(seen | listed.keys())
