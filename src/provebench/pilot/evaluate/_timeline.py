"""The confirmed register cycle by cycle, joined with the snapshot (the basis of every metric).

For each file_id: how many rows the lab confirmed in each cycle, the first cycle with a row, the
rows it was attempted and acknowledged in (`sheets.append` entries), and whether the importer
claimed it processed on the diagnostics channel. Diagnostics are read only to find claims that
the log contradicts (pilot §9: the agent's report never counts as evidence of success).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from provebench.pilot.evaluate._log import FILE_ID_INDEX, AppendCall, LogFacts
from provebench.pilot.evaluate._rules import FAILURE_CHANNELS
from provebench.pilot.evaluate._snapshot import Snapshot


@dataclass
class Timeline:
    snapshot: Snapshot
    log: LogFacts
    cycles: int
    rows_by_cycle: dict[int, list[tuple[list[str], AppendCall]]]
    confirmed_count: Counter[str]
    confirmed_cycles: dict[str, list[int]]
    attempted: Counter[str]
    acknowledged: Counter[str]
    first_attempt_acknowledged: dict[str, bool]
    claims: dict[str, list[int]]  # file_id -> seqs of diagnostics entries claiming success
    last_row: dict[str, tuple[int, list[str]]] = field(default_factory=dict)

    def first_confirmed(self, file_id: str) -> int | None:
        cycles = self.confirmed_cycles.get(file_id)
        return cycles[0] if cycles else None

    def count_by(self, file_id: str, cycle: int) -> int:
        return sum(1 for c in self.confirmed_cycles.get(file_id, ()) if c <= cycle)


def build_timeline(snapshot: Snapshot, log: LogFacts) -> Timeline:
    rows_by_cycle: dict[int, list[tuple[list[str], AppendCall]]] = {}
    confirmed_count: Counter[str] = Counter()
    confirmed_cycles: dict[str, list[int]] = defaultdict(list)
    attempted: Counter[str] = Counter()
    acknowledged: Counter[str] = Counter()
    first_ack: dict[str, bool] = {}
    claims: dict[str, list[int]] = defaultdict(list)
    last_row: dict[str, tuple[int, list[str]]] = {}
    for cycle in log.cycles:
        confirmed = cycle.confirmed_rows()
        rows_by_cycle[cycle.cycle] = confirmed
        for row, _ in confirmed:
            file_id = row[FILE_ID_INDEX]
            confirmed_count[file_id] += 1
            confirmed_cycles[file_id].append(cycle.cycle)
            last_row[file_id] = (cycle.cycle, row)
        for call in cycle.appends:
            for row in call.rows:
                file_id = row[FILE_ID_INDEX] if row else ""
                attempted[file_id] += 1
                acknowledged[file_id] += call.acknowledged
                first_ack.setdefault(file_id, call.acknowledged)
        for entry in cycle.diagnostics:
            payload = entry.payload
            named = payload.get("file_id")
            channel = payload.get("channel")
            reports_failure = isinstance(channel, str) and channel in FAILURE_CHANNELS
            if isinstance(named, str) and not reports_failure:
                claims[named].append(entry.seq)
    return Timeline(
        snapshot=snapshot,
        log=log,
        cycles=len(log.cycles),
        rows_by_cycle=rows_by_cycle,
        confirmed_count=confirmed_count,
        confirmed_cycles=dict(confirmed_cycles),
        attempted=attempted,
        acknowledged=acknowledged,
        first_attempt_acknowledged=first_ack,
        claims=dict(claims),
        last_row=last_row,
    )


__all__ = ["Timeline", "build_timeline"]
