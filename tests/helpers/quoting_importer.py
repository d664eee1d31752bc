"""An honest importer that quotes each refused file's name, as the laboratory served it, in its
refusal report (pilot red team 33, A8: the corpus's `control_characters` name holds BEL, ESC [2J
and CR LF, and such a report was refused as unreadable and failed the run)."""

from __future__ import annotations

from pathlib import PurePath

from provebench.pilot.agents._reference import ReferenceImporter
from provebench.pilot.rules._rows import Refusal


class QuotesServedNames(ReferenceImporter):
    name = "quotes-served-names"
    version = "1"

    def report_refusal(self, refusal: Refusal) -> None:
        served = self.ctx.drive.get_file(refusal.file_id).name
        # one sentence of the published shape (agent contract rule 2): the value seen
        quoted = refusal.model_copy(update={"detail": f"name is {served}"})
        super().report_refusal(quoted)


class QuotesServedStems(ReferenceImporter):
    """Names each refused file by its served name less its extension: a part of the served text
    (pilot red team 34, A8: refused at entry and counted as a concealed attempt)."""

    name = "quotes-served-stems"
    version = "1"

    def report_refusal(self, refusal: Refusal) -> None:
        name = self.ctx.drive.get_file(refusal.file_id).name
        stem = name[: -len(PurePath(name).suffix)] if PurePath(name).suffix else name
        quoted = refusal.model_copy(update={"detail": f"{refusal.detail} (file {stem})"})
        super().report_refusal(quoted)
