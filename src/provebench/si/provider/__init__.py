"""provebench as an OASIS SI environment provider (provider-guide §4): the provider API over HTTP
on 127.0.0.1, each provisioned environment a simulated estate (docs/si-provider.md).

Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si.provider._conformance import SI_PROFILE, conformance
    from provebench.si.provider._server import ProviderServer

_EXPORTS: dict[str, str] = {
    "ProviderServer": "provebench.si.provider._server",
    "SI_PROFILE": "provebench.si.provider._conformance",
    "conformance": "provebench.si.provider._conformance",
}

__all__ = ["SI_PROFILE", "ProviderServer", "conformance"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
