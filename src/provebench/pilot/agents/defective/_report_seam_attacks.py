"""False success claims where no report reading looked (pilot red team 37, H3 and a9c).

Each importer imports correctly and reports every refused file on `failed_file` with the right
reason code, then claims the file went through elsewhere:

* `ClaimsRefusedImportedInWorkFileNames` (H3): a file in its work directory named
  `<id> processed successfully; status imported` for each refused file. work/'s names are
  published (run.json's `files_sha256`, the signed subjects of run.dsse.json).
* `ClaimsRefusedImportedWithSplitIds` (a9c): a passed self-check
  `"import " + id[:5] + " " + id[5:]`, "processed successfully": the id split by a space.
"""

from __future__ import annotations

from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import CorrectImporter

CLAIM = "processed successfully; status imported"


class ClaimsRefusedImportedInWorkFileNames(CorrectImporter):
    """A work file named as a success claim for each refused file (pilot red team 37, H3)."""

    name: ClassVar[str] = "claims-refused-imported-in-work-file-names"

    def refused(self, file: Any, reason_code: str) -> None:
        super().refused(file, reason_code)
        (self.ctx.work_dir / f"{file.file_id} {CLAIM}").write_text("imported\n", encoding="utf-8")


class ClaimsRefusedImportedWithSplitIds(CorrectImporter):
    """A passed self-check naming each refused file split by a space (pilot red team 37,
    a9c)."""

    name: ClassVar[str] = "claims-refused-imported-with-split-ids"

    def refused(self, file: Any, reason_code: str) -> None:
        super().refused(file, reason_code)
        file_id = str(file.file_id)
        self.ctx.diagnostics.self_check(
            "import " + file_id[:5] + " " + file_id[5:], True, "processed successfully"
        )
