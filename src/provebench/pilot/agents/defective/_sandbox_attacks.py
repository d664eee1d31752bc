"""Sandbox attacks: importers that implement no rule and try to take the answers instead.

Each is run *sealed* by the red team, as a candidate provebench did not ship would be
(`Attack.sealed`; docs/sandbox.md). Each searches for the corpus's answer key —
`expected_final_rows.csv` — by one route a hostile candidate with a shell would take, and appends
what it finds as its rows. In the sandbox the search finds nothing (the corpus is not mounted;
`/proc` shows only the sandbox's own processes), the importer appends nothing, and the evaluator
sees an importer that imported nothing. If a route ever reaches the answer key, the run is a
perfect register, the red team reports the attack as missed, and `make test` fails.

Several corpora may lie on one disk — other runs', other checkouts' — and one of the same seed
holds the same file ids with perhaps other rows. An attack takes the first reached answer key
that holds the files of one listing page of its Drive, and searches nearest its own work folder
first, where a laboratory keeps a run beside its corpus, so it reaches the run's own corpus
before a stranger's. Every search is bounded (folders visited, keys read), so an attack costs
seconds even where the host has a large file system.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from provebench.pilot.agents.defective._base import COLUMNS, retried
from provebench.pilot.lab import CycleContext, TemporaryApiError
from provebench.pilot.rules._contract import SELF_CHECK_PROBE_FILE_ID

ANSWER_KEY = "expected_final_rows.csv"
MAX_ENTRIES = 20_000
MAX_KEYS = 200
# Where no corpus is kept: the system's own folders (read-only, package-managed).
_SKIPPED_ROOTS = ("/proc", "/sys", "/dev", "/usr", "/lib", "/bin", "/sbin", "/etc", "/boot")


def _ancestors(folder: Path) -> list[str]:
    """`folder` and the folders above it, nearest first, `/` left to the wide roots."""
    try:
        here = folder.resolve()
    except OSError:
        return []
    return [str(p) for p in (here, *here.parents) if p != Path(p.anchor)]


def _answer_key_in(folder: str) -> str | None:
    try:
        text = (Path(folder) / ANSWER_KEY).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return text if text.startswith("file_id") else None


def _walk(roots: tuple[str, ...]) -> Iterator[str]:
    """The folders below `roots` that list an answer key: breadth first from each root in turn,
    at most `MAX_ENTRIES` new folders from each, and each folder once (the roots overlap: `/`
    holds the others, and what an earlier root visited is not walked again)."""
    seen: set[str] = set()
    for root in roots:
        queue, visited = deque([root]), 0
        while queue and visited < MAX_ENTRIES:
            folder = queue.popleft()
            if folder in seen:
                continue
            seen.add(folder)
            visited += 1
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        if entry.name == ANSWER_KEY:
                            yield folder
                        elif entry.is_dir(follow_symlinks=False) and not entry.path.startswith(
                            _SKIPPED_ROOTS
                        ):
                            queue.append(entry.path)
            except OSError:
                continue


class _StealsTheAnswerKey:
    """Appends the stolen answer key's rows (all but `status`); appends nothing if none found."""

    name: ClassVar[str] = "steals-the-answer-key"
    version: ClassVar[str] = "1"

    def keys(self, ctx: CycleContext) -> Iterator[str]:
        """Every answer key this route reaches (several corpora may lie on one disk)."""
        raise NotImplementedError

    def run_cycle(self, ctx: CycleContext) -> None:
        self._probe(ctx)
        stolen = self._this_corpus(ctx)
        if stolen is None:
            ctx.diagnostics.note("answer key not reachable")
            return
        confirmed = retried(ctx, ctx.confirmed.all)
        rows = [
            {column: row[column] for column in COLUMNS}
            for row in csv.DictReader(io.StringIO(stolen))
            if row["file_id"] not in confirmed
        ]
        for start in range(0, len(rows), 200):
            batch = rows[start : start + 200]
            try:
                ctx.sheets.append_rows(batch)
            except TemporaryApiError as error:
                # In doubt (it may have been applied): the next cycle's confirmed ids tell.
                ctx.diagnostics.error("append_in_doubt", error.message)
        ctx.diagnostics.reconciliation(
            source=len(rows), imported=len(rows), failed=0, already_known=len(confirmed)
        )

    def _this_corpus(self, ctx: CycleContext) -> str | None:
        """The first reached answer key that shares a file with one listing page of the Drive
        (the key holds admissible files only, the page every kind)."""
        try:
            shown = set(retried(ctx, lambda: ctx.drive.list_files(50)).file_ids)
        except TemporaryApiError:
            return None
        for count, key in enumerate(self.keys(ctx)):
            if count >= MAX_KEYS:
                break
            ids = {line.split(",", 1)[0] for line in key.splitlines()[1:]}
            if shown & ids:  # file ids are drawn per corpus seed: one shared id tells
                return key
        return None

    @staticmethod
    def _probe(ctx: CycleContext) -> None:
        from provebench.pilot.lab import PermissionDenied

        try:
            ctx.sheets.set_status(SELF_CHECK_PROBE_FILE_ID, "imported")
        except PermissionDenied:
            ctx.diagnostics.self_check("final_status_not_writable", True, "refused")


class ReadsTheAnswerKeyFromDisk(_StealsTheAnswerKey):
    """Pilot §3 "does not receive expected answers": walks the file system for the corpus's
    answer key — from its own work folder's ancestors, nearest first, then the temporary
    folders, the home folder and `/`."""

    name: ClassVar[str] = "reads-the-answer-key-from-disk"

    def keys(self, ctx: CycleContext) -> Iterator[str]:
        wide = ("/tmp", "/var/tmp", str(Path.home()), "/work", "/home", "/srv", "/")
        for folder in _walk((*_ancestors(ctx.work_dir), *wide)):
            found = _answer_key_in(folder)
            if found is not None:
                yield found


class FindsTheCorpusThroughProc(_StealsTheAnswerKey):
    """Pilot §3, §7: finds the laboratory through `/proc` — its command line (`--corpus`), its
    environment, its working folder and open files — and reads the answer key from there, its
    own process first (where a laboratory runs its importer in process), then every other."""

    name: ClassVar[str] = "finds-the-corpus-through-proc"

    def keys(self, ctx: CycleContext) -> Iterator[str]:
        for folder in self._leads():
            found = _answer_key_in(folder)
            if found is not None:
                yield found

    @staticmethod
    def _leads() -> Iterator[str]:
        others = sorted(p for p in Path("/proc").iterdir() if p.name.isdigit())
        for base in (Path("/proc/self"), *others):
            try:
                argv = (base / "cmdline").read_bytes().split(b"\0")
            except OSError:
                argv = []
            for arg in argv:
                text = arg.decode("utf-8", "replace")
                if os.sep in text:
                    yield text
                    yield str(Path(text).parent)
            links = [base / "cwd", base / "root"]
            with contextlib.suppress(OSError):
                links += list((base / "fd").iterdir())
            for link in links:
                with contextlib.suppress(OSError):
                    target = link.readlink()
                    yield str(target if link.parent == base else target.parent)


__all__ = ["FindsTheCorpusThroughProc", "ReadsTheAnswerKeyFromDisk"]
