"""work/ as the laboratory left it, cycle after cycle (docs/attestation.md, "What runs is what
was identified"; pilot §6: the log is the record).

Between two cycles the run folder's work/ lies on disk, writable by any process of the user the
laboratory runs as. What a candidate finds there must nevertheless be what the laboratory
committed at the end of the previous cycle — else a file written from outside (a mode switch,
red team round 10, A6) steers a sealed candidate, and the log records the switch as if the
candidate had written it. So the laboratory keeps, in memory, the listing of work/ it committed
(`work_listing`: every entry's kind, mode, name and content digest), and:

- checks the copy a sealed cycle's folder receives, after copying (`check`): a write between a
  check and a copy cannot slip through; a difference stops the run in one line naming the file,
  before anything of the cycle is committed or signed;
- takes the listing it commits from the cycle's own folder as the candidate left it (`keep`),
  not from the run folder it is then copied back into.

An in-process importer works in the run folder itself: its work/ is checked before it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from provebench._errors import ProvebenchError
from provebench.pilot.record._work_digest import WorkListing, first_difference, work_listing


class WorkChangedOutside(ProvebenchError):
    """work/ is not what the laboratory committed: the run stops (never the candidate's
    failure, never committed)."""


class WorkGuard:
    """One cycle's view of work/: what the laboratory committed (`expected`, from memory) and
    what the cycle leaves (`kept`, None until a sealed cycle's folder carries it back)."""

    def __init__(self, expected: WorkListing, run_work_dir: Path) -> None:
        self.expected = expected
        self.run_work_dir = run_work_dir
        self.kept: WorkListing | None = None

    def check(self, folder: Path) -> None:
        """`folder` (a copy of work/ about to be shown to the candidate, or work/ itself) must
        hold exactly what the laboratory committed."""
        changed = first_difference(work_listing(folder), self.expected)
        if changed is not None:
            shown = f"work/{changed}" if changed else "work/"
            raise WorkChangedOutside(
                f"{shown} changed outside the laboratory between cycles; the run is stopped "
                "(nothing of this cycle is committed or signed)",
                path=self.run_work_dir / changed if changed else self.run_work_dir,
            )

    def check_copy(self, folder: Path) -> None:
        """A sealed cycle's copy of work/, checked after copying: until the cycle carries its
        folder back (`keep`), work/ stays what was committed (a folder over the size limit is
        never carried back)."""
        self.check(folder)
        self.kept = self.expected

    def keep(self, folder: Path) -> None:
        """The cycle's work/ as the candidate left it, read once: what the cycle commits, and
        what the next cycle's copy must equal."""
        self.kept = work_listing(folder)


def work_guard_of(ctx: Any) -> WorkGuard | None:
    """The guard `run_cycle` gave a cycle's context (None for a context made elsewhere)."""
    guard: WorkGuard | None = getattr(ctx, "_work_guard", None)
    return guard


__all__ = ["WorkChangedOutside", "WorkGuard", "work_guard_of"]
