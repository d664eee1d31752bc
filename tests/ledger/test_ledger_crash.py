"""Crash safety: SIGKILL at a random moment never leaves half an entry or half a batch."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from provebench.ledger import Ledger, verify_ledger

BATCH = 50

# Appends forever, alternating single appends and batches; prints each acknowledged head.
WRITER = f"""
import sys
from provebench.ledger import Ledger
with Ledger.open(sys.argv[1]) as ledger:
    while True:
        start = len(ledger)
        if start % 3 == 0:
            done = ledger.append_many([("batch", {{"i": start + k}}) for k in range({BATCH})])
        else:
            done = [ledger.append("single", {{"i": start}})]
        print(done[-1].seq, done[-1].hash, flush=True)
"""


def _kill_writer_at_random(path: Path, rng: random.Random) -> tuple[int, str]:
    """Run the writer, SIGKILL it at a random moment; return the last acknowledged seq, hash."""
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    assert child.stdout is not None
    first = child.stdout.readline()  # the writer is up and has committed at least once
    assert first, "writer did not start"
    time.sleep(rng.uniform(0.02, 0.3))
    child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    acknowledged = [first, *rest.splitlines()]
    last = [line for line in acknowledged if line.strip()][-1].split()
    if len(last) != 2:  # the kill cut the last printed line; the one before is whole
        last = [line for line in acknowledged if line.strip()][-2].split()
    return int(last[0]), last[1]


def test_sigkill_mid_append_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    rng = random.Random(3)
    for _ in range(3):
        acked_seq, acked_hash = _kill_writer_at_random(path, rng)
        report = verify_ledger(path)
        assert report.ok, [p.one_line() for p in report.problems]
        with Ledger.open(path) as ledger:
            # Durability: everything acknowledged before the kill is there, unchanged.
            assert len(ledger) >= acked_seq + 1
            assert next(ledger.entries(acked_seq)).hash == acked_hash
            # Atomicity: batches are whole (a batch starts at a multiple of 3, has BATCH items).
            entries = list(ledger.entries())
            seq = 0
            while seq < len(entries):
                if entries[seq].kind == "batch":
                    group = entries[seq : seq + BATCH]
                    assert [e.kind for e in group] == ["batch"] * BATCH
                    assert [e.payload["i"] for e in group] == list(range(seq, seq + BATCH))
                    seq += BATCH
                else:
                    seq += 1
            # The chain continues from the last committed entry.
            head = ledger.head()
            assert head is not None
            resumed = ledger.append("resumed", {"after": head.seq})
            assert resumed.seq == head.seq + 1 and resumed.prev_hash == head.hash
        assert verify_ledger(path, expect_head=resumed.hash, expect_length=resumed.seq + 1).ok


def test_readers_verify_a_live_log_while_the_writer_appends(tmp_path: Path) -> None:
    """WAL: a reader sees a consistent committed prefix while the single writer appends."""
    path = tmp_path / "log.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline()
        lengths = []
        for _ in range(5):
            report = verify_ledger(path)
            assert report.ok, [p.one_line() for p in report.problems]
            lengths.append(report.length)
            with Ledger.open_readonly(path) as reader:
                head = reader.head()
                assert head is not None and len(reader) >= head.seq + 1
            time.sleep(0.05)
        assert lengths == sorted(lengths) and lengths[-1] > 0
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=30)
    assert verify_ledger(path).ok
