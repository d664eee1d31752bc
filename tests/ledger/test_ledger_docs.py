"""docs/ledger.md stays true: its worked hash example and its stand-alone export checker."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

from provebench.ledger import GENESIS_HASH, Ledger

DOC = Path(__file__).resolve().parents[2] / "docs" / "ledger.md"


def _code_block_after(marker: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(marker)
    match = re.search(r"```(?:python)?\n(.*?)```", text[start:], flags=re.DOTALL)
    assert match is not None
    return match.group(1)


def test_worked_example_matches_the_implementation(tmp_path: Path) -> None:
    hashed = _code_block_after("**Hashed bytes.**").strip()
    text = DOC.read_text(encoding="utf-8")
    documented_hash = re.search(r"whose sha256 is `([0-9a-f]{64})`", text)
    assert documented_hash is not None
    assert hashlib.sha256(hashed.encode("utf-8")).hexdigest() == documented_hash.group(1)
    assert GENESIS_HASH in text
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        entry = ledger.append("drive.list", {"page": 1, "file_ids": ["f01"]})
    assert entry.hashed_text() == hashed
    assert entry.hash == documented_hash.group(1)


def test_standalone_checker_accepts_an_export_and_rejects_an_edit(tmp_path: Path) -> None:
    checker = tmp_path / "check.py"
    checker.write_text(_code_block_after("Anyone can check an export"), encoding="utf-8")
    with Ledger.open(tmp_path / "log.sqlite") as ledger:
        entries = ledger.append_many([("event", {"i": i, "name": "é"}) for i in range(5)])
        ledger.export_jsonl(tmp_path / "log.jsonl")
    done = subprocess.run(
        [sys.executable, str(checker), str(tmp_path / "log.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["5", entries[-1].hash]
    export = tmp_path / "log.jsonl"
    export.write_text(export.read_text(encoding="utf-8").replace('"i":3', '"i":4'), "utf-8")
    done = subprocess.run(
        [sys.executable, str(checker), str(export)], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0 and "line 4: hash" in done.stderr
