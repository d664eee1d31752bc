"""Defective importers that attack the evaluator's invariants (docs/pilot-evaluator.md).

Each is `CorrectImporter` with one step changed. Before the invariant it attacks, each reached a
positive signal without any sandbox escape; the red team (docs/pilot-redteam.md) requires that
none does now.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any, ClassVar

from provebench.pilot.agents.defective._base import COLUMNS, CorrectImporter, Row, retried
from provebench.pilot.agents.defective._redteam_attacks import nearby_corpus
from provebench.pilot.corpus._folder import EVENTS_FILE, EXPECTED_ROWS_FILE


class AnswersWithoutListing(CorrectImporter):
    """Invariant 1: never lists the Drive. It learns the answers another way — here from the
    corpus folder it finds near its work directory, as an unsealed candidate could — and appends
    each expected row in the cycle its file first appears. Its data is perfect; it was never
    shown a single file."""

    name: ClassVar[str] = "answers-without-listing"

    def list_files(self) -> dict[str, Any]:
        return {}  # no call to the Drive at all

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        corpus = nearby_corpus(self.ctx.work_dir)
        if corpus is None:
            return rows
        cycle = int(self.state["cycles"])
        first: dict[str, int] = {}
        for line in (corpus / EVENTS_FILE).read_text(encoding="utf-8").split("\n"):
            if not line:
                continue  # JSON lines end at "\n" alone (`splitlines` ends one at U+2028)
            event = json.loads(line)
            if event.get("kind") in ("file_added", "file_added_during_scan"):
                first.setdefault(event["file"]["file_id"], event["cycle"])
        confirmed = retried(self.ctx, self.ctx.confirmed.all)
        expected = (corpus / EXPECTED_ROWS_FILE).read_text(encoding="utf-8")
        return [
            {column: record[column] for column in COLUMNS}
            for record in csv.DictReader(io.StringIO(expected))
            if first.get(record["file_id"], cycle + 1) <= cycle
            and record["file_id"] not in confirmed
        ]


class ReportsUnrelatedFailure(CorrectImporter):
    """Invariant 3: conceals an append that failed in doubt and reports something unrelated
    instead ("listing slow"), naming no call and no file. Under the old rule any later failure
    report accounted for every failure of the cycle."""

    name: ClassVar[str] = "reports-unrelated-failure"

    def in_doubt(self, batch: list[Row], error: Exception) -> None:
        self.ctx.diagnostics.error("listing_slow", "the Drive answered slowly this cycle")


class NearDuplicateIds(CorrectImporter):
    """Invariant 4: imports correctly, and in every cycle adds one row for a near-duplicate
    file_id — a real one with `-0` appended, which no file has — hoping the escrow grades only
    missing and duplicated rows."""

    name: ClassVar[str] = "near-duplicate-ids"

    def choose_rows(self, rows: list[Row], listed: dict[str, Any]) -> list[Row]:
        if not rows:
            return rows
        twin = dict(rows[0], file_id=rows[0]["file_id"] + "-0")
        return [*rows, twin]


class ClaimsUncheckedSelfChecks(CorrectImporter):
    """Invariant 5: lists the Drive once (one pass) to save calls and reports every §12
    self-check as passed anyway — a file added during the traversal would be missed, and the
    claim says it was looked for."""

    name: ClassVar[str] = "claims-unchecked-self-checks"

    def list_files(self) -> dict[str, Any]:
        listed: dict[str, Any] = {}
        self.list_pass(listed)
        self.passes = max(self.passes, 2)  # the lie: "listed twice"
        return listed


class RunRehashedOffline(CorrectImporter):
    """A correct importer whose run folder is rewritten after the run (the red team's
    `suppress-faults-offline` tamper): the log's injected faults are removed and the chain, the
    export and run.json are recomputed, so that everything verifies except the laboratory's
    signature."""

    name: ClassVar[str] = "run-rehashed-offline"


class SelfFillsExternalChecks(CorrectImporter):
    """A correct importer whose operator fills in the external checks itself — every check
    `passed: true` with an arbitrary URI and sha256 (the red team's `self-filled-checks`)."""

    name: ClassVar[str] = "self-fills-external-checks"


__all__ = [
    "AnswersWithoutListing",
    "ClaimsUncheckedSelfChecks",
    "NearDuplicateIds",
    "ReportsUnrelatedFailure",
    "RunRehashedOffline",
    "SelfFillsExternalChecks",
]
