"""What `verify_ledger` returns: the chain's length and head, and every problem found, named."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

ProblemKind = Literal[
    "edited",  # an entry's content does not match its hash, or its encoding is not canonical
    "deleted",  # seq numbers are missing, or later entries were renumbered to close a gap
    "inserted",  # a seq appears twice, or later entries were renumbered to open a slot
    "reordered",  # entries appear out of seq order, or hold the content of another seq
    "broken_link",  # prev_hash is not the hash of the entry before (an entry was re-hashed)
    "malformed",  # a row or line that is not a ledger entry at all
    "truncated",  # fewer entries than the recorded head/length says
    "extended",  # entries beyond the recorded head/length
    "schema",  # the SQLite file's append-only triggers were removed
]

# A tampered log can yield one problem per entry; the report keeps this many and counts the rest.
MAX_REPORTED_PROBLEMS = 1000


class LedgerProblem(BaseModel):
    """One problem: where (seq, and line for JSONL), what, and expected vs found where known."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ProblemKind
    seq: int | None = None
    line: int | None = None
    message: str
    expected: str | None = None
    found: str | None = None

    def one_line(self) -> str:
        where = "log" if self.seq is None else f"seq {self.seq}"
        if self.line is not None:
            where += f" (line {self.line})"
        text = f"{where}: {self.kind}: {self.message}"
        if self.expected is not None or self.found is not None:
            text += f" (expected {self.expected}, found {self.found})"
        return text.replace("\r", "\\r").replace("\n", "\\n")


class VerifyReport(BaseModel):
    """The result of recomputing a ledger's hash chain. `ok` is True only with no problem."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    source: Literal["sqlite", "jsonl"]
    ok: bool
    length: int
    head_seq: int | None
    head_hash: str | None
    tail_checked: bool
    expect_head: str | None = None
    expect_length: int | None = None
    problem_count: int
    problems: list[LedgerProblem]

    def summary(self) -> str:
        """One line for humans: intact with length and head, or the number of problems."""
        head = "none (empty log)" if self.head_hash is None else f"{self.head_hash}"
        if self.ok:
            text = f"intact: {self.length} entries, head seq {self.head_seq}, head hash {head}"
            if not self.tail_checked:
                text += (
                    "; truncation at the tail is only detectable against a recorded head "
                    "(--expect-head HASH / --expect-length N)"
                )
            return text
        return f"TAMPERED: {self.problem_count} problem(s) in {self.length} entries"


class ProblemList:
    """Problems in the order found, capped for the report but counted in full."""

    def __init__(self) -> None:
        self.items: list[LedgerProblem] = []
        self.count = 0

    def add(
        self,
        kind: ProblemKind,
        message: str,
        *,
        seq: int | None = None,
        line: int | None = None,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        self.count += 1
        if len(self.items) < MAX_REPORTED_PROBLEMS:
            self.items.append(
                LedgerProblem(
                    kind=kind, seq=seq, line=line, message=message, expected=expected, found=found
                )
            )


__all__ = [
    "MAX_REPORTED_PROBLEMS",
    "LedgerProblem",
    "ProblemKind",
    "ProblemList",
    "VerifyReport",
]
