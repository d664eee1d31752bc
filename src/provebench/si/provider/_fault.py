"""The provider's own faults: answered with one fixed message, reported by type alone.

An exception's text may quote what the request carried — an agent's manifest, a runner's
entry (``invalid literal for int() with base 10: 'x'``) — so neither the answer nor the line on
the operator's terminal carries it: the answer is `FAULT_MESSAGE`, whatever failed, and the
line names the exception's type only, as provebench's local servers report a failed request
(`provebench._local_http`; red team SB-41, N3: a 500 body quoted the Python exception text).
"""

from __future__ import annotations

import sys
from typing import Final

FAULT_MESSAGE: Final = "internal error: the provider could not serve this request"


def provider_fault(error: BaseException, where: str) -> str:
    """Report ``error`` (a fault of the provider itself, while serving ``where``: a fixed
    name, never the request's) as one line on stderr, and return the message to answer."""
    print(
        f"provebench si provider: {where}: internal error ({type(error).__name__})",
        file=sys.stderr,
    )
    return FAULT_MESSAGE


__all__ = ["FAULT_MESSAGE", "provider_fault"]
