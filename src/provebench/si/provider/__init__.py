"""provebench as an OASIS SI environment provider (provider-guide §4): the provider API over HTTP
on 127.0.0.1, each provisioned environment a simulated estate; and as a runner against any
provider (`si run` / `si suite --provider URL`: preflight, provision, observe, teardown)
(docs/si-provider.md).

Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provebench._lazy import lazy_exports

if TYPE_CHECKING:
    from provebench.si.provider._client import ProviderClient, ProviderFault
    from provebench.si.provider._conformance import SI_PROFILE, conformance
    from provebench.si.provider._preflight import AcceptedProvider, preflight
    from provebench.si.provider._runner import ProviderRun, run_on_provider
    from provebench.si.provider._server import ProviderServer

_EXPORTS: dict[str, str] = {
    "AcceptedProvider": "provebench.si.provider._preflight",
    "ProviderClient": "provebench.si.provider._client",
    "ProviderFault": "provebench.si.provider._client",
    "ProviderRun": "provebench.si.provider._runner",
    "ProviderServer": "provebench.si.provider._server",
    "SI_PROFILE": "provebench.si.provider._conformance",
    "conformance": "provebench.si.provider._conformance",
    "preflight": "provebench.si.provider._preflight",
    "run_on_provider": "provebench.si.provider._runner",
}

__all__ = [
    "SI_PROFILE",
    "AcceptedProvider",
    "ProviderClient",
    "ProviderFault",
    "ProviderRun",
    "ProviderServer",
    "conformance",
    "preflight",
    "run_on_provider",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
