"""provebench.ledger: the external, append-only, hash-chained log (pilot §6, §7, §9, §15).

    with Ledger.open(path) as ledger:          # the laboratory is the only writer
        ledger.append("drive.list", {"page": 1})
    report = verify_ledger(path, expect_head=recorded_head)

Format, hash encoding and guarantees: docs/ledger.md.
"""

from provebench.ledger._entry import FORMAT_NAME, FORMAT_VERSION, GENESIS_HASH, LedgerEntry
from provebench.ledger._ledger import Ledger
from provebench.ledger._report import LedgerProblem, ProblemKind, VerifyReport
from provebench.ledger._verify import verify_ledger

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "GENESIS_HASH",
    "Ledger",
    "LedgerEntry",
    "LedgerProblem",
    "ProblemKind",
    "VerifyReport",
    "verify_ledger",
]
