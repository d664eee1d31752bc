"""Attacks on a finished run folder, applied by the red team before the evaluation.

Not every attack is an importer: someone with the run folder and no key can rewrite it after the
run, and an operator can fill the external checks in by hand. Each tamper takes the run folder
and returns extra arguments for `evaluate_run`.

* `suppress-faults-offline`: removes every `fault_injected` entry from the log, rebuilds the hash
  chain and its export, and re-records run.json's head, length and file hashes — a run folder
  re-hashed offline so that every check that only compares the folder with itself passes. The
  laboratory's signature (run.dsse.json) is what it cannot redo.
* `self-filled-checks`: an external-checks file with every check `passed: true`, an arbitrary
  URI and a made-up sha256.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from provebench._canonical import canonical_json, sha256_file, write_atomic
from provebench.ledger import Ledger
from provebench.pilot.record._rundir import LEDGER_EXPORT_FILE, LEDGER_FILE, RUN_RECORD_FILE
from provebench.pilot.rules._contract import external_checks_template

Edit = Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]] | None]


def suppress_faults_offline(run_dir: Path) -> dict[str, Any]:
    rewrite_log_offline(run_dir, _without_faults)
    return {}


def _without_faults(kind: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    return None if kind == "fault_injected" else (kind, payload)


def rewrite_log_offline(run_dir: Path, edit: Edit) -> None:
    """Rewrite the run's log entry by entry (`edit` returns the new entry, or None to drop it),
    then rebuild the hash chain, its export and run.json's record of them: everything a holder
    of the folder can redo without the laboratory's key."""
    with Ledger.open_readonly(run_dir / LEDGER_FILE) as ledger:
        kept = [
            edited
            for entry in ledger.entries()
            if (edited := edit(entry.kind, entry.payload)) is not None
        ]
    rebuilt = run_dir / f".{LEDGER_FILE}.rebuilt"
    rebuilt.unlink(missing_ok=True)
    with Ledger.open(rebuilt) as ledger:
        ledger.append_batch(kept)
        head = ledger.head()
        length = len(ledger)
        ledger.export_jsonl(run_dir / LEDGER_EXPORT_FILE)
    for companion in ("-wal", "-shm"):
        Path(f"{rebuilt}{companion}").unlink(missing_ok=True)
    rebuilt.replace(run_dir / LEDGER_FILE)
    record = json.loads((run_dir / RUN_RECORD_FILE).read_text(encoding="utf-8"))
    record["ledger"] = {"length": length, "head_hash": None if head is None else head.hash}
    for name in (LEDGER_FILE, LEDGER_EXPORT_FILE):
        record["files_sha256"][name] = sha256_file(run_dir / name)
    write_atomic(run_dir / RUN_RECORD_FILE, canonical_json(record))


def self_filled_checks(run_dir: Path) -> dict[str, Any]:
    filled = external_checks_template()
    for check in filled["external_checks"]:
        check["passed"] = True
        check["evidence"] = [
            {"description": "trust me", "uri": "https://example.invalid/ok", "sha256": "0" * 64}
        ]
    path = run_dir.parent / "external_checks_filled.json"
    write_atomic(path, canonical_json(filled))
    return {"external_checks": path}


TAMPERS: dict[str, Callable[[Path], dict[str, Any]]] = {
    "suppress-faults-offline": suppress_faults_offline,
    "self-filled-checks": self_filled_checks,
}

__all__ = ["TAMPERS", "rewrite_log_offline", "self_filled_checks", "suppress_faults_offline"]
