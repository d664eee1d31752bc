"""The reference importer's journal: what it remembers between cycles, in its work directory.

* `intents` — the rows of the cycle, written down BEFORE the first append call of the cycle. The
  next cycle drops the rows whose file_id the lab has confirmed and appends the others again. So
  an append that failed, timed out, or "failed" after taking effect (pilot §14, "a temporary
  failure between reading and writing"), and a crash between an append and any bookkeeping, all
  end in exactly one confirmed row per file_id.
* `failed` — files refused under the public rules and already reported, by reason code.
* `cycles`, `zone` — for the self-checks (a zone change is reported when it happens).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from provebench._canonical import compact_json, write_atomic

JOURNAL_FILE = "journal.json"


@dataclass
class Journal:
    cycles: int = 0
    zone: str | None = None
    failed: dict[str, str] = field(default_factory=dict)
    intents: list[list[str]] = field(default_factory=list)

    @classmethod
    def load(cls, work_dir: Path) -> Journal:
        path = work_dir / JOURNAL_FILE
        if not path.is_file():
            return cls()
        state: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            cycles=int(state["cycles"]),
            zone=state["zone"],
            failed=dict(state["failed"]),
            intents=state["intents"],
        )

    def save(self, work_dir: Path) -> None:
        state = {
            "cycles": self.cycles,
            "zone": self.zone,
            "failed": self.failed,
            "intents": self.intents,
        }
        write_atomic(work_dir / JOURNAL_FILE, compact_json(state))


__all__ = ["JOURNAL_FILE", "Journal"]
