"""The run folder format: the one thing the laboratory writes and the evaluator reads (pilot §9).

Its names (`RunDir` and the file names), the register chain, the listing log format and its
replay, and the laboratory's signature on a run. The laboratory and the evaluator both import
it; it imports neither.
"""

from __future__ import annotations

from provebench.pilot.record._chain import (
    register_chain,
)
from provebench.pilot.record._listing import (
    LISTING_FORMAT,
    ListingReplay,
    listing_result,
    page_digest,
    token_position,
)
from provebench.pilot.record._rundir import (
    DIAGNOSTICS_FILE,
    IDENTITY_FILE,
    LEDGER_EXPORT_FILE,
    LEDGER_FILE,
    REGISTER_FILE,
    RUN_FORMAT,
    RUN_RECORD_FILE,
    RunDir,
)
from provebench.pilot.record._seal import (
    OPENING_FILE,
    REVEAL_ENVELOPE_FILE,
    REVEAL_FILE,
    REVEAL_PREDICATE,
    SEAL_ENVELOPE_FILE,
    SEAL_FILE,
    SEAL_FORMAT,
    SEAL_PREDICATE,
    OpenedSeal,
    commitment,
    fresh_control_finding,
    open_seal,
    seal_values,
)
from provebench.pilot.record._signing import (
    REDTEAM_ENVELOPE_FILE,
    REDTEAM_PREDICATE,
    RUN_ENVELOPE_FILE,
    RUN_PREDICATE,
    VERDICT_PREDICATE,
    run_envelope_problems,
    sign_run,
    sign_verdict,
    signed_verdict,
)

__all__ = [
    "DIAGNOSTICS_FILE",
    "IDENTITY_FILE",
    "LEDGER_EXPORT_FILE",
    "LEDGER_FILE",
    "LISTING_FORMAT",
    "OPENING_FILE",
    "REDTEAM_ENVELOPE_FILE",
    "REDTEAM_PREDICATE",
    "REGISTER_FILE",
    "REVEAL_ENVELOPE_FILE",
    "REVEAL_FILE",
    "REVEAL_PREDICATE",
    "RUN_ENVELOPE_FILE",
    "RUN_FORMAT",
    "RUN_PREDICATE",
    "RUN_RECORD_FILE",
    "SEAL_ENVELOPE_FILE",
    "SEAL_FILE",
    "SEAL_FORMAT",
    "SEAL_PREDICATE",
    "VERDICT_PREDICATE",
    "ListingReplay",
    "OpenedSeal",
    "RunDir",
    "commitment",
    "fresh_control_finding",
    "listing_result",
    "open_seal",
    "page_digest",
    "register_chain",
    "run_envelope_problems",
    "seal_values",
    "sign_run",
    "sign_verdict",
    "signed_verdict",
    "token_position",
]
