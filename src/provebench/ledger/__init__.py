"""provebench.ledger: the external, append-only, hash-chained log (pilot §6, §7, §9, §15).

    with Ledger.open(path) as ledger:          # the laboratory is the only writer
        ledger.append("drive.list", {"page": 1})
    report = verify_ledger(path, expect_head=recorded_head)

Format, hash encoding and guarantees: docs/ledger.md.

Names are imported on first use (PEP 562), so that `provebench` starts fast and a
command loads only the modules it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.ledger._anchor import (
        ANCHOR_FORMAT,
        AnchorCheck,
        check_anchors,
    )
    from provebench.ledger._entry import (
        FORMAT_NAME,
        FORMAT_VERSION,
        GENESIS_HASH,
        LedgerEntry,
    )
    from provebench.ledger._ledger import (
        Ledger,
    )
    from provebench.ledger._report import (
        LedgerProblem,
        ProblemKind,
        VerifyReport,
    )
    from provebench.ledger._verify import (
        verify_ledger,
    )

_EXPORTS: dict[str, str] = {
    "ANCHOR_FORMAT": "provebench.ledger._anchor",
    "AnchorCheck": "provebench.ledger._anchor",
    "check_anchors": "provebench.ledger._anchor",
    "FORMAT_NAME": "provebench.ledger._entry",
    "FORMAT_VERSION": "provebench.ledger._entry",
    "GENESIS_HASH": "provebench.ledger._entry",
    "LedgerEntry": "provebench.ledger._entry",
    "Ledger": "provebench.ledger._ledger",
    "LedgerProblem": "provebench.ledger._report",
    "ProblemKind": "provebench.ledger._report",
    "VerifyReport": "provebench.ledger._report",
    "verify_ledger": "provebench.ledger._verify",
}


__all__ = [
    "ANCHOR_FORMAT",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "GENESIS_HASH",
    "AnchorCheck",
    "Ledger",
    "LedgerEntry",
    "LedgerProblem",
    "ProblemKind",
    "VerifyReport",
    "check_anchors",
    "verify_ledger",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
