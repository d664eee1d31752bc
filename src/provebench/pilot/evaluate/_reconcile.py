"""Reconciliation by file_id in the manner of Jepsen's queue checker (STYLE.md).

Every file_id the snapshot names or the importer wrote is classified: how many of its rows were
*attempted* (in any `sheets.append` call), *acknowledged* (in a call that returned success) and
*confirmed* (applied and confirmed by the lab). Every verdict carries the seven sets (invariant
6): *attempted*, *acknowledged* and *confirmed* — the file_ids with at least one such row — and
*lost* — admissible, never confirmed; *unexpected* — confirmed but not admissible (or unknown
to the snapshot); *duplicated* — more than one confirmed row; *recovered* — admissible,
confirmed exactly once, although its first attempt was not acknowledged (a failed or in-doubt
append that the importer settled).
"""

from __future__ import annotations

from provebench.pilot.evaluate._timeline import Timeline
from provebench.pilot.evaluate._verdict import FileReconciliation, Reconciliation


def reconcile(timeline: Timeline) -> Reconciliation:
    snapshot = timeline.snapshot
    confirmed = timeline.confirmed_count
    ids = sorted(set(snapshot.first_cycle) | set(timeline.attempted) | set(confirmed))
    files = [
        FileReconciliation(
            file_id=file_id,
            admissible=file_id in snapshot.expected,
            first_cycle=snapshot.first_cycle.get(file_id),
            attempted=timeline.attempted.get(file_id, 0),
            acknowledged=timeline.acknowledged.get(file_id, 0),
            confirmed=confirmed.get(file_id, 0),
            confirmed_cycles=timeline.confirmed_cycles.get(file_id, []),
        )
        for file_id in ids
    ]
    lost = sorted(f for f in snapshot.expected if not confirmed.get(f))
    unexpected = sorted(f for f in confirmed if f not in snapshot.expected)
    duplicated = sorted(f for f, n in confirmed.items() if n > 1)
    recovered = sorted(
        f
        for f in snapshot.expected
        if confirmed.get(f) == 1 and timeline.first_attempt_acknowledged.get(f) is False
    )
    attempted = [f for f in ids if timeline.attempted.get(f)]
    acknowledged = [f for f in ids if timeline.acknowledged.get(f)]
    counts = {
        "admissible": len(snapshot.expected),
        "non_admissible": len(snapshot.non_admissible),
        "attempted": len(attempted),
        "acknowledged": len(acknowledged),
        "confirmed": len(confirmed),
        "lost": len(lost),
        "unexpected": len(unexpected),
        "duplicated": len(duplicated),
        "recovered": len(recovered),
    }
    return Reconciliation(
        counts=counts,
        attempted=attempted,
        acknowledged=acknowledged,
        confirmed=sorted(confirmed),
        lost=lost,
        unexpected=unexpected,
        duplicated=duplicated,
        recovered=recovered,
        files=files,
    )


__all__ = ["reconcile"]
